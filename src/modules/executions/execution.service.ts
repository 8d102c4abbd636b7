import { z } from "zod";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { refusedRead, type EmbeddedRead } from "../../platform/db/embedded-read.js";
import { dayRange } from "../../platform/dates.js";
import { AppError, forbidden, notFound } from "../../platform/errors.js";
import { toPage, type Page, type PageRequest } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import type { ActivityAccess } from "../access/activity-access.js";
import type { ExerciseService } from "../exercises/exercise.service.js";
import type { TrainingService } from "../trainings/training.service.js";
import { USER_NOT_FOUND } from "../users/auth.service.js";
import type { UserService } from "../users/user.service.js";
import {
  toExerciseExecutionDto,
  toSetDto,
  type ExerciseExecutionDto,
  type TrainingExecutionDto,
  type TrainingExecutionSummaryDto,
  trainingExecutionSchema,
  exerciseExecutionSchema,
} from "./execution.dto.js";
import type {
  ExerciseExecutionListQuery,
  TrainingExecutionListQuery,
  UserExerciseExecutionListQuery,
  UserTrainingExecutionListQuery,
} from "./execution.inputs.js";
import {
  executionListingRepository,
  trainingExecutionPageFromJson,
  trainingExecutionPageJson,
  trainingExecutionPageKey,
  trainingExecutionPageShape,
  trainingExecutionPageValues,
  type TrainingExecutionFilter,
  type TrainingExecutionPageOf,
  type TrainingExecutionSummaryRow,
} from "./execution-listing.repository.js";
import { executionLoggingRepository } from "./execution-logging.repository.js";
import { executionRepository, type TrainingExecutionRow } from "./execution.repository.js";
import type { FeedSource } from "../events/feed-source.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

export const EXECUTION_NOT_FOUND = "Execução não encontrada";

export interface ExecutionServiceDeps {
  db: Db;
  access: ActivityAccess;
  users: UserService;
  exercises: ExerciseService;
  trainings: TrainingService;
}

/** What the data export holds of this module (contract §15). */
const executionExport = z.object({
  trainingExecutions: z.array(trainingExecutionSchema).describe("The sessions the user logged, with their exercises and sets"),
  exerciseExecutions: z.array(exerciseExecutionSchema).describe("The exercises the user logged on their own, with their sets"),
});

/**
 * Reading executions back: for their owner, administrators and the owner's ACTIVE-linked trainer, for the change
 * feed, and for a user's export (and erasure). ExecutionLoggingService logs them.
 */
export class ExecutionService {
  constructor(private readonly deps: ExecutionServiceDeps) {}

  /** One training execution with its exercises and sets (its user, administrators, the user's trainer). */
  async getTrainingExecution(actor: Actor, id: number): Promise<TrainingExecutionDto> {
    const caller = requireUser(actor);
    const found = await executionRepository.findTrainingExecution(this.deps.db, id);
    if (!found) throw notFound(EXECUTION_NOT_FOUND);
    await this.ensureMayRead(caller, found.execution.userId);
    return this.trainingExecutionDto(id);
  }

  /** One user's executions of a training (the caller's unless `userId`). */
  async listTrainingExecutions(
    actor: Actor,
    trainingId: number,
    readQuery: InputReader<TrainingExecutionListQuery>,
  ): Promise<Page<TrainingExecutionSummaryDto>> {
    const caller = requireUser(actor);
    const { filter, page: request } = readQuery();
    await this.deps.trainings.getExisting(trainingId);
    const userId = filter.userId ?? caller.id;
    await this.ensureMayRead(caller, userId);
    const { rows, total } = await executionListingRepository.listTrainingExecutions(
      mayBeStale(this.deps.db),
      { userId, trainingId, completed: filter.completed, ...dayRange(filter.startDate, filter.endDate) },
      request,
    );
    return toPage(
      rows.map((row) => summary(row, false)),
      total,
      request,
    );
  }

  /** A user's training executions, of every training unless `trainingId`: 404 for no such user, 403 unless the caller may read its activity. */
  async listUserTrainingExecutions(
    actor: Actor,
    userId: number,
    readQuery: InputReader<UserTrainingExecutionListQuery>,
  ): Promise<Page<TrainingExecutionSummaryDto>> {
    const caller = requireUser(actor);
    const { filter, page: request } = readQuery();
    const page = await executionListingRepository.trainingExecutionPageOf(mayBeStale(this.deps.db), caller, userId, executionFilterOf(filter), request);
    const answer = userPageAnswer(page, request);
    if (answer instanceof AppError) throw answer;
    return answer;
  }

