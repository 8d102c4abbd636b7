import { z } from "zod";
import { ensureMayPublish, requireOwnerOrAdmin } from "../access/ownership.js";
import { contentVisibleAtOnce } from "../access/content.js";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import { unlessForeignKeyRefuses } from "../../platform/db/constraint-violation.js";
import type { Db } from "../../platform/db/database.js";
import { conflict, forbidden, notFound, unauthorized } from "../../platform/errors.js";
import { toPage, type Page, type PageRequest } from "../../platform/paging.js";
import type { ImageStorage, UploadedFile } from "../../platform/storage/image-storage.js";
import type { InputReader } from "../../platform/validation.js";
import type { ExerciseInput, ExerciseListQuery } from "./exercise.inputs.js";
import { exerciseRepository, type ExerciseRow } from "./exercise.repository.js";
import { exerciseRowFromJson, type ExerciseInclude } from "./exercise.fragments.js";
import { EXERCISE_CATEGORIES } from "../../tables/exercise.table.js";
import type { CreatorIncluded, UserSummaryDto } from "../users/user.dto.js";
import { type ExerciseDto, type ExerciseListItemDto, exerciseSchema } from "./exercise.dto.js";

export type { ExerciseDto, ExerciseListItemDto };
import type { SQL } from "drizzle-orm";
import type { FeedSource } from "../events/feed-source.js";
import { emit } from "../events/emit.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

export const EXERCISE_NOT_FOUND = "Exercício não encontrado";
const EXERCISE_IN_USE = "Exercício está em uso em treinos";

/** An exercise as sent (the REST multipart's `exercise` part, GraphQL's ExerciseInput) and its optional image. */
export interface ExerciseUpload {
  readExercise: InputReader<Promise<ExerciseInput>>;
  readFile: () => Promise<UploadedFile | undefined>;
}

/** What a page of exercises answers of a row: its fields but the long ones, and its author when read (one object made). */
function toListItem(row: ExerciseRow & CreatorIncluded): ExerciseListItemDto {
  const item: ExerciseListItemDto = {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    imageUrl: row.imageUrl,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    isPublic: row.isPublic,
    difficulty: row.difficulty,
    equipment: row.equipment,
  };
  if (row.creator !== undefined) item.creator = row.creator;
  return item;
}

/** An exercise as every answer of one shows it: a page's item (its author when read with it), and the long fields after it. */
export function toExerciseDto(row: ExerciseRow): ExerciseDto {
  const dto = toListItem(row) as ExerciseDto;
  dto.videoUrl = row.videoUrl;
  dto.instructions = row.instructions;
  dto.muscleGroups = row.muscleGroups;
  return dto;
}

/** An exercise as exerciseJson carries it inside a tree read in one statement, with its `creator` when included. */
export function exerciseFromJson(json: Record<string, unknown>): ExerciseDto {
  const dto = toExerciseDto(exerciseRowFromJson(json));
  if (json.creator !== undefined) dto.creator = json.creator as UserSummaryDto | null;
  return dto;
}

/** What the data export holds of this module (contract §15). */
const exerciseExport = z.object({ exercises: z.array(exerciseSchema).describe("The exercises the user wrote, public and private") });

/** The exercise library: who may create, see, change and delete exercises, and their images. */
export class ExerciseService {
  constructor(private readonly deps: { db: Db; clock: Clock; storage: ImageStorage }) {}

  listCategories(): readonly string[] {
    return EXERCISE_CATEGORIES;
  }

  /** `include`: the relations the answer carries (its author), read after the commit as a lookup reads them. */
  async create(actor: Actor, upload: ExerciseUpload, include: ExerciseInclude = {}): Promise<ExerciseDto> {
    const caller = requireUser(actor);
    const input = await upload.readExercise();
    ensureMayPublish(caller, input.isPublic);
    const file = await upload.readFile();
    const imageUrl = file ? await this.deps.storage.saveImage(file) : null;
    const now = this.deps.clock.now();
    let row: ExerciseRow;
    try {
      row = await this.deps.db.transaction(async (tx) => {
        const created = await exerciseRepository.insert(tx, {
          ...fieldsOf(input),
          imageUrl,
          imageVersion: imageUrl ? 1 : 0,
          createdBy: caller.id,
          createdAt: now,
          updatedAt: now,
        });
        await emit(tx, now, { type: "exercise.created", exerciseId: created.id, ownerId: caller.id });
        return created;
      });
    } catch (error) {
      await this.deps.storage.remove(imageUrl);
      throw error;
    }
    // Past the commit the image is the exercise's: a failed read of the answer must not remove it.
    return this.answer(row, include);
  }

