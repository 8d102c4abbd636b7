import { and, asc, count, desc, eq, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { UserActor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { idsAbove, isAnyOf } from "../../platform/db/id-lists.js";
import { fromJson } from "../../platform/db/json.js";
import { preparedStatement, preparedStatements } from "../../platform/db/prepared.js";
import { containsText } from "../../platform/db/text-search.js";
import type { PageRequest } from "../../platform/paging.js";
import { trainingExecutableBy, trainingVisibleTo } from "../access/content.js";
import { planIdsScheduling } from "../access/holdings.js";
import { preparedReader, readerKind, type ReaderKind } from "../access/readers.js";
import { exercises } from "../../tables/exercise.table.js";
import { creatorFromJson, creatorJson, type AuthorInclude } from "../users/user.fragments.js";
import { lineFields, linesJson, trainingsInFeedOf, type TrainingInclude } from "./training.fragments.js";
import { trainingExercises, trainings } from "../../tables/training.table.js";
import { pageOf } from "../../platform/db/pages.js";

export type TrainingRow = typeof trainings.$inferSelect;
export type TrainingExerciseValues = Omit<typeof trainingExercises.$inferInsert, "id" | "trainingId" | "position">;

export const TRAINING_SORTS: Record<string, AnyColumn> = {
  id: trainings.id,
  name: trainings.name,
  createdAt: trainings.createdAt,
  updatedAt: trainings.updatedAt,
};

export type TrainingLine = Omit<Awaited<ReturnType<typeof trainingRepository.exercisesOf>>[number], "trainingId">;

/** The lines of the training of the enclosing query's row, without their exercises. */
const linesAsJson = linesJson(null, {});

const trainingById = preparedStatement((db) =>
  db
    .select()
    .from(trainings)
    .where(eq(trainings.id, sql.placeholder("id")))
    .prepare("training_by_id"),
);

/** The trainings among the bound `ids` that a reader of this kind (bound `callerId`) may see. */
const visibleAmong = (kind: ReaderKind) => and(isAnyOf(trainings.id, sql.placeholder("ids")), trainingVisibleTo(preparedReader(kind)));

/**
 * A training, whether a reader of this kind (bound `callerId`) may see it, and its lines with what `include` names
 * (their exercises, each null where the reader may not see it), by id, in one statement: what a lookup and a write
 * answer.
 */
const trainingTree = preparedStatements(
  ({ reader, include }: { reader: ReaderKind; include: TrainingInclude }) =>
    `${reader} ${JSON.stringify([include.exercise, include.lineKeys, include.creator && (include.creatorKeys ?? true)])}`,
  (db, { reader, include }) => {
    const bound = preparedReader(reader);
    return db
      .select({
        training: trainings,
        visible: sql<boolean>`${trainingVisibleTo(bound) ?? sql`true`}`,
        lines: linesJson(bound, include),
        ...creatorJson(trainings.createdBy, include),
      })
      .from(trainings)
      .where(eq(trainings.id, sql.placeholder("id")))
      .prepare("training_tree");
  },
);

/** The ids bind as one array, so one text serves every batch of a kind of reader. */
const visibleTrainingIds = preparedStatements(
  (kind: ReaderKind) => kind,
  (db, kind) => db.select({ id: trainings.id }).from(trainings).where(visibleAmong(kind)).prepare("visible_training_ids"),
);

export const trainingRepository = {
  async findById(db: Db, id: number) {
    const [row] = await trainingById(db).execute({ id });
    return row ?? null;
  },

  async visibleIds(db: Db, caller: UserActor | null, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await visibleTrainingIds(db, readerKind(caller)).execute({ ids, callerId: caller?.id });
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
   * The training, whether `reader` may see it, and its lines (as exercisesOf reads them, each with its `exercise` when
   * `include` names it), in one statement; null when missing.
   */
  async findTree(db: Db, reader: UserActor | null, id: number, include: TrainingInclude) {
    const [row]: { training: TrainingRow; visible: boolean; lines: unknown; creator?: unknown }[] = await trainingTree(db, {
      reader: readerKind(reader),
      include,
    }).execute({ id, callerId: reader?.id });
    if (!row) return null;
    const lines = fromJson(row.lines) as (TrainingLine & { exercise?: unknown })[];
    return { training: row.training, visible: row.visible, lines, ...creatorFromJson(row) };
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

  /** The row, locked until the end of the caller's transaction (null when missing). */
  async findByIdForUpdate(db: Db, id: number) {
    const [row] = await db.select().from(trainings).where(eq(trainings.id, id)).for("update");
    return row ?? null;
  },

  /** Locks the trainings of `ids` (a subquery) FOR SHARE, in id order, until the end of the transaction. */
  async lockForShareAmong(db: Db, ids: SQL) {
    await db
      .select({ id: trainings.id })
      .from(trainings)
      .where(sql`${trainings.id} in (${ids})`)
      .orderBy(asc(trainings.id))
      .for("share");
  },

  /** Those of `ids` in the change feed of `userId`, each with its exercise lines (as exercisesOf reads them), in one statement. */
  async findInFeedWithLines(db: Db, userId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    const rows = await db
      .select({ training: trainings, lines: linesAsJson })
      .from(trainings)
      .where(and(isAnyOf(trainings.id, ids), sql`${trainings.id} in (${trainingsInFeedOf(userId)})`));
    return rows.map(({ training, lines }) => ({ training, lines: fromJson(lines) as TrainingLine[] }));
  },

  /** Up to `limit` ids above `afterId` in the change feed of `userId`, ascending. */
  idsInFeedAfter(db: Db, userId: number, afterId: number, limit: number): Promise<number[]> {
    return idsAbove(db, trainingsInFeedOf(userId), afterId, limit);
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

  /** The trainings `userId` created, oldest first. */
  async createdBy(db: Db, userId: number) {
    return db.select().from(trainings).where(eq(trainings.createdBy, userId)).orderBy(asc(trainings.id));
  },

  /** Deletes the private trainings `userId` created that no plan schedules (a public plan keeps what it schedules). */
  async deletePrivateUnscheduledOf(db: Db, userId: number) {
    await db.delete(trainings).where(and(eq(trainings.createdBy, userId), eq(trainings.isPublic, false), sql`not exists (${planIdsScheduling(trainings.id)})`));
  },

  /** True when the user may execute the training (access's trainingExecutableBy). */
  async isExecutableBy(db: Db, trainingId: number, userId: number) {
    const [row] = await db
      .select({ id: trainings.id })
      .from(trainings)
      .where(and(eq(trainings.id, trainingId), trainingExecutableBy(userId)));
    return Boolean(row);
  },

  /** A page of the trainings the caller may see, each with its `creator` when `include` names it, and their total. */
  async list(
    db: Db,
    caller: UserActor | null,
    filter: { name?: string; createdBy?: number; isPublic?: boolean },
    request: PageRequest,
    include: AuthorInclude,
  ) {
    const conditions: (SQL | undefined)[] = [trainingVisibleTo(caller)];
    if (filter.name) conditions.push(containsText(trainings.name, filter.name));
    if (filter.createdBy !== undefined) conditions.push(eq(trainings.createdBy, filter.createdBy));
    if (filter.isPublic !== undefined) conditions.push(eq(trainings.isPublic, filter.isPublic));
    const where = and(...conditions);
    const order = [...request.sort.map((s) => (s.direction === "asc" ? asc : desc)(TRAINING_SORTS[s.field])), asc(trainings.id)];
    const [rows, [total]] = await Promise.all([
      pageOf(
        db
          .select({ training: trainings, ...creatorJson(trainings.createdBy, include) })
          .from(trainings)
          .where(where)
          .orderBy(...order)
          .$dynamic(),
        request,
      ),
      db.select({ n: count() }).from(trainings).where(where),
    ]);
    const withCreators = (rows as { training: TrainingRow; creator?: unknown }[]).map((row) => ({ ...row.training, ...creatorFromJson(row) }));
    return { rows: withCreators, total: total.n };
  },
};