  /**
   * listUserTrainingExecutions's page of a user, read inside the statement that reads the user (by id, the students of
   * a trainer's page of links): the same rule, filter, order, page and total, and the same answer, the page or its
   * 403; the arguments' refusal (or the anonymous caller's) is answered as the read. `counted` false: the reader shows
   * no total (its selection asks none), so none is counted (most of the statement's cost, one count per user) and the
   * pages carry NaN in its place. `keys`: the only keys of the rows the reader reads (a GraphQL selection's).
   */
  embeddedUserTrainingExecutions(
    actor: Actor,
    readQuery: InputReader<UserTrainingExecutionListQuery>,
    counted = true,
    keys?: string[],
  ): EmbeddedRead<Page<TrainingExecutionSummaryDto> | AppError> {
    let caller: UserActor;
    let query: UserTrainingExecutionListQuery;
    try {
      caller = requireUser(actor);
      query = readQuery();
    } catch (error) {
      if (error instanceof AppError) return refusedRead(error);
      throw error;
    }
    const filter = executionFilterOf(query.filter);
    const shape = trainingExecutionPageShape(caller, filter, query.page, counted, keys);
    return {
      key: trainingExecutionPageKey(shape),
      sql: (userId, placeholder, linkShown) => trainingExecutionPageJson(shape, userId, placeholder, linkShown),
      values: trainingExecutionPageValues(caller, filter, query.page),
      // Only users that exist carry an embedded page.
      answer: (json) => userPageAnswer({ found: true, ...trainingExecutionPageFromJson(json) }, query.page),
    };
  }

  /** One user's executions of an exercise (the caller's unless `userId`). */
  async listExerciseExecutions(actor: Actor, exerciseId: number, readQuery: InputReader<ExerciseExecutionListQuery>): Promise<Page<ExerciseExecutionDto>> {
    const caller = requireUser(actor);
    const { filter, page: request } = readQuery();
    await this.deps.exercises.getExisting(exerciseId);
    const userId = filter.userId ?? caller.id;
    await this.ensureMayRead(caller, userId);
    return this.exercisePage({ userId, exerciseId, ...dayRange(filter.startDate, filter.endDate) }, request, "short");
  }

  /** A user's exercise executions, of every exercise unless `exerciseId`; items carry exerciseName and trainingName. */
  async listUserExerciseExecutions(actor: Actor, userId: number, readQuery: InputReader<UserExerciseExecutionListQuery>): Promise<Page<ExerciseExecutionDto>> {
    const caller = requireUser(actor);
    const { filter, page: request } = readQuery();
    await this.ensureUserReadable(caller, userId);
    return this.exercisePage({ userId, exerciseId: filter.exerciseId, ...dayRange(filter.startDate, filter.endDate) }, request, "named");
  }

  /** Who may read a user's executions and figures: the user, administrators, the user's ACTIVE-linked trainer. */
  ensureMayRead(caller: UserActor, userId: number): Promise<void> {
    return this.deps.access.ensureMayReadActivity(caller, userId);
  }

  /** A user that exists (404) and that the caller may read (403). */
  async ensureUserReadable(caller: UserActor, userId: number): Promise<void> {
    await this.deps.users.ensureExists(userId);
    await this.ensureMayRead(caller, userId);
  }

  private async exercisePage(filter: Parameters<typeof executionListingRepository.listExerciseExecutions>[1], request: PageRequest, shape: "short" | "named") {
    const db = mayBeStale(this.deps.db);
    const { rows, total } = await executionListingRepository.listExerciseExecutions(db, filter, request);
    const sets = await executionRepository.setsOf(
      db,
      rows.map((row) => row.id),
    );
    return toPage(
      rows.map((row) =>
        toExerciseExecutionDto(
          row,
          sets.filter((set) => set.exerciseExecutionId === row.id),
          shape,
        ),
      ),
      total,
      request,
    );
  }
  /**
   * A user's executions with their sets (contract §15): training executions with their exercises, and exercises
   * logged on their own. Erasure deletes them all (their records go first, through the records module).
   */
  readonly personalData: PersonalDataHolder<typeof executionExport> = {
    exportSections: executionExport,
    exportPersonalData: async (db, userId) => {
      const trainingExecutions = await this.trainingExecutionDtos(await executionRepository.trainingExecutionsOfUser(db, userId), db);
      const standalone = await executionRepository.standaloneExerciseExecutionsOfUser(db, userId);
      const sets = groupBy(
        await executionRepository.setsOf(
          db,
          standalone.map((row) => row.id),
        ),
        (set) => set.exerciseExecutionId,
      );
      return { trainingExecutions, exerciseExecutions: standalone.map((row) => toExerciseExecutionDto(row, sets.get(row.id) ?? [], "named")) };
    },
    erasePersonalData: async (tx, userId) => {
      // After any log under way for the user (their logging lock).
      await executionLoggingRepository.lockUser(tx, userId);
      await executionRepository.deleteExecutionsOf(tx, userId);
    },
  };

