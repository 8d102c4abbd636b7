import { and, asc, count, desc, eq, inArray, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { UserActor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { isAnyOf } from "../../platform/db/id-lists.js";
import { preparedStatement } from "../../platform/db/prepared.js";
import { containsText } from "../../platform/db/text-search.js";
import type { PageRequest } from "../../platform/paging.js";
import { trainingIdsHoldingExercise } from "../trainings/training.fragments.js";
import { privateContentVisibleTo } from "./content-visibility.js";
import { exercises, type Difficulty, type Equipment, type ExerciseCategory } from "./exercise.table.js";

export type ExerciseRow = typeof exercises.$inferSelect;
export type NewExercise = typeof exercises.$inferInsert;

export interface ExerciseFilter {
  category?: ExerciseCategory;
  name?: string;
  createdBy?: number;
  isPublic?: boolean;
  difficulty?: Difficulty;
  equipment?: Equipment;
}

export const EXERCISE_SORTS: Record<string, AnyColumn> = {
  id: exercises.id,
  name: exercises.name,
  category: exercises.category,
  difficulty: exercises.difficulty,
  createdAt: exercises.createdAt,
  updatedAt: exercises.updatedAt,
};

/** The visibility rule of an exercise, as a SQL condition (undefined: everything is visible). */
export function exerciseVisibleTo(caller: UserActor | null): SQL | undefined {
  if (caller?.isAdmin) return undefined;
  if (!caller) return eq(exercises.isPublic, true);
  return or(eq(exercises.isPublic, true), privateContentVisibleTo(caller, exercises.createdBy, trainingIdsHoldingExercise(exercises.id)));
}

const exerciseById = preparedStatement((db) =>
  db
    .select()
    .from(exercises)
    .where(eq(exercises.id, sql.placeholder("id")))
    .prepare("exercise_by_id"),
);

export const exerciseRepository = {
  async findById(db: Db, id: number) {
    const [row] = await exerciseById(db).execute({ id });
    return row ?? null;
  },

  /** The exercises of `ids` that the caller may see, in one statement. */
  async findVisible(db: Db, caller: UserActor | null, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(exercises)
      .where(and(isAnyOf(exercises.id, ids), exerciseVisibleTo(caller)));
  },

  /** The ids among `ids` that the caller may see. */
  async visibleIds(db: Db, caller: UserActor | null, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .select({ id: exercises.id })
      .from(exercises)
      .where(and(inArray(exercises.id, [...ids]), exerciseVisibleTo(caller)));
    return new Set(rows.map((row) => row.id));
  },

  /** True when a training holds the exercise (deleting it would break the training). */
  async isInTraining(db: Db, id: number) {
    const [row] = await db
      .select({ id: exercises.id })
      .from(exercises)
      .where(and(eq(exercises.id, id), sql`exists (${trainingIdsHoldingExercise(id)})`));
    return Boolean(row);
  },

  async insert(db: Db, values: NewExercise) {
    const [row] = await db.insert(exercises).values(values).returning();
    return row;
  },

  /** The row, locked until the end of the caller's transaction (null when missing). */
  async findByIdForUpdate(db: Db, id: number) {
    const [row] = await db.select().from(exercises).where(eq(exercises.id, id)).for("update");
    return row ?? null;
  },

  async update(db: Db, id: number, changes: Partial<NewExercise>) {
    const [row] = await db.update(exercises).set(changes).where(eq(exercises.id, id)).returning();
    return row ?? null;
  },

  /** Deletes the row; answers the image URL it had at that moment (null when none, or when already gone). */
  async delete(db: Db, id: number): Promise<string | null> {
    const [row] = await db.delete(exercises).where(eq(exercises.id, id)).returning({ imageUrl: exercises.imageUrl });
    return row?.imageUrl ?? null;
  },

  async list(db: Db, caller: UserActor | null, filter: ExerciseFilter, request: PageRequest) {
    const conditions: (SQL | undefined)[] = [exerciseVisibleTo(caller)];
    if (filter.category) conditions.push(eq(exercises.category, filter.category));
    if (filter.name) conditions.push(containsText(exercises.name, filter.name));
    if (filter.createdBy !== undefined) conditions.push(eq(exercises.createdBy, filter.createdBy));
    if (filter.isPublic !== undefined) conditions.push(eq(exercises.isPublic, filter.isPublic));
    if (filter.difficulty) conditions.push(eq(exercises.difficulty, filter.difficulty));
    if (filter.equipment) conditions.push(eq(exercises.equipment, filter.equipment));
    const where = and(...conditions);
    const order = [...request.sort.map((s) => (s.direction === "asc" ? asc : desc)(EXERCISE_SORTS[s.field])), asc(exercises.id)];
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(exercises)
        .where(where)
        .orderBy(...order)
        .limit(request.size)
        .offset(request.page * request.size),
      db.select({ n: count() }).from(exercises).where(where),
    ]);
    return { rows, total: total.n };
  },
};
