import { and, asc, count, desc, eq, inArray, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { UserActor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { containsText } from "../../platform/db/text-search.js";
import type { PageRequest } from "../../platform/paging.js";
import { personalStudentLinks } from "../coaching/coaching.table.js";
import { planAssignments, planTrainings } from "../training-plans/training-plan.table.js";
import { trainingExercises } from "../trainings/training.table.js";
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

/**
 * Who may see a private exercise or training (contract §4): its creator, the trainer ACTIVE-linked to its
 * student creator, and students whose PENDING or ACTIVE plan assignment uses it. `usedBy` is the SQL that finds
 * the trainings holding the item (for an exercise: through training_exercises). Public items and
 * administrators are the caller's business.
 */
export function privateContentVisibleTo(caller: UserActor, createdBy: AnyColumn, trainingIdsHolding: SQL): SQL {
  const links = personalStudentLinks;
  return sql`(
    ${createdBy} = ${caller.id}
    or ${createdBy} in (select ${links.studentId} from ${links} where ${links.personalId} = ${caller.id} and ${links.status} = 'ACTIVE')
    or exists (
      select 1 from ${planAssignments} join ${planTrainings} on ${planTrainings.planId} = ${planAssignments.planId}
      where ${planAssignments.studentId} = ${caller.id} and ${planAssignments.status} in ('PENDING', 'ACTIVE')
        and ${planTrainings.trainingId} in (${trainingIdsHolding})
    )
  )`;
}

/** The visibility rule of an exercise, as a SQL condition (null: everything is visible). */
export function exerciseVisibleTo(caller: UserActor | null): SQL | undefined {
  if (caller?.isAdmin) return undefined;
  if (!caller) return eq(exercises.isPublic, true);
  const holding = sql`select ${trainingExercises.trainingId} from ${trainingExercises} where ${trainingExercises.exerciseId} = ${exercises.id}`;
  return or(eq(exercises.isPublic, true), privateContentVisibleTo(caller, exercises.createdBy, holding));
}


export const exerciseRepository = {
  async findById(db: Db, id: number) {
    const [row] = await db.select().from(exercises).where(eq(exercises.id, id));
    return row ?? null;
  },

  async findByIds(db: Db, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db.select().from(exercises).where(inArray(exercises.id, [...ids]));
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

  async isUsedInTrainings(db: Db, id: number) {
    const [row] = await db.select({ id: trainingExercises.id }).from(trainingExercises).where(eq(trainingExercises.exerciseId, id)).limit(1);
    return Boolean(row);
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
      db.select().from(exercises).where(where).orderBy(...order).limit(request.size).offset(request.page * request.size),
      db.select({ n: count() }).from(exercises).where(where),
    ]);
    return { rows, total: total.n };
  },
};
