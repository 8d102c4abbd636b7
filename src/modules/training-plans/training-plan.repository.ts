import { and, asc, count, desc, eq, gte, inArray, lte, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { UserActor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { idsAbove, isAnyOf } from "../../platform/db/id-lists.js";
import { preparedStatement, preparedStatements } from "../../platform/db/prepared.js";
import { planVisibleTo } from "../access/content.js";
import { preparedReader, readerKind, type ContentReader, type ReaderKind } from "../access/readers.js";
import { trainingJson, type TrainingInclude } from "../trainings/training.fragments.js";
import type { UserSummaryDto } from "../users/user.dto.js";
import { creatorFromJson, creatorJson, type AuthorInclude } from "../users/user.fragments.js";
import { fromJson, jsonRows } from "../../platform/db/json.js";
import { containsText } from "../../platform/db/text-search.js";
import type { PageRequest } from "../../platform/paging.js";
import type { Difficulty } from "../../tables/exercise.table.js";
import { trainings } from "../../tables/training.table.js";
import { users } from "../../tables/user.table.js";
import {
  LIVE_ASSIGNMENT_STATUSES,
  planAssignments,
  planTrainings,
  trainingPlans,
  type AssignmentStatus,
  type DayOfWeek,
  type Goal,
} from "../../tables/training-plan.table.js";
import { assignmentsInFeedOf, plansInFeedOf } from "./training-plan.fragments.js";
import { pageOf } from "../../platform/db/pages.js";

export type PlanRow = typeof trainingPlans.$inferSelect;

export const PLAN_SORTS: Record<string, AnyColumn> = {
  id: trainingPlans.id,
  name: trainingPlans.name,
  createdAt: trainingPlans.createdAt,
  updatedAt: trainingPlans.updatedAt,
  difficulty: trainingPlans.difficulty,
  goal: trainingPlans.goal,
  duration: trainingPlans.durationWeeks,
};

export const ASSIGNMENT_SORTS: Record<string, AnyColumn> = {
  id: planAssignments.id,
  assignedAt: planAssignments.assignedAt,
  startDate: planAssignments.startDate,
  endDate: planAssignments.endDate,
  status: planAssignments.status,
};

const planStudent = alias(users, "plan_student");
const planTrainer = alias(users, "plan_trainer");

const assignmentColumns = {
  id: planAssignments.id,
  planId: planAssignments.planId,
  planName: trainingPlans.name,
  studentId: planAssignments.studentId,
  studentName: planStudent.name,
  personalId: planAssignments.personalId,
  personalName: planTrainer.name,
  assignedAt: planAssignments.assignedAt,
  startDate: planAssignments.startDate,
  endDate: planAssignments.endDate,
  status: planAssignments.status,
  notes: planAssignments.notes,
};
export type AssignmentRecord = Awaited<ReturnType<typeof trainingPlanRepository.findAssignment>> & object;

export interface PlanFilter {
  name?: string;
  createdBy?: number;
  isPublic?: boolean;
  difficulty?: Difficulty;
  goal?: Goal;
}

export interface AssignmentFilter {
  personalId?: number;
  studentId?: number;
  planId?: number;
  status?: AssignmentStatus;
  startDate?: string;
  endDate?: string;
}

/** What a plan's scheduled training reads as (the training's name joined). */
const planTrainingFields = {
  id: planTrainings.id,
  trainingId: planTrainings.trainingId,
  trainingName: trainings.name,
  dayOfWeek: planTrainings.dayOfWeek,
  order: planTrainings.order,
};
export type PlanTrainingLine = Omit<Awaited<ReturnType<typeof trainingPlanRepository.trainingsOf>>[number], "planId">;
/** A plan's item as trainingsJson writes it: its `training` a JSON object when included (null: not visible to the reader). */
export type PlanTrainingJson = PlanTrainingLine & { training?: unknown };

/** A plan as a tree statement reads it: its row, its trainings' JSON array, its author's JSON object when included. */
interface PlanTreeRow {
  plan: PlanRow;
  visible: boolean;
  trainings: unknown;
  creator?: unknown;
}

/** A plan tree's row decoded: its trainings as trainingsJson wrote them, its author when read. */
const planTreeOf = (row: Omit<PlanTreeRow, "visible">): { plan: PlanRow; trainings: PlanTrainingJson[]; creator?: UserSummaryDto | null } => ({
  plan: row.plan,
  trainings: fromJson(row.trainings) as PlanTrainingJson[],
  ...creatorFromJson(row),
});

/**
 * The relations read along with a plan: its trainings (each with what TrainingInclude names), and the keys of those
 * items' JSON objects read (all when not said).
 */
export interface PlanInclude extends AuthorInclude {
  training?: TrainingInclude;
  keys?: string[];
}

/** The keys of a plan's item trainingsJson can write: planTrainingFields' and `training`. */
export const PLAN_TRAINING_JSON_KEYS = [...Object.keys(planTrainingFields), "training"];

/**
 * The trainings of the enclosing query's plan, as a JSON array of planTrainingFields objects in their order (only the
 * keys the include names, when it names them), each with its `training` (trainingJson: null when the reader may not
 * see it) when included.
 */
function trainingsJson(reader: ContentReader, include: PlanInclude) {
  return jsonRows(
    include.training ? { ...planTrainingFields, training: trainingJson(reader, include.training) } : planTrainingFields,
    sql`from ${planTrainings} join ${trainings} on ${trainings.id} = ${planTrainings.trainingId} where ${planTrainings.planId} = ${trainingPlans.id}`,
    planTrainings.position,
    include.keys,
  );
}
const trainingsAsJson = trainingsJson(null, {});

/** A plan, whether the reader may see it, and its trainings with what `include` names: a whole tree in one statement. */
const planTree = preparedStatements(
  ({ reader, include }: { reader: ReaderKind; include: PlanInclude }) => `${reader} ${JSON.stringify(include)}`,
  (db, { reader, include }) => {
    const bound = preparedReader(reader)!;
    return db
      .select({
        plan: trainingPlans,
        visible: sql<boolean>`${planVisibleTo(bound) ?? sql`true`}`,
        trainings: trainingsJson(bound, include),
        ...creatorJson(trainingPlans.createdBy, include),
      })
      .from(trainingPlans)
      .where(eq(trainingPlans.id, sql.placeholder("id")))
      .prepare("plan_tree");
  },
);

/** A trainer's PENDING and ACTIVE assignments (its dashboard), built once per database and bound at each call. */
const liveAssignmentCounts = preparedStatement((db) =>
  db
    .select({
      pending: sql<number>`(count(*) filter (where ${planAssignments.status} = 'PENDING'))::int`,
      active: sql<number>`(count(*) filter (where ${planAssignments.status} = 'ACTIVE'))::int`,
    })
    .from(planAssignments)
    .where(and(eq(planAssignments.personalId, sql.placeholder("personalId")), inArray(planAssignments.status, [...LIVE_ASSIGNMENT_STATUSES])))
    .prepare("live_assignment_counts"),
);

export const trainingPlanRepository = {
  async findById(db: Db, id: number) {
    const [row] = await db.select().from(trainingPlans).where(eq(trainingPlans.id, id));
    return row ?? null;
  },

  async isVisible(db: Db, caller: UserActor, id: number) {
    const [row] = await db
      .select({ id: trainingPlans.id })
      .from(trainingPlans)
      .where(and(eq(trainingPlans.id, id), planVisibleTo(caller)));
    return Boolean(row);
  },

  /**
   * The plan, whether the caller may see it, and its trainings (as trainingsOf reads them, each with its `training`
   * JSON object when `include` names it), in one statement; null when missing.
   */
  async findTree(db: Db, caller: UserActor, id: number, include: PlanInclude) {
    const [row]: PlanTreeRow[] = await planTree(db, { reader: readerKind(caller), include }).execute({ id, callerId: caller.id });
    return row ? { ...planTreeOf(row), visible: row.visible } : null;
  },

  /**
   * The plans of `ids` the caller may see, each with its trainings (as findTree reads them, with what `include` names),
   * in one statement (the loader of the plans other objects refer to).
   */
  async findVisibleWithTrainings(db: Db, caller: UserActor, ids: readonly number[], include: PlanInclude) {
    if (ids.length === 0) return [];
    const rows = await db
      .select({ plan: trainingPlans, trainings: trainingsJson(caller, include), ...creatorJson(trainingPlans.createdBy, include) })
      .from(trainingPlans)
      .where(and(isAnyOf(trainingPlans.id, ids), planVisibleTo(caller)));
    return (rows as PlanTreeRow[]).map(planTreeOf);
  },

  /** Those of `ids` in the change feed of `userId`, each with its trainings (as trainingsOf reads them), in one statement. */
  async findInFeedWithTrainings(db: Db, userId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    const rows = await db
      .select({ plan: trainingPlans, trainings: trainingsAsJson })
      .from(trainingPlans)
      .where(and(isAnyOf(trainingPlans.id, ids), sql`${trainingPlans.id} in (${plansInFeedOf(userId)})`));
    return rows.map((row) => ({ plan: row.plan, trainings: fromJson(row.trainings) as PlanTrainingLine[] }));
  },

  /** Up to `limit` ids above `afterId` in the change feed of `userId`, ascending. */
  idsInFeedAfter(db: Db, userId: number, afterId: number, limit: number): Promise<number[]> {
    return idsAbove(db, plansInFeedOf(userId), afterId, limit);
  },

  /** Those of `ids` `userId` is a party to (the change feed's assignments). */
  async findAssignmentsOf(db: Db, userId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db
      .select(assignmentColumns)
      .from(planAssignments)
      .innerJoin(trainingPlans, eq(trainingPlans.id, planAssignments.planId))
      .innerJoin(planStudent, eq(planStudent.id, planAssignments.studentId))
      .innerJoin(planTrainer, eq(planTrainer.id, planAssignments.personalId))
      .where(and(isAnyOf(planAssignments.id, ids), or(eq(planAssignments.studentId, userId), eq(planAssignments.personalId, userId))));
  },

  /** Every assignment `userId` is a party to, whatever its status, oldest first (their data export). */
  async assignmentsOfUser(db: Db, userId: number) {
    return db
      .select(assignmentColumns)
      .from(planAssignments)
      .innerJoin(trainingPlans, eq(trainingPlans.id, planAssignments.planId))
      .innerJoin(planStudent, eq(planStudent.id, planAssignments.studentId))
      .innerJoin(planTrainer, eq(planTrainer.id, planAssignments.personalId))
      .where(or(eq(planAssignments.studentId, userId), eq(planAssignments.personalId, userId)))
      .orderBy(asc(planAssignments.id));
  },

  /** PENDING and ACTIVE → CANCELED for every assignment `userId` is a party to; returns those it changed. */
  async cancelLiveAssignmentsOf(db: Db, userId: number, now: Date) {
    return db
      .update(planAssignments)
      .set({ status: "CANCELED", updatedAt: now })
      .where(
        and(or(eq(planAssignments.studentId, userId), eq(planAssignments.personalId, userId)), inArray(planAssignments.status, [...LIVE_ASSIGNMENT_STATUSES])),
      )
      .returning({ id: planAssignments.id, planId: planAssignments.planId, studentId: planAssignments.studentId, personalId: planAssignments.personalId });
  },

  /** The plans `userId` created, oldest first. */
  async plansCreatedBy(db: Db, userId: number) {
    return db.select().from(trainingPlans).where(eq(trainingPlans.createdBy, userId)).orderBy(asc(trainingPlans.id));
  },

  /** The ids of the private plans `userId` created, as a subquery. */
  privatePlansOf(userId: number): SQL {
    return sql`select ${trainingPlans.id} from ${trainingPlans} where ${trainingPlans.createdBy} = ${userId} and not ${trainingPlans.isPublic}`;
  },

  /** Deletes the private plans `userId` created (their assignments go with them). */
  async deletePrivatePlansOf(db: Db, userId: number) {
    await db.delete(trainingPlans).where(and(eq(trainingPlans.createdBy, userId), eq(trainingPlans.isPublic, false)));
  },

  /** Up to `limit` ids above `afterId` of the assignments `userId` is a party to, ascending. */
  assignmentIdsAfter(db: Db, userId: number, afterId: number, limit: number): Promise<number[]> {
    return idsAbove(db, assignmentsInFeedOf(userId), afterId, limit);
  },

  /** The trainings of several plans with their names, in the order they were sent. */
  async trainingsOf(db: Db, planIds: readonly number[]) {
    if (planIds.length === 0) return [];
    return db
      .select({ planId: planTrainings.planId, ...planTrainingFields })
      .from(planTrainings)
      .innerJoin(trainings, eq(trainings.id, planTrainings.trainingId))
      .where(inArray(planTrainings.planId, [...planIds]))
      .orderBy(asc(planTrainings.planId), asc(planTrainings.position));
  },

  async insert(db: Db, values: typeof trainingPlans.$inferInsert) {
    const [row] = await db.insert(trainingPlans).values(values).returning();
    return row;
  },

  async update(db: Db, id: number, changes: Partial<typeof trainingPlans.$inferInsert>) {
    const [row] = await db.update(trainingPlans).set(changes).where(eq(trainingPlans.id, id)).returning();
    return row ?? null;
  },

  async replaceTrainings(db: Db, planId: number, items: { trainingId: number; dayOfWeek: DayOfWeek; order: number }[]) {
    await db.delete(planTrainings).where(eq(planTrainings.planId, planId));
    if (items.length > 0) await db.insert(planTrainings).values(items.map((item, position) => ({ ...item, planId, position })));
  },

  async delete(db: Db, id: number) {
    await db.delete(trainingPlans).where(eq(trainingPlans.id, id));
  },

  /**
   * Locks a plan row for the rest of the transaction (delete or edit vs. a concurrent assign); the row, or null when
   * there is no such plan.
   */
  async lock(db: Db, id: number) {
    const [row] = await db.select().from(trainingPlans).where(eq(trainingPlans.id, id)).for("update");
    return row ?? null;
  },

  async hasLiveAssignments(db: Db, planId: number) {
    const [row] = await db
      .select({ id: planAssignments.id })
      .from(planAssignments)
      .where(and(eq(planAssignments.planId, planId), inArray(planAssignments.status, [...LIVE_ASSIGNMENT_STATUSES])))
      .limit(1);
    return Boolean(row);
  },

  /** A page of the plans the caller may see, each with its trainings (as findTree reads them, with what `include` names), and their total. */
  async list(db: Db, caller: UserActor, filter: PlanFilter, request: PageRequest, include: PlanInclude) {
    const conditions: (SQL | undefined)[] = [planVisibleTo(caller)];
    if (filter.name) conditions.push(containsText(trainingPlans.name, filter.name));
    if (filter.createdBy !== undefined) conditions.push(eq(trainingPlans.createdBy, filter.createdBy));
    if (filter.isPublic !== undefined) conditions.push(eq(trainingPlans.isPublic, filter.isPublic));
    if (filter.difficulty) conditions.push(eq(trainingPlans.difficulty, filter.difficulty));
    if (filter.goal) conditions.push(eq(trainingPlans.goal, filter.goal));
    const where = and(...conditions);
    const order = [...request.sort.map((s) => (s.direction === "asc" ? asc : desc)(PLAN_SORTS[s.field])), asc(trainingPlans.id)];
    const [rows, [total]] = await Promise.all([
      pageOf(
        db
          .select({ plan: trainingPlans, trainings: trainingsJson(caller, include), ...creatorJson(trainingPlans.createdBy, include) })
          .from(trainingPlans)
          .where(where)
          .orderBy(...order)
          .$dynamic(),
        request,
      ),
      db.select({ n: count() }).from(trainingPlans).where(where),
    ]);
    return { rows: (rows as PlanTreeRow[]).map(planTreeOf), total: total.n };
  },

  async insertAssignment(db: Db, values: typeof planAssignments.$inferInsert) {
    const [row] = await db.insert(planAssignments).values(values).returning({ id: planAssignments.id });
    return row.id;
  },

  async findAssignment(db: Db, id: number) {
    const [row] = await db
      .select(assignmentColumns)
      .from(planAssignments)
      .innerJoin(trainingPlans, eq(trainingPlans.id, planAssignments.planId))
      .innerJoin(planStudent, eq(planStudent.id, planAssignments.studentId))
      .innerJoin(planTrainer, eq(planTrainer.id, planAssignments.personalId))
      .where(eq(planAssignments.id, id));
    return row ?? null;
  },

  /** Moves an assignment from one of `from` to `to`; false when its status was no longer one of them. */
  async transition(db: Db, id: number, from: AssignmentStatus[], to: AssignmentStatus, now: Date) {
    const rows = await db
      .update(planAssignments)
      .set({ status: to, updatedAt: now })
      .where(and(eq(planAssignments.id, id), inArray(planAssignments.status, from)))
      .returning({ id: planAssignments.id });
    return rows.length > 0;
  },

  /** A trainer's assignments that are PENDING and ACTIVE. */
  async countLiveAssignmentsOf(db: Db, personalId: number) {
    const [row] = await liveAssignmentCounts(db).execute({ personalId });
    return row;
  },

  /** Completes ACTIVE assignments whose endDate is before `today` (YYYY-MM-DD); answers them. */
  async completeEnded(db: Db, today: string, now: Date) {
    return db
      .update(planAssignments)
      .set({ status: "COMPLETED", updatedAt: now })
      .where(and(eq(planAssignments.status, "ACTIVE"), sql`${planAssignments.endDate} < ${today}::date`))
      .returning({ id: planAssignments.id, planId: planAssignments.planId, studentId: planAssignments.studentId, personalId: planAssignments.personalId });
  },

  async listAssignments(db: Db, filter: AssignmentFilter, request: PageRequest) {
    const conditions: SQL[] = [];
    if (filter.personalId !== undefined) conditions.push(eq(planAssignments.personalId, filter.personalId));
    if (filter.studentId !== undefined) conditions.push(eq(planAssignments.studentId, filter.studentId));
    if (filter.planId !== undefined) conditions.push(eq(planAssignments.planId, filter.planId));
    if (filter.status) conditions.push(eq(planAssignments.status, filter.status));
    // An assignment matches a date range when its period overlaps it.
    if (filter.startDate) conditions.push(or(sql`${planAssignments.endDate} is null`, gte(planAssignments.endDate, filter.startDate))!);
    if (filter.endDate) conditions.push(lte(planAssignments.startDate, filter.endDate));
    const where = and(...conditions);
    const order = [...request.sort.map((s) => (s.direction === "asc" ? asc : desc)(ASSIGNMENT_SORTS[s.field])), desc(planAssignments.id)];
    const [rows, [total]] = await Promise.all([
      pageOf(
        db
          .select(assignmentColumns)
          .from(planAssignments)
          .innerJoin(trainingPlans, eq(trainingPlans.id, planAssignments.planId))
          .innerJoin(planStudent, eq(planStudent.id, planAssignments.studentId))
          .innerJoin(planTrainer, eq(planTrainer.id, planAssignments.personalId))
          .where(where)
          .orderBy(...order)
          .$dynamic(),
        request,
      ),
      db.select({ n: count() }).from(planAssignments).where(where),
    ]);
    return { rows, total: total.n };
  },

  /** Assignments of several plans (GraphQL TrainingPlan.assignments), newest first. */
  async assignmentsOfPlans(db: Db, planIds: readonly number[]) {
    if (planIds.length === 0) return [];
    return db
      .select(assignmentColumns)
      .from(planAssignments)
      .innerJoin(trainingPlans, eq(trainingPlans.id, planAssignments.planId))
      .innerJoin(planStudent, eq(planStudent.id, planAssignments.studentId))
      .innerJoin(planTrainer, eq(planTrainer.id, planAssignments.personalId))
      .where(inArray(planAssignments.planId, [...planIds]))
      .orderBy(desc(planAssignments.id));
  },
};
