import { z } from "zod";
import { ensureMayPublish, requireOwnerOrAdmin } from "../access/ownership.js";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import { unlessForeignKeyRefuses } from "../../platform/db/constraint-violation.js";
import type { Db } from "../../platform/db/database.js";
import { conflict, forbidden, notFound, unauthorized } from "../../platform/errors.js";
import { toPage, type Page, type PageRequest } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import { EXERCISE_NOT_FOUND, exerciseFromJson, type ExerciseService } from "../exercises/exercise.service.js";
import type { CreatorIncluded, UserSummaryDto } from "../users/user.dto.js";
import { trainingRowFromJson, type TrainingInclude } from "./training.fragments.js";
import { type TrainingDto, type TrainingExerciseDto, type TrainingListItemDto, trainingSchema } from "./training.dto.js";
import type { TrainingInput, TrainingListQuery } from "./training.inputs.js";
import { trainingRepository, type TrainingLine, type TrainingRow } from "./training.repository.js";
import { sql, type SQL } from "drizzle-orm";
import type { FeedSource } from "../events/feed-source.js";
import { emit } from "../events/emit.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import { exerciseIdsOfTrainings } from "./training.fragments.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

export const TRAINING_NOT_FOUND = "Treino não encontrado";
export type { TrainingDto, TrainingExerciseDto, TrainingListItemDto };

const TRAINING_IN_USE = "Treino está em uso em planos de treino";

/** What the data export holds of this module (contract §15). */
const trainingExport = z.object({ trainings: z.array(trainingSchema).describe("The trainings the user wrote") });

/** Trainings: named, ordered lists of exercises that plans schedule and students execute. */
export class TrainingService {
  constructor(private readonly deps: { db: Db; clock: Clock; exercises: ExerciseService }) {}

  /** `include`: the relations the answer carries (its lines' exercises), read after the commit as a lookup reads them. */
  async create(actor: Actor, readInput: InputReader<TrainingInput>, include: TrainingInclude = {}): Promise<TrainingDto> {
    const caller = requireUser(actor);
    const input = readInput();
    ensureMayPublish(caller, input.isPublic);
    await this.deps.exercises.ensureVisible(caller, exerciseIdsOf(input));
    const { db, clock } = this.deps;
    const id = await db.transaction(async (tx) => {
      const now = clock.now();
      const row = await trainingRepository.insert(tx, {
        name: input.name,
        description: input.description ?? null,
        isPublic: input.isPublic,
        createdBy: caller.id,
        createdAt: now,
        updatedAt: now,
      });
      await writeLines(tx, row.id, input);
      await emit(tx, now, { type: "training.created", trainingId: row.id, ownerId: caller.id });
      return row.id;
    });
    return toTreeDto(await this.readTree(caller, id, include));
  }

  /** `include`: as for create. */
  async update(actor: Actor, id: number, readInput: InputReader<TrainingInput>, include: TrainingInclude = {}): Promise<TrainingDto> {
    const caller = requireUser(actor);
    await this.loadOwn(caller, id);
    const input = readInput();
    ensureMayPublish(caller, input.isPublic);
    await this.deps.exercises.ensureVisible(caller, exerciseIdsOf(input));
    const { db, clock } = this.deps;
    await db.transaction(async (tx) => {
      const now = clock.now();
      const before = await trainingRepository.findByIdForUpdate(tx, id);
      if (!before) throw notFound(TRAINING_NOT_FOUND);
      const row = (await trainingRepository.update(tx, id, {
        name: input.name,
        description: input.description ?? null,
        isPublic: input.isPublic,
        updatedAt: now,
      }))!;
      // The parties of live assignments scheduling it see its exercises: those it drops (read as DELETE unless they
      // still see them otherwise) and those it takes up (kept as they are until this commits: lockForShare).
      await emit(tx, now, { type: "training.exercises_removed", trainingId: id });
      await writeLines(tx, id, input);
      await this.deps.exercises.lockForShare(tx, exerciseIdsOfTrainings(sql`${id}`));
      await emit(tx, now, { type: "training.updated", trainingId: id, renamed: row.name !== before.name });
    });
    return toTreeDto(await this.readTree(caller, id, include));
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const caller = requireUser(actor);
    await this.loadOwn(caller, id);
    if (await trainingRepository.isScheduled(this.deps.db, id)) throw conflict(TRAINING_IN_USE);
    // Taken up by a plan in the meantime, its foreign key keeps it (executions only lose their link to it).
    await unlessForeignKeyRefuses(
      () =>
        this.deps.db.transaction(async (tx) => {
          // Locked first: executions logged meanwhile are in the audience below or wait for the delete (their foreign key).
          if (!(await trainingRepository.findByIdForUpdate(tx, id))) return;
          const now = this.deps.clock.now();
          await emit(tx, now, { type: "training.deleted", trainingId: id });
          await trainingRepository.delete(tx, id);
        }),
      () => conflict(TRAINING_IN_USE),
    );
  }

