import { Field, InputType, Int, ObjectType } from "type-graphql";
import { ListBound, PARTS_ESTIMATE } from "../../graphql/list-bounds.js";
import { orderByEnum, PageOf } from "../../graphql/page.js";
import { DateTime, LocalDate } from "../../graphql/scalars.js";
import { DifficultyEnum } from "../exercises/exercise.types.js";
import { Embedded } from "../../graphql/embedded.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { describedBy } from "../../graphql/described.js";
import type { TrainingDto } from "../trainings/training.dto.js";
import { Training } from "../trainings/training.types.js";
import type { UserSummaryDto } from "../users/user.dto.js";
import { UserSummary } from "../users/user.types.js";
import type { LiteralsWidened } from "../../graphql/answer-shapes.js";
import {
  assignmentStatus,
  dayOfWeek,
  goal,
  planAssignmentSchema,
  planTrainingSchema,
  trainingPlanSchema,
  type PlanAssignmentDto,
  type PlanTrainingDto,
  type TrainingPlanDto,
} from "./training-plan.dto.js";
import { assignmentFilter, assignmentPaging, planFilter, planInput, planPaging, planTrainingInput } from "./training-plan.inputs.js";

export const GoalEnum = graphqlEnum(goal);
export const DayOfWeekEnum = graphqlEnum(dayOfWeek);

export const AssignmentStatusEnum = graphqlEnum(assignmentStatus);

const planTraining = describedBy(planTrainingSchema);

@ObjectType("PlanTraining", { ...planTraining.type, simpleResolvers: true })
export class PlanTraining implements LiteralsWidened<PlanTrainingDto> {
  @Field(() => Int, planTraining("id")) id!: number;
  @Field(() => Int, planTraining("trainingId")) trainingId!: number;
  @Field(() => String, planTraining("trainingName")) trainingName!: string;
  @Field(() => DayOfWeekEnum, planTraining("dayOfWeek")) dayOfWeek!: string;
  @Field(() => Int, planTraining("order")) order!: number;
  @Field(() => Training, { nullable: true, description: "The training itself; null when it is not visible to the caller" })
  @Embedded()
  training?: TrainingDto | null;
}

const plan = describedBy(trainingPlanSchema);

@ObjectType("TrainingPlan", { ...plan.type, simpleResolvers: true })
export class TrainingPlan implements LiteralsWidened<TrainingPlanDto> {
  @Field(() => Int, plan("id")) id!: number;
  @Field(() => String, plan("name")) name!: string;
  @Field(() => String, plan("description")) description!: string;
  @Field(() => Int, plan("createdBy")) createdBy!: number;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [PlanTraining], plan("trainings"))
  trainings!: PlanTraining[];
  @Field(() => Boolean, plan("isPublic")) isPublic!: boolean;
  @Field(() => DifficultyEnum, plan("difficulty", { nullable: true })) difficulty!: string | null;
  @Field(() => GoalEnum, plan("goal", { nullable: true })) goal!: string | null;
  @Field(() => Int, plan("duration", { nullable: true })) duration!: number | null;
  @Field(() => DateTime, plan("createdAt")) createdAt!: Date;
  @Field(() => DateTime, plan("updatedAt")) updatedAt!: Date;
  @Field(() => UserSummary, { nullable: true, description: "The author" })
  @Embedded()
  creator?: UserSummaryDto | null;
}

const assignment = describedBy(planAssignmentSchema);

@ObjectType("PlanAssignment", { ...assignment.type, simpleResolvers: true })
export class PlanAssignment implements LiteralsWidened<PlanAssignmentDto> {
  @Field(() => Int, assignment("id")) id!: number;
  @Field(() => Int, assignment("planId")) planId!: number;
  @Field(() => String, assignment("planName")) planName!: string;
  @Field(() => Int, assignment("studentId")) studentId!: number;
  @Field(() => String, assignment("studentName")) studentName!: string;
  @Field(() => Int, assignment("personalId")) personalId!: number;
  @Field(() => String, assignment("personalName")) personalName!: string;
  @Field(() => DateTime, assignment("assignedAt")) assignedAt!: Date;
  @Field(() => LocalDate, assignment("startDate")) startDate!: string;
  @Field(() => LocalDate, assignment("endDate", { nullable: true })) endDate!: string | null;
  @Field(() => AssignmentStatusEnum, assignment("status")) status!: string;
  @Field(() => String, assignment("notes", { nullable: true })) notes!: string | null;
}

export const TrainingPlanPage = PageOf(TrainingPlan, "TrainingPlanPage");
export const TrainingPlanOrderBy = orderByEnum("TrainingPlanOrderBy", planPaging, "training plans");
export const PlanAssignmentPage = PageOf(PlanAssignment, "PlanAssignmentPage");
export const PlanAssignmentOrderBy = orderByEnum("PlanAssignmentOrderBy", assignmentPaging, "plan assignments");

const trainingInput = describedBy(planTrainingInput);

@InputType("PlanTrainingInput", trainingInput.type)
export class PlanTrainingInput {
  @Field(() => Int, trainingInput("trainingId")) trainingId!: number;
  @Field(() => DayOfWeekEnum, trainingInput("dayOfWeek")) dayOfWeek!: string;
  @Field(() => Int, trainingInput("order")) order!: number;
}

const input = describedBy(planInput);

@InputType("TrainingPlanInput", input.type)
export class TrainingPlanInput {
  @Field(() => String, input("name")) name!: string;
  @Field(() => String, input("description")) description!: string;
  @Field(() => [PlanTrainingInput], input("trainings")) trainings!: PlanTrainingInput[];
  @Field(() => Boolean, input("isPublic", { nullable: true })) isPublic?: boolean;
  @Field(() => DifficultyEnum, input("difficulty", { nullable: true })) difficulty?: string;
  @Field(() => GoalEnum, input("goal", { nullable: true })) goal?: string;
  @Field(() => Int, input("duration", { nullable: true })) duration?: number;
}

const filter = describedBy(planFilter);

@InputType("TrainingPlanFilter", filter.type)
export class TrainingPlanFilter {
  @Field(() => String, filter("name", { nullable: true })) name?: string;
  @Field(() => Int, filter("createdBy", { nullable: true })) createdBy?: number;
  @Field(() => Boolean, filter("isPublic", { nullable: true })) isPublic?: boolean;
  @Field(() => DifficultyEnum, filter("difficulty", { nullable: true })) difficulty?: string;
  @Field(() => GoalEnum, filter("goal", { nullable: true })) goal?: string;
}

const assignments = describedBy(assignmentFilter);

@InputType("PlanAssignmentFilter", assignments.type)
export class PlanAssignmentFilter {
  @Field(() => Int, assignments("studentId", { nullable: true })) studentId?: number;
  @Field(() => Int, assignments("planId", { nullable: true })) planId?: number;
  @Field(() => AssignmentStatusEnum, assignments("status", { nullable: true })) status?: string;
  @Field(() => LocalDate, assignments("startDate", { nullable: true })) startDate?: string;
  @Field(() => LocalDate, assignments("endDate", { nullable: true })) endDate?: string;
}