  /**
   * Replaces every field of an exercise; a new image replaces the old file and bumps the `?v=` of imageUrl. `include`:
   * the relations the answer carries, as for create.
   */
  async update(actor: Actor, id: number, upload: ExerciseUpload, include: ExerciseInclude = {}): Promise<ExerciseDto> {
    const caller = requireUser(actor);
    await this.loadOwn(caller, id);
    const input = await upload.readExercise();
    ensureMayPublish(caller, input.isPublic);
    const file = await upload.readFile();
    const { storage } = this.deps;
    const stored = file ? await storage.saveImage(file) : null;
    let result: { updated: ExerciseRow; previousImageUrl: string | null } | null;
    try {
      // The version and the image being replaced are read under a row lock: concurrent replacements get
      // distinct versions and each removes the file it replaced (no orphan left on disk).
      result = await this.deps.db.transaction(async (tx) => {
        const current = await exerciseRepository.findByIdForUpdate(tx, id);
        if (!current) return null;
        const version = current.imageVersion + 1;
        const now = this.deps.clock.now();
        const changes = {
          ...fieldsOf(input),
          ...(stored ? { imageUrl: `${stored}?v=${version}`, imageVersion: version } : {}),
          updatedAt: now,
        };
        const updated = await exerciseRepository.update(tx, id, changes);
        if (!updated) return null;
        // Under the row lock, so an assignment that gives the exercise to a student either committed before (and is
        // in the change feed's audience) or waits for this commit (and records the exercise itself):
        // TrainingPlanService.lockContent.
        await emit(tx, now, { type: "exercise.updated", exerciseId: id, renamed: updated.name !== current.name });
        return { updated, previousImageUrl: current.imageUrl };
      });
    } catch (error) {
      await storage.remove(stored);
      throw error;
    }
    if (!result) {
      await storage.remove(stored);
      throw notFound(EXERCISE_NOT_FOUND);
    }
    if (stored) await storage.remove(result.previousImageUrl);
    return this.answer(result.updated, include);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    const caller = requireUser(actor);
    await this.loadOwn(caller, id);
    if (await exerciseRepository.isInTraining(this.deps.db, id)) throw conflict(EXERCISE_IN_USE);
    // The image the row holds when it goes (a concurrent replacement may have changed it since loadOwn); a training
    // that took it up in the meantime keeps it through the foreign key.
    const imageUrl = await unlessForeignKeyRefuses(
      () =>
        this.deps.db.transaction(async (tx) => {
          // Locked first: executions logged meanwhile are in the audience below or wait for the delete (their foreign key).
          if (!(await exerciseRepository.findByIdForUpdate(tx, id))) return null;
          const now = this.deps.clock.now();
          await emit(tx, now, { type: "exercise.deleted", exerciseId: id });
          return exerciseRepository.delete(tx, id);
        }),
      () => conflict(EXERCISE_IN_USE),
    );
    await this.deps.storage.remove(imageUrl);
  }

  /**
   * One exercise: public ones for anyone; private ones for those contract §4 names (401 without a token); with the
   * relations `include` names, read in the same statement.
   */
  async get(actor: Actor, id: number, include: ExerciseInclude = {}): Promise<ExerciseDto> {
    const found = await exerciseRepository.findTree(this.deps.db, id, include);
    if (!found) throw notFound(EXERCISE_NOT_FOUND);
    if (!contentVisibleAtOnce(actor.kind === "user" ? actor : null, found)) {
      if (actor.kind !== "user") throw unauthorized();
      if (!(await exerciseRepository.visibleIds(this.deps.db, actor, [id])).has(id)) throw forbidden();
    }
    return toExerciseDto(found);
  }

  /** The exercise whoever asks, else 404: a user's executions and figures name exercises the user may no longer see. */
  async getExisting(id: number): Promise<ExerciseRow> {
    const row = await exerciseRepository.findById(this.deps.db, id);
    if (!row) throw notFound(EXERCISE_NOT_FOUND);
    return row;
  }