  /** One training with its lines, and the relations `include` names, in one statement; 401 / 403 as contract §4 says. */
  async get(actor: Actor, id: number, include: TrainingInclude = {}): Promise<TrainingDto> {
    const caller = actor.kind === "user" ? actor : null;
    const found = await this.readTree(caller, id, include);
    if (!found.visible) throw caller ? forbidden() : unauthorized();
    return toTreeDto(found);
  }

  /** A page of the trainings the caller may see, each with its author when `include` names it. */
  async list(actor: Actor, readQuery: InputReader<TrainingListQuery>, include: TrainingInclude = {}): Promise<Page<TrainingListItemDto>> {
    const caller = requireUser(actor);
    const { filter, page: request } = readQuery();
    const db = mayBeStale(this.deps.db);
    const { rows, total } = await trainingRepository.list(db, caller, filter, request, include);
    return toPage(await this.toListItems(rows, db), total, request);
  }

  /** The trainings the caller created; `include` as for list. */
  async listMine(actor: Actor, readPage: InputReader<PageRequest>, include: TrainingInclude = {}): Promise<Page<TrainingListItemDto>> {
    const caller = requireUser(actor);
    const request = readPage();
    const db = mayBeStale(this.deps.db);
    const { rows, total } = await trainingRepository.list(db, caller, { createdBy: caller.id }, request, include);
    return toPage(await this.toListItems(rows, db), total, request);
  }

  /** A training the caller may execute (its creator, or a student whose PENDING or ACTIVE assignment has it), else 404 / 403. */
  async getExecutable(caller: UserActor, id: number): Promise<TrainingDto> {
    // Read as nobody in particular: whether it may be executed is its own rule, not whether it may be seen.
    const found = await this.readTree(null, id, {});
    if (!(await trainingRepository.isExecutableBy(this.deps.db, id, caller.id))) throw forbidden();
    return toTreeDto(found);
  }

  /** The training whoever asks, else 404: a user's executions and figures name trainings the user may no longer see. */
  async getExisting(id: number): Promise<TrainingRow> {
    const row = await trainingRepository.findById(this.deps.db, id);
    if (!row) throw notFound(TRAINING_NOT_FOUND);
    return row;
  }

  /** Every one of `ids` exists and is visible to the caller, else 404 (what a plan may schedule). */
  async ensureVisible(caller: UserActor, ids: readonly number[]): Promise<void> {
    const visible = await trainingRepository.visibleIds(this.deps.db, caller, ids);
    if (ids.some((id) => !visible.has(id))) throw notFound(TRAINING_NOT_FOUND);
  }

  /**
   * Private copies owned by `ownerId`, with their exercise lines, of those of `ids` it did not create; original id →
   * copy id. All of `ids` are kept from edits and deletes (FOR SHARE) for the rest of the caller's transaction `tx`.
   */
  async copyForOwner(tx: Db, ids: readonly number[], ownerId: number, now: Date): Promise<Map<number, number>> {
    const originals = (await trainingRepository.lockForShare(tx, ids)).filter((row) => row.createdBy !== ownerId);
    const lines = await trainingRepository.exercisesOf(
      tx,
      originals.map((row) => row.id),
    );
    const copies = new Map<number, number>();
    for (const original of originals) {
      const copy = await trainingRepository.insert(tx, {
        name: original.name,
        description: original.description,
        isPublic: false,
        createdBy: ownerId,
        createdAt: now,
        updatedAt: now,
      });
      await trainingRepository.replaceExercises(
        tx,
        copy.id,
        lines
          .filter((line) => line.trainingId === original.id)
          .map((line) => ({
            exerciseId: line.exerciseId,
            sets: line.sets,
            repetitions: line.repetitions,
            weightKg: line.weight,
            restSeconds: line.restSeconds,
            order: line.order,
            notes: line.notes,
          })),
      );
      copies.set(original.id, copy.id);
    }
    await emit(tx, now, ...[...copies.values()].map((trainingId) => ({ type: "training.created" as const, trainingId, ownerId })));
    return copies;
  }

  /** The trainings a user created (contract §15); erasure deletes the private ones no plan still schedules. */
  readonly personalData: PersonalDataHolder<typeof trainingExport> = {
    exportSections: trainingExport,
    exportPersonalData: async (db, userId) => {
      const rows = await trainingRepository.createdBy(db, userId);
      const lines = await trainingRepository.exercisesOf(
        db,
        rows.map((row) => row.id),
      );
      return {
        trainings: rows.map((row) =>
          toDto(
            row,
            lines.filter((line) => line.trainingId === row.id).map(({ trainingId: _t, ...line }) => line),
          ),
        ),
      };
    },
    erasePersonalData: async (tx, userId) => {
      await trainingRepository.deletePrivateUnscheduledOf(tx, userId);
    },
  };

