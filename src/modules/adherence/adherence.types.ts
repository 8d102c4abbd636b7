import { Field, Float, Int, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../graphql/enums.js";
import { HISTORY_LIST_CAP, ListBound } from "../../graphql/list-bounds.js";
import { PageOf } from "../../graphql/page.js";
import { DateTime, LocalDate } from "../../graphql/scalars.js";
import { MAX_ADHERENCE_WEEKS } from "./adherence.inputs.js";
import { ATTENTION_REASONS, type AdherenceDto, type AttentionReason, type StudentAdherenceDto } from "./adherence.dto.js";
import type { NestedShape } from "../../graphql/answer-shapes.js";

export const AttentionReasonEnum = graphqlEnum(ATTENTION_REASONS, "AttentionReason", "Why a student needs its trainer's attention");

@ObjectType("AdherenceWeek", { description: "An ISO week (Monday to Sunday, UTC) of an adherence window", simpleResolvers: true })
export class AdherenceWeek implements NestedShape<AdherenceDto, "weeks"> {
  @Field(() => LocalDate, { description: "Monday" }) weekStart!: string;
  @Field(() => Int) scheduled!: number;
  @Field(() => Int) completed!: number;
}

@ObjectType("AssignmentAdherence", { description: "An assignment's share of a student's adherence", simpleResolvers: true })
export class AssignmentAdherence implements NestedShape<AdherenceDto, "assignments"> {
  @Field(() => Int) assignmentId!: number;
  @Field(() => Int) planId!: number;
  @Field(() => String) planName!: string;
  @Field(() => Int) scheduled!: number;
  @Field(() => Int) completed!: number;
  @Field(() => Float, { nullable: true, description: "null when nothing is scheduled" }) adherence!: number | null;
}

@ObjectType("Adherence", { description: "Scheduled sessions of a student's plans over a window of days and how many were done", simpleResolvers: true })
export class Adherence implements AdherenceDto {
  @Field(() => Int) userId!: number;
  @Field(() => Int, { description: "days: 7, 30 or 90" }) window!: number;
  @Field(() => LocalDate) from!: string;
  @Field(() => LocalDate, { description: "today (UTC)" }) to!: string;
  @Field(() => Int) scheduled!: number;
  @Field(() => Int) completed!: number;
  @Field(() => Float, { nullable: true, description: "completed / scheduled (3 decimals); null when nothing is scheduled" }) adherence!: number | null;
  @Field(() => Float, { nullable: true, description: "the same over the window before" }) previousAdherence!: number | null;
  @Field(() => DateTime, { nullable: true }) lastTrainingAt!: string | null;
  @Field(() => Boolean) needsAttention!: boolean;
  @Field(() => [AttentionReasonEnum]) reasons!: AttentionReason[];
  @ListBound({ cap: MAX_ADHERENCE_WEEKS })
  @Field(() => [AdherenceWeek])
  weeks!: AdherenceWeek[];
  @ListBound({ cap: HISTORY_LIST_CAP })
  @Field(() => [AssignmentAdherence])
  assignments!: AssignmentAdherence[];
}

@ObjectType("StudentAdherence", { description: "One of a trainer's students and its adherence", simpleResolvers: true })
export class StudentAdherence implements StudentAdherenceDto {
  @Field(() => Int) userId!: number;
  @Field(() => String) studentName!: string;
  @Field(() => Int) window!: number;
  @Field(() => LocalDate) from!: string;
  @Field(() => LocalDate) to!: string;
  @Field(() => Int) scheduled!: number;
  @Field(() => Int) completed!: number;
  @Field(() => Float, { nullable: true }) adherence!: number | null;
  @Field(() => Float, { nullable: true }) previousAdherence!: number | null;
  @Field(() => DateTime, { nullable: true }) lastTrainingAt!: string | null;
  @Field(() => Boolean) needsAttention!: boolean;
  @Field(() => [AttentionReasonEnum]) reasons!: AttentionReason[];
}

export const StudentAdherencePage = PageOf(StudentAdherence, "StudentAdherencePage");