  /**
   * A page of the exercises the caller may see (public ones, plus those visible to the caller when signed in);
   * `include` names the relations read in the same statement. `counted` false: the reader shows no total (a GraphQL
   * selection without one), so none is counted and the page carries NaN in its place, which would fail an answer that
   * showed it rather than lie.
   */
  async list(actor: Actor, readQuery: InputReader<ExerciseListQuery>, include: ExerciseInclude = {}, counted = true): Promise<Page<ExerciseListItemDto>> {
    const caller = actor.kind === "user" ? actor : null;
    const { filter, page: request } = readQuery();
    const { rows, total } = await exerciseRepository.list(mayBeStale(this.deps.db), caller, filter, request, include, counted);
    return toPage(rows.map(toListItem), total, request);
  }

  /** The exercises the caller created; `include` and `counted` as for list. */
  async listMine(actor: Actor, readPage: InputReader<PageRequest>, include: ExerciseInclude = {}, counted = true): Promise<Page<ExerciseListItemDto>> {
    const caller = requireUser(actor);
    const request = readPage();
    const { rows, total } = await exerciseRepository.list(mayBeStale(this.deps.db), caller, { createdBy: caller.id }, request, include, counted);
    return toPage(rows.map(toListItem), total, request);
  }

  /** Every one of `ids` exists and is visible to the caller, else 404 (what another module may refer to). */
  async ensureVisible(caller: UserActor, ids: readonly number[]): Promise<void> {
    const visible = await exerciseRepository.visibleIds(this.deps.db, caller, ids);
    if (ids.some((id) => !visible.has(id))) throw notFound(EXERCISE_NOT_FOUND);
  }

  /**
   * The exercises a user created (contract §15); erasure deletes the private ones no training still holds, and their
   * image files after the commit.
   */
  readonly personalData: PersonalDataHolder<typeof exerciseExport> = {
    exportSections: exerciseExport,
    exportPersonalData: async (db, userId) => ({ exercises: (await exerciseRepository.createdBy(db, userId)).map(toExerciseDto) }),
    erasePersonalData: async (tx, userId) => {
      const images = await exerciseRepository.deletePrivateUnusedOf(tx, userId);
      return async () => {
        for (const image of images) await this.deps.storage.remove(image);
      };
    },
  };

  /** The change feed's exercises (contract §13.3): those the reader created or has through a live assignment. */
  readonly feed: FeedSource<ExerciseDto> = {
    load: async (reader, ids) => new Map((await exerciseRepository.findInFeedOf(this.deps.db, reader.id, ids)).map((row) => [row.id, toExerciseDto(row)])),
    idsAfter: (reader, afterId, limit) => exerciseRepository.idsInFeedAfter(this.deps.db, reader.id, afterId, limit),
  };

  /**
   * Keeps the exercises from edits and deletes (FOR SHARE) until the end of the caller's transaction `tx`: a write
   * that gives them to new readers of the change feed records them as they are when it commits.
   */
  async lockForShare(tx: Db, ids: SQL): Promise<void> {
    await exerciseRepository.lockForShare(tx, ids);
  }

  /** A written exercise as the answer, with the relations `include` names read as a lookup reads them. */
  private async answer(row: ExerciseRow, include: ExerciseInclude): Promise<ExerciseDto> {
    if (!include.creator) return toExerciseDto(row);
    const found = await exerciseRepository.findTree(this.deps.db, row.id, include);
    // Deleted by another request since this one's commit.
    if (!found) throw notFound(EXERCISE_NOT_FOUND);
    return toExerciseDto(found);
  }

  private async loadOwn(caller: UserActor, id: number): Promise<ExerciseRow> {
    const row = await exerciseRepository.findById(this.deps.db, id);
    if (!row) throw notFound(EXERCISE_NOT_FOUND);
    requireOwnerOrAdmin(caller, row.createdBy);
    return row;
  }
}

function fieldsOf(input: ExerciseInput) {
  return {
    name: input.name,
    description: input.description,
    category: input.category,
    isPublic: input.isPublic,
    difficulty: input.difficulty ?? null,
    equipment: input.equipment ?? null,
    videoUrl: input.videoUrl ?? null,
    instructions: input.instructions,
    muscleGroups: input.muscleGroups,
  };
}
