import { requireUser, type Actor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { validationError } from "../../platform/errors.js";
import { hundredthsText, parseHundredths, toHundredths } from "../../platform/hundredths.js";
import type { InputReader } from "../../platform/validation.js";
import type { ExerciseService } from "../exercises/exercise.service.js";
import type { TrainingService } from "../trainings/training.service.js";
import {
  setAggregates,
  toExerciseExecutionDto,
  type ExerciseExecutionDto,
  type Logged,
  type NewRecordDto,
  type TrainingExecutionDto,
} from "./execution.dto.js";
import type { ExerciseExecutionInput, SetInput, TrainingExecutionInput } from "./execution.inputs.js";
import { executionLoggingRepository } from "./execution-logging.repository.js";
import { executionRepository, type ExerciseExecutionRow } from "./execution.repository.js";
import type { ExecutionService } from "./execution.service.js";
import type { RecordClaims } from "./record.ports.js";
import type { LoggedExercise, LoggedSession } from "../events/domain-event.js";
import { emit } from "../events/emit.js";

const NOT_IN_TRAINING = "Exercício não pertence a este treino";

export interface ExecutionLoggingServiceDeps {
  db: Db;
  clock: Clock;
  executions: ExecutionService;
  exercises: ExerciseService;
  trainings: TrainingService;
  records: RecordClaims;
}

/**
 * Logging what was done: a session of a training, or one exercise on its own, with the personal records it sets;
 * answered as ExecutionService reads it back. What is kept of a log beside its rows (monthly sums, completed weeks,
 * records) is its consumers' (`exercise_executions.logged`, subscribed in src/services.ts).
 */
export class ExecutionLoggingService {
  constructor(private readonly deps: ExecutionLoggingServiceDeps) {}

  /**
   * Logs a session of a training the caller may execute; every exercise also becomes an exercise execution dated at
   * endTime. With a `clientId` the caller already logged, the execution logged first, whatever this body says
   * (contract §13.2): read first, and decided by the unique index when two logs with one client id run at once.
   */
  async logTraining(actor: Actor, trainingId: number, readInput: InputReader<TrainingExecutionInput>): Promise<Logged<TrainingExecutionDto>> {
    const caller = requireUser(actor);
    const input = readInput();
    const clientId = input.clientId ?? null;
    if (clientId) {
      const first = await this.trainingLoggedAs(caller.id, clientId);
      if (first) return { execution: first, created: false };
    }
    const { db, clock } = this.deps;
    const training = await this.deps.trainings.getExecutable(caller, trainingId);
    const names = new Map(training.exercises.map((line) => [line.exerciseId, line.exerciseName]));
    const strangers = input.exerciseExecutions.flatMap((item, i) =>
      names.has(item.exerciseId) ? [] : [{ field: `exerciseExecutions[${i}].exerciseId`, message: NOT_IN_TRAINING }],
    );
    if (strangers.length > 0) throw validationError(strangers);

    const startTime = new Date(input.startTime);
    const endTime = new Date(input.endTime);
    const logged = await db.transaction(async (tx) => {
      await executionLoggingRepository.lockUser(tx, caller.id);
      const execution = await executionLoggingRepository.insertTrainingExecution(tx, {
        userId: caller.id,
        trainingId,
        trainingName: training.name,
        startTime,
        endTime,
        durationSeconds: Math.round((endTime.getTime() - startTime.getTime()) / 1000),
        completed: input.completed,
        notes: input.notes ?? null,
        clientId,
        createdAt: clock.now(),
      });
      // Another log with this client id got there first (it committed while this one waited for the user's lock).
      if (!execution) return null;
      let sessionVolume = 0n;
      const exercises: LoggedExercise[] = [];
      for (const item of input.exerciseExecutions) {
        const row = (await this.insertExerciseExecution(tx, caller.id, {
          exerciseId: item.exerciseId,
          exerciseName: names.get(item.exerciseId)!,
          trainingId,
          trainingName: training.name,
          trainingExecutionId: execution.id,
          executedAt: endTime,
          durationSeconds: null,
          notes: item.notes ?? null,
          clientId: null,
          sets: item.sets,
        }))!;
        sessionVolume += parseHundredths(row.volume);
        exercises.push({ execution: row, sets: item.sets });
      }
      await executionLoggingRepository.setSessionVolume(tx, execution.id, hundredthsText(sessionVolume));
      const session = { trainingExecutionId: execution.id, trainingId, startTime, completed: input.completed };
      const { newRecords } = await this.emitLogged(tx, execution.createdAt, caller.id, exercises, session);
      await emit(tx, execution.createdAt, {
        type: "training_execution.created",
        trainingExecutionId: execution.id,
        exerciseExecutionIds: exercises.map((item) => item.execution.id),
        subjectUserIds: [caller.id],
        data: { ...(await this.deps.executions.trainingExecutionDto(execution.id, tx)), newRecords },
      });
      return { id: execution.id, newRecords };
    });
    if (!logged) return { execution: await this.loggedBefore(this.trainingLoggedAs(caller.id, clientId!)), created: false };
    return { execution: { ...(await this.deps.executions.trainingExecutionDto(logged.id)), newRecords: logged.newRecords }, created: true };
  }

  /**
   * Logs one exercise of a training the caller may execute, dated now; a personal record when it beats every earlier
   * weight. A `clientId` the caller already logged answers the first execution, as for a training execution.
   */
  async logExercise(actor: Actor, exerciseId: number, readInput: InputReader<ExerciseExecutionInput>): Promise<Logged<ExerciseExecutionDto>> {
    const caller = requireUser(actor);
    const input = readInput();
    const clientId = input.clientId ?? null;
    if (clientId) {
      const first = await this.exerciseLoggedAs(caller.id, clientId);
      if (first) return { execution: first, created: false };
    }
    const { db, clock } = this.deps;
    const exercise = await this.deps.exercises.get(caller, exerciseId);
    const training = await this.deps.trainings.getExecutable(caller, input.trainingId);
    const logged = await db.transaction(async (tx) => {
      await executionLoggingRepository.lockUser(tx, caller.id);
      const inserted = await this.insertExerciseExecution(tx, caller.id, {
        exerciseId,
        exerciseName: exercise.name,
        trainingId: training.id,
        trainingName: training.name,
        trainingExecutionId: null,
        executedAt: clock.now(),
        durationSeconds: input.duration ?? null,
        notes: input.notes ?? null,
        clientId,
        sets: input.sets,
      });
      if (!inserted) return null;
      const { newRecords, personalRecords } = await this.emitLogged(tx, inserted.createdAt, caller.id, [{ execution: inserted, sets: input.sets }], null);
      const row = { ...inserted, personalRecord: personalRecords.has(inserted.id) };
      const dto = { ...toExerciseExecutionDto(row, await executionRepository.setsOf(tx, [inserted.id]), "short"), newRecords };
      await emit(tx, inserted.createdAt, { type: "exercise_execution.created", exerciseExecutionId: inserted.id, subjectUserIds: [caller.id], data: dto });
      return dto;
    });
    if (!logged) return { execution: await this.loggedBefore(this.exerciseLoggedAs(caller.id, clientId!)), created: false };
    return { execution: logged, created: true };
  }

  /** Inserts an exercise execution with its sets and figures; not a personal record until `emitLogged` says so. */
  private async insertExerciseExecution(
    tx: Db,
    userId: number,
    item: Omit<
      ExerciseExecutionRow,
      "id" | "userId" | "createdAt" | "personalRecord" | "completedSets" | "totalReps" | "volume" | "maxWeight" | "weightSum" | "weightedSets" | "bestOneRepMax"
    > & { sets: SetInput[] },
  ): Promise<ExerciseExecutionRow | null> {
    const { sets, ...fields } = item;
    return executionLoggingRepository.insertExerciseExecution(
      tx,
      { ...fields, userId, ...setAggregates(sets), createdAt: this.deps.clock.now() },
      sets.map((set) => ({
        repetitions: set.repetitions,
        weight: set.weight === null || set.weight === undefined ? null : hundredthsText(toHundredths(set.weight)),
        completed: set.completed,
      })),
    );
  }

  /**
   * Says that the executions were logged (`exercise_executions.logged`): its consumers keep their read models of them
   * in this transaction (the session's monthly sums and completed week, the records they set: contract §12.1). Then
   * marks as personal records (contract §7) the executions whose claims hold a MAX_WEIGHT: the heaviest completed set
   * above every earlier one, as the records module keeps it. Answers the records set, for the answer and its public event.
   */
  private async emitLogged(
    tx: Db,
    at: Date,
    userId: number,
    exercises: LoggedExercise[],
    session: LoggedSession | null,
  ): Promise<{ newRecords: NewRecordDto[]; personalRecords: Set<number> }> {
    await emit(tx, at, { type: "exercise_executions.logged", userId, exercises, session });
    const ids = exercises.map((item) => item.execution.id);
    const claimed = this.deps.records.claimedIn(tx, ids);
    const personalRecords = new Set(ids.filter((_, i) => claimed[i].some((record) => record.kind === "MAX_WEIGHT")));
    await executionLoggingRepository.markPersonalRecords(tx, [...personalRecords]);
    return { newRecords: claimed.flat(), personalRecords };
  }

  /** The user's training execution logged with this client id, answered as its logging call answered it (its records included). */
  private async trainingLoggedAs(userId: number, clientId: string): Promise<TrainingExecutionDto | null> {
    const id = await executionLoggingRepository.trainingExecutionIdByClientId(this.deps.db, userId, clientId);
    if (id === null) return null;
    const execution = await this.deps.executions.trainingExecutionDto(id);
    return { ...execution, newRecords: await this.deps.records.setByExecutions(execution.exerciseExecutions.map((item) => item.id)) };
  }

  /** The user's exercise execution logged on its own with this client id, as its logging call answered it. */
  private async exerciseLoggedAs(userId: number, clientId: string): Promise<ExerciseExecutionDto | null> {
    const row = await executionLoggingRepository.exerciseExecutionByClientId(this.deps.db, userId, clientId);
    if (!row) return null;
    const sets = await executionRepository.setsOf(this.deps.db, [row.id]);
    return { ...toExerciseExecutionDto(row, sets, "short"), newRecords: await this.deps.records.setByExecutions([row.id]) };
  }

  /** The execution whose client id this log's insert conflicted with: committed, so there to read. */
  private async loggedBefore<T>(found: Promise<T | null>): Promise<T> {
    const execution = await found;
    if (execution === null) throw new Error("an execution conflicted on its client id but cannot be read");
    return execution;
  }
}
