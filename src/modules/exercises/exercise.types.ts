import { Field, InputType, Int, ObjectType } from "type-graphql";
import { orderByEnum, PageOf } from "../../graphql/page.js";
import { DateTime } from "../../graphql/scalars.js";
import { Embedded } from "../../graphql/embedded.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { describedBy } from "../../graphql/described.js";
import type { LiteralsWidened, MergedShapes } from "../../graphql/answer-shapes.js";
import type { UserSummaryDto } from "../users/user.dto.js";
import { UserSummary } from "../users/user.types.js";
import { difficulty, equipment, exerciseCategory, exerciseSchema, type ExerciseDto, type ExerciseListItemDto } from "./exercise.dto.js";
import { exerciseFilter, exerciseInput, exercisePaging } from "./exercise.inputs.js";

export const ExerciseCategoryEnum = graphqlEnum(exerciseCategory);
export const DifficultyEnum = graphqlEnum(difficulty);
export const EquipmentEnum = graphqlEnum(equipment);

const exercise = describedBy(exerciseSchema);

@ObjectType("Exercise", {
  description: `${exercise.type.description}. In listings videoUrl, instructions and muscleGroups are null, as in the REST list items`,
  simpleResolvers: true,
})
export class Exercise implements LiteralsWidened<MergedShapes<ExerciseDto, ExerciseListItemDto>> {
  @Field(() => Int, exercise("id")) id!: number;
  @Field(() => String, exercise("name")) name!: string;
  @Field(() => String, exercise("description")) description!: string;
  @Field(() => ExerciseCategoryEnum, exercise("category")) category!: string;
  @Field(() => String, exercise("imageUrl", { nullable: true })) imageUrl!: string | null;
  @Field(() => Int, exercise("createdBy")) createdBy!: number;
  @Field(() => Boolean, exercise("isPublic")) isPublic!: boolean;
  @Field(() => DifficultyEnum, exercise("difficulty", { nullable: true })) difficulty!: string | null;
  @Field(() => EquipmentEnum, exercise("equipment", { nullable: true })) equipment!: string | null;
  @Field(() => String, exercise("videoUrl", { nullable: true })) videoUrl?: string | null;
  @Field(() => [String], exercise("instructions", { nullable: true })) instructions?: string[];
  @Field(() => [ExerciseCategoryEnum], exercise("muscleGroups", { nullable: true })) muscleGroups?: string[];
  @Field(() => DateTime, exercise("createdAt")) createdAt!: Date;
  @Field(() => DateTime, exercise("updatedAt")) updatedAt!: Date;
  @Field(() => UserSummary, { nullable: true, description: "The author" })
  @Embedded()
  creator?: UserSummaryDto | null;
}

export const ExercisePage = PageOf(Exercise, "ExercisePage");
export const ExerciseOrderBy = orderByEnum("ExerciseOrderBy", exercisePaging, "exercises");

const filter = describedBy(exerciseFilter);

@InputType("ExerciseFilter", filter.type)
export class ExerciseFilter {
  @Field(() => ExerciseCategoryEnum, filter("category", { nullable: true })) category?: string;
  @Field(() => String, filter("name", { nullable: true })) name?: string;
  @Field(() => Int, filter("createdBy", { nullable: true })) createdBy?: number;
  @Field(() => Boolean, filter("isPublic", { nullable: true })) isPublic?: boolean;
  @Field(() => DifficultyEnum, filter("difficulty", { nullable: true })) difficulty?: string;
  @Field(() => EquipmentEnum, filter("equipment", { nullable: true })) equipment?: string;
}

const input = describedBy(exerciseInput);

@InputType("ExerciseInput", input.type)
export class ExerciseInput {
  @Field(() => String, input("name")) name!: string;
  @Field(() => String, input("description")) description!: string;
  @Field(() => ExerciseCategoryEnum, input("category")) category!: string;
  @Field(() => Boolean, input("isPublic", { nullable: true })) isPublic?: boolean;
  @Field(() => DifficultyEnum, input("difficulty", { nullable: true })) difficulty?: string;
  @Field(() => EquipmentEnum, input("equipment", { nullable: true })) equipment?: string;
  @Field(() => String, input("videoUrl", { nullable: true })) videoUrl?: string;
  @Field(() => [String], input("instructions", { nullable: true })) instructions?: string[];
  @Field(() => [ExerciseCategoryEnum], input("muscleGroups", { nullable: true })) muscleGroups?: string[];
}
