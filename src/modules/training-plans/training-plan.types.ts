import { Field, InputType, Int, ObjectType } from "type-graphql";
import { ListBound, PARTS_ESTIMATE } from "../../graphql/list-bounds.js";
import { PageOf } from "../../graphql/page.js";
import { DateTime, LocalDate } from "../../graphql/scalars.js";
import { DifficultyEnum } from "../exercises/exercise.types.js";
import { Embedded } from "../../graphql/embedded.js";
import { graphqlEnum } from "../../graphql/enums.js";
import type { TrainingDto } from "../trainings/training.dto.js";
import { Training } from "../trainings/training.types.js";
import type { UserSummaryDto } from "../users/user.dto.js";
import { UserSummary } from "../users/user.types.js";
import { GOALS, DAYS_OF_WEEK, ASSIGNMENT_STATUSES } from "../../tables/training-plan.table.js";
import type { LiteralsWidened } from "../../graphql/answer-shapes.js";
import type { PlanAssignmentDto, PlanTrainingDto, TrainingPlanDto } from "./training-plan.dto.js";

export const GoalEnum = graphqlEnum(GOALS, "Goal");
export const DayOfWeekEnum = graphqlEnum(DAYS_OF_WEEK, "DayOfWeek");

export const AssignmentStatusEnum = graphqlEnum(ASSIGNMENT_STATUSES, "AssignmentStatus");

@ObjectType("PlanTraining", { simpleResolvers: true })
export class PlanTraining implements LiteralsWidened<PlanTrainingDto> {
  @Field(() => Int) id!: number;
  @Field(() => Int) trainingId!: number;
  @Field(() => String) trainingName!: string;
  @Field(() => DayOfWeekEnum) dayOfWeek!: string;
  @Field(() => Int, { description: "order within the day" }) order!: number;
  @Field(() => Training, { nullable: true, description: "Null when the training is not visible to the caller" })
  @Embedded()
  training?: TrainingDto | null;
}

@ObjectType("TrainingPlan", { simpleResolvers: true })
export class TrainingPlan implements LiteralsWidened<TrainingPlanDto> {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) description!: string;
  @Field(() => Int) createdBy!: number;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [PlanTraining])
  trainings!: PlanTraining[];
  @Field(() => Boolean) isPublic!: boolean;
  @Field(() => DifficultyEnum, { nullable: true }) difficulty!: string | null;
  @Field(() => GoalEnum, { nullable: true }) goal!: string | null;
  @Field(() => Int, { nullable: true, description: "weeks" }) duration!: number | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
  @Field(() => UserSummary, { nullable: true, description: "The author" })
  @Embedded()
  creator?: UserSummaryDto | null;
}

@ObjectType("PlanAssignment", { simpleResolvers: true })
export class PlanAssignment implements LiteralsWidened<PlanAssignmentDto> {
  @Field(() => Int) id!: number;
  @Field(() => Int) planId!: number;
  @Field(() => String) planName!: string;
  @Field(() => Int) studentId!: number;
  @Field(() => String) studentName!: string;
  @Field(() => Int) personalId!: number;
  @Field(() => String) personalName!: string;
  @Field(() => DateTime) assignedAt!: Date;
  @Field(() => LocalDate) startDate!: string;
  @Field(() => LocalDate, { nullable: true }) endDate!: string | null;
  @Field(() => AssignmentStatusEnum) status!: string;
  @Field(() => String, { nullable: true }) notes!: string | null;
}

export const TrainingPlanPage = PageOf(TrainingPlan, "TrainingPlanPage");
export const PlanAssignmentPage = PageOf(PlanAssignment, "PlanAssignmentPage");

@InputType("PlanTrainingInput")
export class PlanTrainingInput {
  @Field(() => Int) trainingId!: number;
  @Field(() => DayOfWeekEnum) dayOfWeek!: string;
  @Field(() => Int) order!: number;
}

@InputType("TrainingPlanInput")
export class TrainingPlanInput {
  @Field(() => String) name!: string;
  @Field(() => String) description!: string;
  @Field(() => [PlanTrainingInput]) trainings!: PlanTrainingInput[];
  @Field(() => Boolean, { nullable: true }) isPublic?: boolean;
  @Field(() => DifficultyEnum, { nullable: true }) difficulty?: string;
  @Field(() => GoalEnum, { nullable: true }) goal?: string;
  @Field(() => Int, { nullable: true, description: "weeks" }) duration?: number;
}

@InputType("TrainingPlanFilter")
export class TrainingPlanFilter {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => Int, { nullable: true }) createdBy?: number;
  @Field(() => Boolean, { nullable: true }) isPublic?: boolean;
  @Field(() => DifficultyEnum, { nullable: true }) difficulty?: string;
  @Field(() => GoalEnum, { nullable: true }) goal?: string;
}

@InputType("PlanAssignmentFilter")
export class PlanAssignmentFilter {
  @Field(() => Int, { nullable: true }) studentId?: number;
  @Field(() => Int, { nullable: true }) planId?: number;
  @Field(() => AssignmentStatusEnum, { nullable: true }) status?: string;
  @Field(() => LocalDate, { nullable: true }) startDate?: string;
  @Field(() => LocalDate, { nullable: true }) endDate?: string;
}
