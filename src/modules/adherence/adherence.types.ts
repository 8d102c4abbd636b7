import { Field, Float, Int, ObjectType } from "type-graphql";
import { describedBy } from "../../graphql/described.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { HISTORY_LIST_CAP, ListBound } from "../../graphql/list-bounds.js";
import { orderByEnum, PageOf } from "../../graphql/page.js";
import { DateTime, LocalDate } from "../../graphql/scalars.js";
import { MAX_ADHERENCE_WEEKS, studentAdherencePaging } from "./adherence.inputs.js";
import {
  adherenceSchema,
  adherenceWeekSchema,
  assignmentAdherenceSchema,
  attentionReason,
  studentAdherenceSchema,
  type AdherenceDto,
  type AttentionReason,
  type StudentAdherenceDto,
} from "./adherence.dto.js";
import type { NestedShape } from "../../graphql/answer-shapes.js";

export const AttentionReasonEnum = graphqlEnum(attentionReason);

const week = describedBy(adherenceWeekSchema);

@ObjectType("AdherenceWeek", { ...week.type, simpleResolvers: true })
export class AdherenceWeek implements NestedShape<AdherenceDto, "weeks"> {
  @Field(() => LocalDate, week("weekStart")) weekStart!: string;
  @Field(() => Int, week("scheduled")) scheduled!: number;
  @Field(() => Int, week("completed")) completed!: number;
}

const assignment = describedBy(assignmentAdherenceSchema);

@ObjectType("AssignmentAdherence", { ...assignment.type, simpleResolvers: true })
export class AssignmentAdherence implements NestedShape<AdherenceDto, "assignments"> {
  @Field(() => Int, assignment("assignmentId")) assignmentId!: number;
  @Field(() => Int, assignment("planId")) planId!: number;
  @Field(() => String, assignment("planName")) planName!: string;
  @Field(() => Int, assignment("scheduled")) scheduled!: number;
  @Field(() => Int, assignment("completed")) completed!: number;
  @Field(() => Float, assignment("adherence", { nullable: true })) adherence!: number | null;
}

const adherence = describedBy(adherenceSchema);

@ObjectType("Adherence", { ...adherence.type, simpleResolvers: true })
export class Adherence implements AdherenceDto {
  @Field(() => Int, adherence("userId")) userId!: number;
  @Field(() => Int, adherence("window")) window!: number;
  @Field(() => LocalDate, adherence("from")) from!: string;
  @Field(() => LocalDate, adherence("to")) to!: string;
  @Field(() => Int, adherence("scheduled")) scheduled!: number;
  @Field(() => Int, adherence("completed")) completed!: number;
  @Field(() => Float, adherence("adherence", { nullable: true })) adherence!: number | null;
  @Field(() => Float, adherence("previousAdherence", { nullable: true })) previousAdherence!: number | null;
  @Field(() => DateTime, adherence("lastTrainingAt", { nullable: true })) lastTrainingAt!: string | null;
  @Field(() => Boolean, adherence("needsAttention")) needsAttention!: boolean;
  @Field(() => [AttentionReasonEnum], adherence("reasons")) reasons!: AttentionReason[];
  @ListBound({ cap: MAX_ADHERENCE_WEEKS })
  @Field(() => [AdherenceWeek], adherence("weeks"))
  weeks!: AdherenceWeek[];
  @ListBound({ cap: HISTORY_LIST_CAP })
  @Field(() => [AssignmentAdherence], adherence("assignments"))
  assignments!: AssignmentAdherence[];
}

const student = describedBy(studentAdherenceSchema);

@ObjectType("StudentAdherence", { ...student.type, simpleResolvers: true })
export class StudentAdherence implements StudentAdherenceDto {
  @Field(() => Int, student("userId")) userId!: number;
  @Field(() => String, student("studentName")) studentName!: string;
  @Field(() => Int, student("window")) window!: number;
  @Field(() => LocalDate, student("from")) from!: string;
  @Field(() => LocalDate, student("to")) to!: string;
  @Field(() => Int, student("scheduled")) scheduled!: number;
  @Field(() => Int, student("completed")) completed!: number;
  @Field(() => Float, student("adherence", { nullable: true })) adherence!: number | null;
  @Field(() => Float, student("previousAdherence", { nullable: true })) previousAdherence!: number | null;
  @Field(() => DateTime, student("lastTrainingAt", { nullable: true })) lastTrainingAt!: string | null;
  @Field(() => Boolean, student("needsAttention")) needsAttention!: boolean;
  @Field(() => [AttentionReasonEnum], student("reasons")) reasons!: AttentionReason[];
}

export const StudentAdherencePage = PageOf(StudentAdherence, "StudentAdherencePage");
export const StudentAdherenceOrderBy = orderByEnum("StudentAdherenceOrderBy", studentAdherencePaging, "students' adherence");
