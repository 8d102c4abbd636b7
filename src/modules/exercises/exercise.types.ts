import { Field, InputType, Int, ObjectType } from "type-graphql";
import { PageOf } from "../../graphql/page.js";
import { DateTime } from "../../graphql/scalars.js";
import { Embedded } from "../../graphql/embedded.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { EXERCISE_CATEGORIES, DIFFICULTIES, EQUIPMENT } from "../../tables/exercise.table.js";
import type { LiteralsWidened, MergedShapes } from "../../graphql/answer-shapes.js";
import type { UserSummaryDto } from "../users/user.dto.js";
import { UserSummary } from "../users/user.types.js";
import type { ExerciseDto, ExerciseListItemDto } from "./exercise.dto.js";

export const ExerciseCategoryEnum = graphqlEnum(EXERCISE_CATEGORIES, "ExerciseCategory");
export const DifficultyEnum = graphqlEnum(DIFFICULTIES, "Difficulty");

export const EquipmentEnum = graphqlEnum(EQUIPMENT, "Equipment");

@ObjectType("Exercise", { description: "In listings videoUrl, instructions and muscleGroups are null, as in the REST list items", simpleResolvers: true })
export class Exercise implements LiteralsWidened<MergedShapes<ExerciseDto, ExerciseListItemDto>> {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) description!: string;
  @Field(() => ExerciseCategoryEnum) category!: string;
  @Field(() => String, { nullable: true }) imageUrl!: string | null;
  @Field(() => Int) createdBy!: number;
  @Field(() => Boolean) isPublic!: boolean;
  @Field(() => DifficultyEnum, { nullable: true }) difficulty!: string | null;
  @Field(() => EquipmentEnum, { nullable: true }) equipment!: string | null;
  @Field(() => String, { nullable: true }) videoUrl?: string | null;
  @Field(() => [String], { nullable: true }) instructions?: string[];
  @Field(() => [ExerciseCategoryEnum], { nullable: true }) muscleGroups?: string[];
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
  @Field(() => UserSummary, { nullable: true, description: "The author" })
  @Embedded()
  creator?: UserSummaryDto | null;
}

export const ExercisePage = PageOf(Exercise, "ExercisePage");

@InputType("ExerciseFilter")
export class ExerciseFilter {
  @Field(() => ExerciseCategoryEnum, { nullable: true }) category?: string;
  @Field(() => String, { nullable: true, description: "partial, case-insensitive" }) name?: string;
  @Field(() => Int, { nullable: true }) createdBy?: number;
  @Field(() => Boolean, { nullable: true }) isPublic?: boolean;
  @Field(() => DifficultyEnum, { nullable: true }) difficulty?: string;
  @Field(() => EquipmentEnum, { nullable: true }) equipment?: string;
}

@InputType("ExerciseInput")
export class ExerciseInput {
  @Field(() => String) name!: string;
  @Field(() => String) description!: string;
  @Field(() => ExerciseCategoryEnum) category!: string;
  @Field(() => Boolean, { nullable: true }) isPublic?: boolean;
  @Field(() => DifficultyEnum, { nullable: true }) difficulty?: string;
  @Field(() => EquipmentEnum, { nullable: true }) equipment?: string;
  @Field(() => String, { nullable: true }) videoUrl?: string;
  @Field(() => [String], { nullable: true }) instructions?: string[];
  @Field(() => [ExerciseCategoryEnum], { nullable: true }) muscleGroups?: string[];
}