  /** The change feed's trainings (contract §13.3): those the reader created or has through a live assignment. */
  readonly feed: FeedSource<TrainingDto> = {
    load: async (reader, ids) =>
      new Map((await trainingRepository.findInFeedWithLines(this.deps.db, reader.id, ids)).map(({ training, lines }) => [training.id, toDto(training, lines)])),
    idsAfter: (reader, afterId, limit) => trainingRepository.idsInFeedAfter(this.deps.db, reader.id, afterId, limit),
  };

  /**
   * Keeps the trainings of `ids` (a subquery) and their exercises from edits and deletes (FOR SHARE) until the end of
   * the caller's transaction `tx`: a write giving them to new readers of the change feed records them as they are
   * when it commits, and an edit waiting for it finds those readers in its audience.
   */
  async lockForShareWithExercises(tx: Db, ids: SQL): Promise<void> {
    await trainingRepository.lockForShareAmong(tx, ids);
    await this.deps.exercises.lockForShare(tx, exerciseIdsOfTrainings(ids));
  }

  /** The training by id, whether `reader` may see it, and its lines with what `include` names; 404 when missing. */
  private async readTree(reader: UserActor | null, id: number, include: TrainingInclude) {
    const found = await trainingRepository.findTree(this.deps.db, reader, id, include);
    if (!found) throw notFound(TRAINING_NOT_FOUND);
    return found;
  }

  private async toListItems(rows: (TrainingRow & CreatorIncluded)[], db: Db): Promise<TrainingListItemDto[]> {
    const counts = await trainingRepository.exerciseCounts(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      createdBy: row.createdBy,
      isPublic: row.isPublic,
      exerciseCount: counts.get(row.id) ?? 0,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      ...(row.creator !== undefined && { creator: row.creator }),
    }));
  }

  private async loadOwn(caller: UserActor, id: number): Promise<TrainingRow> {
    const row = await trainingRepository.findById(this.deps.db, id);
    if (!row) throw notFound(TRAINING_NOT_FOUND);
    requireOwnerOrAdmin(caller, row.createdBy);
    return row;
  }
}

function toDto(row: TrainingRow & CreatorIncluded, lines: TrainingLine[]): TrainingDto {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    createdBy: row.createdBy,
    isPublic: row.isPublic,
    exercises: lines,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    ...(row.creator !== undefined && { creator: row.creator }),
  };
}

type LineJson = Omit<TrainingExerciseDto, "exercise"> & { exercise?: unknown };

/** Lines as linesJson wrote them, each with its exercise when included (null: not visible to the reader). */
const linesFromJson = (lines: LineJson[]): TrainingExerciseDto[] =>
  lines.map(({ exercise, ...line }) =>
    exercise === undefined ? line : { ...line, exercise: exercise && exerciseFromJson(exercise as Record<string, unknown>) },
  );

/** A training read by id with its lines and, when included, its author (trainingRepository.findTree). */
const toTreeDto = (found: { training: TrainingRow; lines: LineJson[] } & CreatorIncluded) =>
  toDto({ ...found.training, creator: found.creator }, linesFromJson(found.lines));

/**
 * A training as trainingJson carries it inside a tree read in one statement, its author and its lines' exercises when
 * included; only the keys it was written with (no lines: none, for a selection that reads none).
 */
export function trainingFromJson(json: Record<string, unknown>): TrainingDto {
  const row = { ...trainingRowFromJson(json), creator: json.creator as UserSummaryDto | null | undefined };
  return toDto(row, linesFromJson((json.lines as LineJson[] | undefined) ?? []));
}

/** The exercises a training holds: each must exist and be visible to its author (contract §4). */
function exerciseIdsOf(input: TrainingInput): number[] {
  return [...new Set(input.exercises.map((line) => line.exerciseId))];
}

function linesOf(input: TrainingInput) {
  return input.exercises.map((line) => ({
    exerciseId: line.exerciseId,
    sets: line.sets,
    repetitions: line.repetitions ?? null,
    weightKg: line.weight ?? null,
    restSeconds: line.restSeconds ?? null,
    order: line.order ?? null,
    notes: line.notes ?? null,
  }));
}

/** A training's exercise lines; an exercise deleted since the visibility check is one not found, as the check says. */
function writeLines(tx: Db, trainingId: number, input: TrainingInput): Promise<void> {
  return unlessForeignKeyRefuses(
    () => trainingRepository.replaceExercises(tx, trainingId, linesOf(input)),
    () => notFound(EXERCISE_NOT_FOUND),
  );
}
