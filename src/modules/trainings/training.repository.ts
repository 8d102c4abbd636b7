import { and, asc, count, desc, eq, inArray, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { UserActor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { isAnyOf } from "../../platform/db/id-lists.js";
import { fromJson, jsonRows } from "../../platform/db/json.js";
import { preparedStatement } from "../../platform/db/prepared.js";
import { containsText } from "../../platform/db/text-search.js";
import type { PageRequest } from "../../platform/paging.js";
import { privateContentVisibleTo } from "../exercises/content-visibility.js";
import { exercises } from "../exercises/exercise.table.js";
import { liveAssignmentIncludes, planIdsScheduling } from "../training-plans/training-plan.fragments.js";
import { trainingExercises, trainings } from "./training.table.js";

export type TrainingRow = typeof trainings.$inferSelect;
export type TrainingExerciseValues = Omit<typeof trainingExercises.$inferInsert, "id" | "trainingId" | "position">;

export const TRAINING_SORTS: Record<string, AnyColumn> = {
  id: trainings.id,
  name: trainings.name,
  createdAt: trainings.createdAt,
  updatedAt: trainings.updatedAt,
};

/** The visibility rule of a training, as a SQL condition (undefined: everything). */
export function trainingVisibleTo(caller: UserActor | null): SQL | undefined {
  if (caller?.isAdmin) return undefined;
  if (!caller) return eq(trainings.isPublic, true);
  return or(eq(trainings.isPublic, true), privateContentVisibleTo(caller, trainings.createdBy, sql`${trainings.id}`));
}

/** What a training's exercise line reads as (its exercise's name joined). */
const lineFields = {
  id: trainingExercises.id,
  exerciseId: trainingExercises.exerciseId,
  exerciseName: exercises.name,
  sets: trainingExercises.sets,
  repetitions: trainingExercises.repetitions,
  weight: trainingExercises.weightKg,
  restSeconds: trainingExercises.restSeconds,
  order: trainingExercises.order,
  notes: trainingExercises.notes,
};
export type TrainingLine = Omit<Awaited<ReturnType<typeof trainingRepository.exercisesOf>>[number], "trainingId">;

/** The lines of the training of the enclosing query's row, as a JSON array of lineFields objects in their order. */
const linesAsJson = jsonRows(
  lineFields,
  sql`from ${trainingExercises} join ${exercises} on ${exercises.id} = ${trainingExercises.exerciseId} where ${trainingExercises.trainingId} = ${trainings.id}`,
  trainingExercises.position,
);

const trainingById = preparedStatement((db) =>
  db
    .select()
    .from(trainings)
    .where(eq(trainings.id, sql.placeholder("id")))
    .prepare("training_by_id"),
);

export const trainingRepository = {
  async findById(db: Db, id: number) {
    const [row] = await trainingById(db).execute({ id });
    return row ?? null;
  },

  async visibleIds(db: Db, caller: UserActor | null, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .select({ id: trainings.id })
      .from(trainings)
      .where(and(inArray(trainings.id, [...ids]), trainingVisibleTo(caller)));
    return new Set(rows.map((row) => row.id));
  },

  /** The trainings, kept from edits and deletes (FOR SHARE) for the rest of the transaction. */
  async lockForShare(db: Db, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(trainings)
      .where(inArray(trainings.id, [...ids]))
      .orderBy(asc(trainings.id))
      .for("share");
  },

  /** The exercise lines of several trainings with their exercise names, in the order they were sent. */
  async exercisesOf(db: Db, trainingIds: readonly number[]) {
    if (trainingIds.length === 0) return [];
    return db
      .select({ trainingId: trainingExercises.trainingId, ...lineFields })
      .from(trainingExercises)
      .innerJoin(exercises, eq(exercises.id, trainingExercises.exerciseId))
      .where(inArray(trainingExercises.trainingId, [...trainingIds]))
      .orderBy(asc(trainingExercises.trainingId), asc(trainingExercises.position));
  },

  /**
   * The trainings of `ids` the caller may see, each with its exercise lines (as exercisesOf reads them), in one
   * statement: the lines come as one JSON array per training, built by PostgreSQL.
   */
  async findVisibleWithLines(db: Db, caller: UserActor | null, ids: readonly number[]) {
    if (ids.length === 0) return [];
    const rows = await db
      .select({ training: trainings, lines: linesAsJson })
      .from(trainings)
      .where(and(isAnyOf(trainings.id, ids), trainingVisibleTo(caller)));
    return rows.map(({ training, lines }) => ({ training, lines: fromJson(lines) as TrainingLine[] }));
  },

  async exerciseCounts(db: Db, trainingIds: readonly number[]) {
    if (trainingIds.length === 0) return new Map<number, number>();
    const rows = await db
      .select({ trainingId: trainingExercises.trainingId, n: count() })
      .from(trainingExercises)
      .where(inArray(trainingExercises.trainingId, [...trainingIds]))
      .groupBy(trainingExercises.trainingId);
    return new Map(rows.map((row) => [row.trainingId, row.n]));
  },

  /** True when a plan schedules the training (deleting it would break the plan). */
  async isScheduled(db: Db, id: number) {
    const [row] = await db
      .select({ id: trainings.id })
      .from(trainings)
      .where(and(eq(trainings.id, id), sql`exists (${planIdsScheduling(id)})`));
    return Boolean(row);
  },

  async insert(db: Db, values: typeof trainings.$inferInsert) {
    const [row] = await db.insert(trainings).values(values).returning();
    return row;
  },

  async update(db: Db, id: number, changes: Partial<typeof trainings.$inferInsert>) {
    const [row] = await db.update(trainings).set(changes).where(eq(trainings.id, id)).returning();
    return row ?? null;
  },

  /** Replaces a training's exercise lines, keeping the order given. */
  async replaceExercises(db: Db, trainingId: number, lines: TrainingExerciseValues[]) {
    await db.delete(trainingExercises).where(eq(trainingExercises.trainingId, trainingId));
    if (lines.length > 0) {
      await db.insert(trainingExercises).values(lines.map((line, position) => ({ ...line, trainingId, position })));
    }
  },

  async delete(db: Db, id: number) {
    await db.delete(trainings).where(eq(trainings.id, id));
  },

  /** True when the user may execute the training: its creator, or a student whose PENDING or ACTIVE assignment has it. */
  async isExecutableBy(db: Db, trainingId: number, userId: number) {
    const [row] = await db
      .select({ id: trainings.id })
      .from(trainings)
      .where(and(eq(trainings.id, trainingId), or(eq(trainings.createdBy, userId), liveAssignmentIncludes(userId, sql`${trainings.id}`))));
    return Boolean(row);
  },

  async list(db: Db, caller: UserActor | null, filter: { name?: string; createdBy?: number; isPublic?: boolean }, request: PageRequest) {
    const conditions: (SQL | undefined)[] = [trainingVisibleTo(caller)];
    if (filter.name) conditions.push(containsText(trainings.name, filter.name));
    if (filter.createdBy !== undefined) conditions.push(eq(trainings.createdBy, filter.createdBy));
    if (filter.isPublic !== undefined) conditions.push(eq(trainings.isPublic, filter.isPublic));
    const where = and(...conditions);
    const order = [...request.sort.map((s) => (s.direction === "asc" ? asc : desc)(TRAINING_SORTS[s.field])), asc(trainings.id)];
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(trainings)
        .where(where)
        .orderBy(...order)
        .limit(request.size)
        .offset(request.page * request.size),
      db.select({ n: count() }).from(trainings).where(where),
    ]);
    return { rows, total: total.n };
  },
};
