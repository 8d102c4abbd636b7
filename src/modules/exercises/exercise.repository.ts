import { and, asc, count, desc, eq, getTableColumns, ilike, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { UserActor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { idsAbove, isAnyOf } from "../../platform/db/id-lists.js";
import { pickKeys } from "../../platform/db/json.js";
import { isFirstPage, pageTotal, totalBeforePaging } from "../../platform/db/pages.js";
import { preparedStatements } from "../../platform/db/prepared.js";
import { containsPattern } from "../../platform/db/text-search.js";
import type { PageRequest, SortOrder } from "../../platform/paging.js";
import { exerciseVisibleTo } from "../access/content.js";
import { trainingIdsHoldingExercise } from "../access/holdings.js";
import { preparedReader, readerKind, type ReaderKind } from "../access/readers.js";
import { exercisesInFeedOf, type ExerciseInclude } from "./exercise.fragments.js";
import { creatorJson, decodeCreator } from "../users/user.fragments.js";
import type { CreatorIncluded } from "../users/user.dto.js";
import { exercises, type Difficulty, type Equipment, type ExerciseCategory } from "../../tables/exercise.table.js";

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
 * What shapes a listing's statement: who asks, the filters present, the order, the columns and authors read along
 * (ExerciseInclude), whether the total is counted; the values are bound.
 */
interface ListShape {
  caller: ReaderKind;
  filters: (keyof ExerciseFilter)[];
  sort: SortOrder[];
  include: ExerciseInclude;
  counted: boolean;
  /** Written without OFFSET (isFirstPage): PostgreSQL plans it once, not at every execution. */
  firstPage: boolean;
}

const FILTERS: (keyof ExerciseFilter)[] = ["category", "name", "createdBy", "isPublic", "difficulty", "equipment"];
/** A filter applies when given; a text one (category, name, difficulty, equipment) when not empty either. */
const applies = (filter: ExerciseFilter, key: keyof ExerciseFilter) =>
  key === "createdBy" || key === "isPublic" ? filter[key] !== undefined : Boolean(filter[key]);

const exercisePage = preparedStatements(
  (shape: ListShape) =>
    `${shape.caller} ${shape.filters.join(",")} ${shape.sort.map((s) => `${s.field}:${s.direction}`).join(",")} ${JSON.stringify(shape.include)} ${shape.counted} ${shape.firstPage}`,
  (db, shape) => {
    const value = (name: string) => sql.placeholder(name);
    const caller = preparedReader(shape.caller);
    const conditions: Record<keyof ExerciseFilter, SQL> = {
      category: eq(exercises.category, value("category")),
      name: ilike(exercises.name, value("name")),
      createdBy: eq(exercises.createdBy, value("createdBy")),
      isPublic: eq(exercises.isPublic, value("isPublic")),
      difficulty: eq(exercises.difficulty, value("difficulty")),
      equipment: eq(exercises.equipment, value("equipment")),
    };
    const where = and(exerciseVisibleTo(caller), ...shape.filters.map((key) => conditions[key]));
    const order = [...shape.sort.map((s) => (s.direction === "asc" ? asc : desc)(EXERCISE_SORTS[s.field])), asc(exercises.id)];
    const page = db
      // Counting over () reads every visible exercise before the page's LIMIT can stop the scan.
      .select({
        // The columns the selection reads (the id at least: a select needs one), flat: a row is read into one object.
        ...pickKeys(getTableColumns(exercises), shape.include.keys && ["id", ...shape.include.keys]),
        ...(shape.counted ? { total: totalBeforePaging() } : {}),
        ...creatorJson(exercises.createdBy, shape.include),
      })
      .from(exercises)
      .where(where)
      .orderBy(...order)
      .limit(value("limit"));
    return {
      rows: (shape.firstPage ? page : page.offset(value("offset"))).prepare("exercise_page"),
      total: db.select({ n: count() }).from(exercises).where(where).prepare("exercise_count"),
    };
  },
);

/** The ids bind as one array, so one text serves every batch of a kind of caller. */
const visibleExerciseIds = preparedStatements(
  (caller: ReaderKind) => caller,
  (db, caller) => db.select({ id: exercises.id }).from(exercises).where(visibleAmong(caller)).prepare("visible_exercise_ids"),
);

/** The exercises among the bound `ids` that a caller of this kind (bound `callerId`) may see. */
const visibleAmong = (caller: ReaderKind) => and(isAnyOf(exercises.id, sql.placeholder("ids")), exerciseVisibleTo(preparedReader(caller)));

/** An exercise with the relations `include` names (its author), by id: what a lookup and a write answer. */
const exerciseTree = preparedStatements(
  (include: ExerciseInclude) => (include.creator ? `creator(${include.creatorKeys?.join(",") ?? "*"})` : ""),
  (db, include) =>
    db
      .select({ ...getTableColumns(exercises), ...creatorJson(exercises.createdBy, include) })
      .from(exercises)
      .where(eq(exercises.id, sql.placeholder("id")))
      .prepare("exercise_tree"),
);

export const exerciseRepository = {
  async findById(db: Db, id: number): Promise<ExerciseRow | null> {
    return exerciseRepository.findTree(db, id, {});
  },

  /** The exercise, with its `creator` when `include` names it (null: a missing author), in one statement; null when missing. */
  async findTree(db: Db, id: number, include: ExerciseInclude): Promise<(ExerciseRow & CreatorIncluded) | null> {
    // Read flat into the one object answered from, its author decoded in place (as a page's rows are).
    const [row]: (ExerciseRow & CreatorIncluded)[] = await exerciseTree(db, include).execute({ id });
    if (!row) return null;
    decodeCreator(row);
    return row;
  },

  /** The ids among `ids` that the caller may see. */
  async visibleIds(db: Db, caller: UserActor | null, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await visibleExerciseIds(db, readerKind(caller)).execute({ ids, callerId: caller?.id });
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

  /** The exercises `userId` created, oldest first. */
  async createdBy(db: Db, userId: number) {
    return db.select().from(exercises).where(eq(exercises.createdBy, userId)).orderBy(asc(exercises.id));
  },

  /** Deletes the private exercises `userId` created that no training holds; answers the image URLs they had. */
  async deletePrivateUnusedOf(db: Db, userId: number): Promise<string[]> {
    const rows = await db
      .delete(exercises)
      .where(and(eq(exercises.createdBy, userId), eq(exercises.isPublic, false), sql`not exists (${trainingIdsHoldingExercise(exercises.id)})`))
      .returning({ imageUrl: exercises.imageUrl });
    return rows.flatMap((row) => (row.imageUrl ? [row.imageUrl] : []));
  },

  /** Those of `ids` in the change feed of `userId`. */
  async findInFeedOf(db: Db, userId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(exercises)
      .where(and(isAnyOf(exercises.id, ids), sql`${exercises.id} in (${exercisesInFeedOf(userId)})`));
  },

  /** Up to `limit` ids above `afterId` in the change feed of `userId`, ascending. */
  idsInFeedAfter(db: Db, userId: number, afterId: number, limit: number): Promise<number[]> {
    return idsAbove(db, exercisesInFeedOf(userId), afterId, limit);
  },

  /** Locks the exercises of `ids` (a subquery) FOR SHARE, in id order, until the end of the transaction. */
  async lockForShare(db: Db, ids: SQL) {
    await db
      .select({ id: exercises.id })
      .from(exercises)
      .where(sql`${exercises.id} in (${ids})`)
      .orderBy(asc(exercises.id))
      .for("share");
  },

  /**
   * A page of the exercises the caller may see (only the columns `include.keys` names, when it does), each with its
   * `creator` when `include` names it, and their total (NaN when not `counted`: it fails any answer that would show it).
   */
  async list(db: Db, caller: UserActor | null, filter: ExerciseFilter, request: PageRequest, include: ExerciseInclude = {}, counted = true) {
    const shape: ListShape = {
      include,
      counted,
      caller: readerKind(caller),
      filters: FILTERS.filter((key) => applies(filter, key)),
      sort: request.sort,
      firstPage: isFirstPage(request),
    };
    const statements = exercisePage(db, shape);
    const values = {
      ...filter,
      name: filter.name && containsPattern(filter.name),
      callerId: caller?.id,
      limit: request.size,
      offset: request.page * request.size,
    };
    // Each row is the object the page answers from: its author decoded in place and its `total` left on it (the
    // service copies the fields it answers), so a page of 20 makes 20 objects here, not 60.
    const rows: (ExerciseRow & CreatorIncluded & { total?: number })[] = await statements.rows.execute(values);
    for (const row of rows) decodeCreator(row);
    if (!counted) return { rows, total: Number.NaN };
    return { rows, total: await pageTotal(rows, request, async () => (await statements.total.execute(values))[0].n) };
  },
};