  /** The change feed's training executions (contract §13.3): the reader's own, as GET /trainings/executions/{id} answers them. */
  readonly trainingExecutionFeed: FeedSource<TrainingExecutionDto> = {
    load: async (reader, ids) => {
      const dtos = await this.trainingExecutionDtos(await executionRepository.findTrainingExecutionsOf(this.deps.db, reader.id, ids));
      return new Map(dtos.map((dto) => [dto.id, dto]));
    },
    idsAfter: (reader, afterId, limit) => executionRepository.trainingExecutionIdsAfter(this.deps.db, reader.id, afterId, limit),
  };

  /** The change feed's exercise executions: the reader's own, as GET /exercises/executions/user/{userId} lists them. */
  readonly exerciseExecutionFeed: FeedSource<ExerciseExecutionDto> = {
    load: async (reader, ids) => {
      const { db } = this.deps;
      const rows = await executionRepository.findExerciseExecutionsOf(db, reader.id, ids);
      const sets = groupBy(
        await executionRepository.setsOf(
          db,
          rows.map((row) => row.id),
        ),
        (set) => set.exerciseExecutionId,
      );
      return new Map(rows.map((row) => [row.id, toExerciseExecutionDto(row, sets.get(row.id) ?? [], "named")]));
    },
    idsAfter: (reader, afterId, limit) => executionRepository.exerciseExecutionIdsAfter(this.deps.db, reader.id, afterId, limit),
  };
  /** One training execution's DTO, read with `db` (a logging transaction reads its own log); the caller checked who reads it. */
  async trainingExecutionDto(id: number, db: Db = this.deps.db): Promise<TrainingExecutionDto> {
    const [dto] = await this.trainingExecutionDtos([(await executionRepository.findTrainingExecution(db, id))!], db);
    return dto;
  }

  /** Training executions with their exercises and sets, in two more statements whatever their number. */
  private async trainingExecutionDtos(found: { execution: TrainingExecutionRow; userName: string }[], db: Db = this.deps.db): Promise<TrainingExecutionDto[]> {
    const items = await executionRepository.exerciseExecutionsOf(
      db,
      found.map(({ execution }) => execution.id),
    );
    const sets = await executionRepository.setsOf(
      db,
      items.map((item) => item.id),
    );
    const setsByItem = groupBy(sets, (set) => set.exerciseExecutionId);
    const itemsByExecution = groupBy(items, (item) => item.trainingExecutionId);
    return found.map(({ execution, userName }) => ({
      ...summary(execution, true),
      userName,
      exerciseExecutions: (itemsByExecution.get(execution.id) ?? []).map((item) => ({
        id: item.id,
        exerciseId: item.exerciseId,
        exerciseName: item.exerciseName,
        personalRecord: item.personalRecord,
        sets: (setsByItem.get(item.id) ?? []).map(toSetDto),
      })),
    }));
  }
}

/** What a user's listing narrows to, as the repository reads it. */
const executionFilterOf = (filter: UserTrainingExecutionListQuery["filter"]): TrainingExecutionFilter => ({
  trainingId: filter.trainingId,
  completed: filter.completed,
  ...dayRange(filter.startDate, filter.endDate),
});

/** A user's page as its listing answers it: 404 for no such user, 403 unless the caller may read its activity. */
function userPageAnswer(page: Omit<TrainingExecutionPageOf, "userId">, request: PageRequest): Page<TrainingExecutionSummaryDto> | AppError {
  if (!page.found) return notFound(USER_NOT_FOUND);
  if (!page.readable) return forbidden();
  return toPage(
    page.rows.map((row) => summary(row, true)),
    // Not counted only for a reader that shows no total; NaN would fail any answer that showed one anyway.
    page.total ?? Number.NaN,
    request,
  );
}

function summary(row: TrainingExecutionSummaryRow, withName: boolean): TrainingExecutionSummaryDto {
  return {
    id: row.id,
    trainingId: row.trainingId,
    ...(withName ? { trainingName: row.trainingName } : {}),
    userId: row.userId,
    startTime: row.startTime,
    endTime: row.endTime,
    duration: row.durationSeconds,
    completed: row.completed,
    notes: row.notes,
    clientId: row.clientId,
  };
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
