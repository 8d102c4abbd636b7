import { Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { ListBound, PARTS_ESTIMATE } from "../../graphql/list-bounds.js";
import { orderByEnum, PageOf } from "../../graphql/page.js";
import { DateTime } from "../../graphql/scalars.js";
import type { MergedShapes } from "../../graphql/answer-shapes.js";
import { Embedded } from "../../graphql/embedded.js";
import { describedBy } from "../../graphql/described.js";
import type { ExerciseDto } from "../exercises/exercise.dto.js";
import { Exercise } from "../exercises/exercise.types.js";
import type { UserSummaryDto } from "../users/user.dto.js";
import { UserSummary } from "../users/user.types.js";
import {
  trainingExerciseSchema,
  trainingListItemSchema,
  trainingSchema,
  type TrainingDto,
  type TrainingExerciseDto,
  type TrainingListItemDto,
} from "./training.dto.js";
import { trainingExerciseInput, trainingFilter, trainingInput, trainingPaging } from "./training.inputs.js";

const line = describedBy(trainingExerciseSchema);

@ObjectType("TrainingExercise", { ...line.type, simpleResolvers: true })
export class TrainingExercise implements TrainingExerciseDto {
  @Field(() => Int, line("id")) id!: number;
  @Field(() => Int, line("exerciseId")) exerciseId!: number;
  @Field(() => String, line("exerciseName")) exerciseName!: string;
  @Field(() => Int, line("sets")) sets!: number;
  @Field(() => Int, line("repetitions", { nullable: true })) repetitions!: number | null;
  @Field(() => Float, line("weight", { nullable: true })) weight!: number | null;
  @Field(() => Int, line("restSeconds", { nullable: true })) restSeconds!: number | null;
  @Field(() => Int, line("order", { nullable: true })) order!: number | null;
  @Field(() => String, line("notes", { nullable: true })) notes!: string | null;
  @Field(() => Exercise, { nullable: true, description: "The exercise itself; null when it is not visible to the caller" })
  @Embedded()
  exercise?: ExerciseDto | null;
}

const training = describedBy(trainingSchema);
const listItem = describedBy(trainingListItemSchema);

@ObjectType("Training", {
  description: `${training.type.description}. In listings \`exercises\` is null and \`exerciseCount\` set, as in the REST list items`,
  simpleResolvers: true,
})
export class Training implements MergedShapes<TrainingDto, TrainingListItemDto> {
  @Field(() => Int, training("id")) id!: number;
  @Field(() => String, training("name")) name!: string;
  @Field(() => String, training("description", { nullable: true })) description!: string | null;
  @Field(() => Int, training("createdBy")) createdBy!: number;
  @Field(() => Boolean, training("isPublic")) isPublic!: boolean;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [TrainingExercise], { nullable: true, description: `${training("exercises").description}; null in listings` })
  exercises?: TrainingExercise[];
  @Field(() => Int, { nullable: true, description: `${listItem("exerciseCount").description}; set in listings only` }) exerciseCount?: number;
  @Field(() => DateTime, training("createdAt")) createdAt!: Date;
  @Field(() => DateTime, training("updatedAt")) updatedAt!: Date;
  @Field(() => UserSummary, { nullable: true, description: "The author" })
  @Embedded()
  creator?: UserSummaryDto | null;
}

export const TrainingPage = PageOf(Training, "TrainingPage");
export const TrainingOrderBy = orderByEnum("TrainingOrderBy", trainingPaging, "trainings");

const lineInput = describedBy(trainingExerciseInput);

@InputType("TrainingExerciseInput", lineInput.type)
export class TrainingExerciseInput {
  @Field(() => Int, lineInput("exerciseId")) exerciseId!: number;
  @Field(() => Int, lineInput("sets")) sets!: number;
  @Field(() => Int, lineInput("repetitions", { nullable: true })) repetitions?: number;
  @Field(() => Float, lineInput("weight", { nullable: true })) weight?: number;
  @Field(() => Int, lineInput("restSeconds", { nullable: true })) restSeconds?: number;
  @Field(() => Int, lineInput("order", { nullable: true })) order?: number;
  @Field(() => String, lineInput("notes", { nullable: true })) notes?: string;
}

const input = describedBy(trainingInput);

@InputType("TrainingInput", input.type)
export class TrainingInput {
  @Field(() => String, input("name")) name!: string;
  @Field(() => String, input("description", { nullable: true })) description?: string;
  @Field(() => Boolean, input("isPublic", { nullable: true })) isPublic?: boolean;
  @Field(() => [TrainingExerciseInput], input("exercises")) exercises!: TrainingExerciseInput[];
}

const filter = describedBy(trainingFilter);

@InputType("TrainingFilter", filter.type)
export class TrainingFilter {
  @Field(() => String, filter("name", { nullable: true })) name?: string;
  @Field(() => Int, filter("createdBy", { nullable: true })) createdBy?: number;
  @Field(() => Boolean, filter("isPublic", { nullable: true })) isPublic?: boolean;
}
