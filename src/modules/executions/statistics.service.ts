import { requireUser, type Actor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { DAY_MS, dayRange } from "../../platform/dates.js";
import type { InputReader } from "../../platform/validation.js";
import type { ExerciseService } from "../exercises/exercise.service.js";
import type { TrainingService } from "../trainings/training.service.js";
import type { ProgressFilter, StatisticsFilter } from "./execution.inputs.js";
import { statisticsRepository, WEEKS_IN_METRICS } from "./statistics.repository.js";
import type { ExerciseProgressDto, TrainingStatisticsDto, UserMetricsDto } from "./execution.dto.js";
import type { ExecutionService } from "./execution.service.js";
import type { PersonalRecordsReader } from "./record.ports.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

/** The personal records the metrics list: the first by exercise name, as many as a page holds at most. */
export const RECORDS_IN_METRICS = 100;

const n = (value: string | number | null | undefined): number => (value === null || value === undefined ? 0 : Number(value));
const nullable = (value: string | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

export type { ExerciseProgressDto, TrainingStatisticsDto, UserMetricsDto };

/** Statistics, progress and metrics: SQL aggregates over one user's indexed history (contract §7). */
export class StatisticsService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      executions: ExecutionService;
      exercises: ExerciseService;
      trainings: TrainingService;
      records: PersonalRecordsReader;
    },
  ) {}

  /** Figures of a training's executions (the caller's, or `userId`'s for their trainer and administrators). */
  async trainingStatistics(actor: Actor, trainingId: number, readFilter: InputReader<StatisticsFilter>): Promise<TrainingStatisticsDto> {
    const caller = requireUser(actor);
    const filter = readFilter();
    const training = await this.deps.trainings.getExisting(trainingId);
    const userId = filter.userId ?? caller.id;
    await this.deps.executions.ensureMayRead(caller, userId);
    const figures = await statisticsRepository.trainingStatistics(mayBeStale(this.deps.db), userId, trainingId, dayRange(filter.startDate, filter.endDate));
    return { trainingId, trainingName: training.name, ...figures };
  }

  /** Progress on an exercise by day, week or month (the caller's, or `userId`'s for their trainer and administrators). */
  async exerciseProgress(actor: Actor, exerciseId: number, readFilter: InputReader<ProgressFilter>): Promise<ExerciseProgressDto> {
    const caller = requireUser(actor);
    const filter = readFilter();
    const exercise = await this.deps.exercises.getExisting(exerciseId);
    const userId = filter.userId ?? caller.id;
    await this.deps.executions.ensureMayRead(caller, userId);
    const [buckets, [record]] = await Promise.all([
      statisticsRepository.exerciseProgress(mayBeStale(this.deps.db), userId, exerciseId, filter.interval, dayRange(filter.startDate, filter.endDate)),
      this.deps.records.personalRecordsOf(userId, { exerciseId }),
    ]);
    return {
      exerciseId,
      exerciseName: exercise.name,
      progressData: buckets.map((row) => ({
        date: row.day,
        maxWeight: nullable(row.max_weight),
        totalVolume: n(row.volume),
        totalSets: row.sets,
        totalReps: row.reps,
        estimatedOneRepMax: nullable(row.one_rep_max),
      })),
      personalRecord: record ? { value: record.value, unit: record.unit, date: record.date, estimatedOneRepMax: record.estimatedOneRepMax } : null,
    };
  }

  /**
   * A user's training metrics (the caller's, or `userId`'s for their trainer and administrators) as the JSON text of
   * the answer, which PostgreSQL builds whole (statisticsRepository.metricsJson) but for the personal records (the
   * records module's), written last: REST sends it as it is.
   */
  async metricsJson(actor: Actor, userId?: number): Promise<string> {
    const caller = requireUser(actor);
    const owner = userId ?? caller.id;
    await this.deps.executions.ensureMayRead(caller, owner);
    const firstMonday = mondayOf(new Date(this.deps.clock.now().getTime() - (WEEKS_IN_METRICS - 1) * 7 * DAY_MS));
    const [metrics, records] = await Promise.all([
      statisticsRepository.metricsJson(mayBeStale(this.deps.db), owner, firstMonday),
      this.deps.records.personalRecordsText(owner, RECORDS_IN_METRICS),
    ]);
    return `${metrics.slice(0, -1)},"personalRecords":${records}}`;
  }

  /** `metricsJson` as the DTO (GraphQL). */
  async metrics(actor: Actor, userId?: number): Promise<UserMetricsDto> {
    return JSON.parse(await this.metricsJson(actor, userId), reviveInstants) as UserMetricsDto;
  }
}

/** Monday 00:00 UTC of the ISO week holding `date`. */
function mondayOf(date: Date): Date {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

/** The metrics' instants (`date` of weights and records, ISO with a time) back to Dates; weeks' days stay text. */
function reviveInstants(key: string, value: unknown): unknown {
  return key === "date" && typeof value === "string" && value.length > 10 ? new Date(value) : value;
}
