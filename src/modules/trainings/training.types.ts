import { Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { ListBound, PARTS_ESTIMATE } from "../../graphql/list-bounds.js";
import { PageOf } from "../../graphql/page.js";
import { DateTime } from "../../graphql/scalars.js";
import type { MergedShapes } from "../../graphql/answer-shapes.js";
import { Embedded } from "../../graphql/embedded.js";
import type { ExerciseDto } from "../exercises/exercise.dto.js";
import { Exercise } from "../exercises/exercise.types.js";
import type { UserSummaryDto } from "../users/user.dto.js";
import { UserSummary } from "../users/user.types.js";
import type { TrainingDto, TrainingExerciseDto, TrainingListItemDto } from "./training.dto.js";

@ObjectType("TrainingExercise", { simpleResolvers: true })
export class TrainingExercise implements TrainingExerciseDto {
  @Field(() => Int) id!: number;
  @Field(() => Int) exerciseId!: number;
  @Field(() => String) exerciseName!: string;
  @Field(() => Int) sets!: number;
  @Field(() => Int, { nullable: true }) repetitions!: number | null;
  @Field(() => Float, { nullable: true, description: "kg" }) weight!: number | null;
  @Field(() => Int, { nullable: true }) restSeconds!: number | null;
  @Field(() => Int, { nullable: true }) order!: number | null;
  @Field(() => String, { nullable: true }) notes!: string | null;
  @Field(() => Exercise, { nullable: true, description: "Null when the exercise is not visible to the caller" })
  @Embedded()
  exercise?: ExerciseDto | null;
}

@ObjectType("Training", { description: "In listings `exercises` is null and `exerciseCount` set, as in the REST list items", simpleResolvers: true })
export class Training implements MergedShapes<TrainingDto, TrainingListItemDto> {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => Int) createdBy!: number;
  @Field(() => Boolean) isPublic!: boolean;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [TrainingExercise], { nullable: true })
  exercises?: TrainingExercise[];
  @Field(() => Int, { nullable: true }) exerciseCount?: number;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
  @Field(() => UserSummary, { nullable: true, description: "The author" })
  @Embedded()
  creator?: UserSummaryDto | null;
}

export const TrainingPage = PageOf(Training, "TrainingPage");

@InputType("TrainingExerciseInput")
export class TrainingExerciseInput {
  @Field(() => Int) exerciseId!: number;
  @Field(() => Int) sets!: number;
  @Field(() => Int, { nullable: true }) repetitions?: number;
  @Field(() => Float, { nullable: true }) weight?: number;
  @Field(() => Int, { nullable: true }) restSeconds?: number;
  @Field(() => Int, { nullable: true }) order?: number;
  @Field(() => String, { nullable: true }) notes?: string;
}

@InputType("TrainingInput")
export class TrainingInput {
  @Field(() => String) name!: string;
  @Field(() => String, { nullable: true }) description?: string;
  @Field(() => Boolean, { nullable: true }) isPublic?: boolean;
  @Field(() => [TrainingExerciseInput]) exercises!: TrainingExerciseInput[];
}

@InputType("TrainingFilter")
export class TrainingFilter {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => Int, { nullable: true }) createdBy?: number;
  @Field(() => Boolean, { nullable: true }) isPublic?: boolean;
}
