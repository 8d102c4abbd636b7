import { z } from "zod";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { enumeration } from "../../platform/enumeration.js";
import { entityId, filterId, isoDate, isoInstant, optionalText, queryBoolean } from "../../platform/validation.js";
import { kilograms } from "../trainings/training.inputs.js";
import { EXERCISE_EXECUTION_SORTS, TRAINING_EXECUTION_SORTS } from "./execution-listing.repository.js";

const MAX_DURATION_SECONDS = 86_400;

export const setInput = z
  .object({
    repetitions: z.number().int().min(0).max(10_000).describe("Repetitions done: 0 to 10000"),
    weight: kilograms.nullish().describe("The weight lifted, in kg: 0 to 2000, at most 2 decimals; left out (or null) for a set without weight"),
    completed: z.boolean().describe("Whether the set was completed: only completed sets count in statistics, progress and records"),
  })
  .describe("A set as done");
export type SetInput = z.output<typeof setInput>;

/**
 * The id a client gives a log before sending it (contract §13.2): a UUID (any version), kept in lower case as
 * PostgreSQL writes it back.
 */
export const clientIdField = z
  .string()
  // Both cases spelled out: the OpenAPI document's pattern carries no flag.
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, "UUID inválido")
  .meta({ format: "uuid" })
  .transform((value) => value.toLowerCase());

const CLIENT_ID =
  "A UUID the client gives the log, so that it can send it again safely: a clientId the caller logged before answers the execution logged first (200 over REST), whatever the rest of this one says";

const sets = z.array(setInput).min(1, "Informe ao menos uma série").max(100);

/** An exercise of a training execution, with its sets. */
export const exerciseInExecutionInput = z
  .object({
    exerciseId: entityId.describe("An exercise of the training"),
    sets: sets.describe("Its sets, in order: 1 to 100"),
    notes: optionalText(2000).describe("Notes on it: at most 2000 characters; blank is kept as null"),
  })
  .describe("An exercise done in the session, with its sets");

/** A session of a training: when it ran, and the sets done of each of its exercises. */
export const trainingExecutionInput = z
  .object({
    startTime: isoInstant.describe("When the session started: ISO 8601 with an offset (a session may be logged after the fact)"),
    endTime: isoInstant.describe("When it ended: not before startTime, at most 24 hours after it"),
    notes: optionalText(2000).describe("Notes on the session: at most 2000 characters; blank is kept as null"),
    completed: z.boolean().describe("Whether the user finished the session"),
    clientId: clientIdField.nullish().describe(CLIENT_ID),
    exerciseExecutions: z
      .array(exerciseInExecutionInput)
      .min(1, "Informe ao menos um exercício")
      .max(100)
      .describe("The exercises done: 1 to 100, each an exercise of the training"),
  })
  .superRefine((value, ctx) => {
    const seconds = (Date.parse(value.endTime) - Date.parse(value.startTime)) / 1000;
    if (seconds < 0) ctx.addIssue({ code: "custom", path: ["endTime"], message: "O fim deve ser posterior ao início" });
    else if (seconds > MAX_DURATION_SECONDS) ctx.addIssue({ code: "custom", path: ["endTime"], message: "A execução pode durar no máximo 24 horas" });
  })
  .describe("A session of a training as the user logs it: when it ran, and the sets done of each exercise");
export type TrainingExecutionInput = z.output<typeof trainingExecutionInput>;

/** One exercise done on its own, within a training the user may execute. */
export const exerciseExecutionInput = z
  .object({
    trainingId: entityId.describe(
      "The training it is done in: one the caller may execute (the caller's own, or one of a plan assigned to the caller, PENDING or ACTIVE)",
    ),
    sets: sets.describe("Its sets, in order: 1 to 100"),
    notes: optionalText(2000).describe("Notes on it: at most 2000 characters; blank is kept as null"),
    duration: z.number().int().min(0).max(MAX_DURATION_SECONDS).nullish().describe("How long it took, in seconds: 0 to 86400"),
    clientId: clientIdField.nullish().describe(CLIENT_ID),
  })
  .describe("An exercise done on its own, logged at the time the server receives it");
export type ExerciseExecutionInput = z.output<typeof exerciseExecutionInput>;

export const PROGRESS_INTERVALS = ["DAY", "WEEK", "MONTH"] as const;

/**
 * How a progress groups executions. Declared with its list, here rather than in execution.dto.ts: an input's alone,
 * and the answers' module importing the inputs' would make the two import each other.
 */
export const progressInterval = enumeration(PROGRESS_INTERVALS, {
  name: "ProgressInterval",
  description: "How an exercise's progress groups the executions into points (UTC)",
  meanings: {
    DAY: "A point per day",
    WEEK: "A point per ISO week (Monday to Sunday), dated by its Monday",
    MONTH: "A point per calendar month, dated by its first day",
  },
});

const dateRange = {
  startDate: isoDate.optional().describe("Only executions dated on or after this UTC day (YYYY-MM-DD)"),
  endDate: isoDate.optional().describe("Only executions dated on or before this UTC day (YYYY-MM-DD)"),
};

/** Whose executions a reading is of. */
const userId = filterId
  .optional()
  .describe("Whose executions: the caller's when left out; another user's for administrators and the user's ACTIVE-linked trainer only");

/** Training execution listings, latest started first unless another order is asked. */
export const trainingExecutionPaging: Paging = { sortable: Object.keys(TRAINING_EXECUTION_SORTS), fallbackSort: [{ field: "startTime", direction: "desc" }] };
/** Exercise execution listings, latest first unless another order is asked. */
export const exerciseExecutionPaging: Paging = { sortable: Object.keys(EXERCISE_EXECUTION_SORTS), fallbackSort: [{ field: "executedAt", direction: "desc" }] };

const completed = queryBoolean.optional().describe("Only completed (true) or only unfinished (false) sessions");

export const trainingExecutionFilter = z
  .object({ userId, completed, ...dateRange })
  .describe("What narrows a listing of a training's executions (dated by startTime); fields left out do not narrow it");
export type TrainingExecutionListQuery = ListQuery<z.output<typeof trainingExecutionFilter>>;
export const userTrainingExecutionFilter = z
  .object({ trainingId: filterId.optional().describe("Only the executions of this training"), completed, ...dateRange })
  .describe("What narrows a listing of a user's training executions (dated by startTime); fields left out do not narrow it");
export type UserTrainingExecutionListQuery = ListQuery<z.output<typeof userTrainingExecutionFilter>>;
export const exerciseExecutionFilter = z
  .object({ userId, ...dateRange })
  .describe("What narrows a listing of an exercise's executions (dated by executedAt); fields left out do not narrow it");
export type ExerciseExecutionListQuery = ListQuery<z.output<typeof exerciseExecutionFilter>>;
export const userExerciseExecutionFilter = z
  .object({ exerciseId: filterId.optional().describe("Only the executions of this exercise"), ...dateRange })
  .describe("What narrows a listing of a user's exercise executions (dated by executedAt); fields left out do not narrow it");
export type UserExerciseExecutionListQuery = ListQuery<z.output<typeof userExerciseExecutionFilter>>;
export const statisticsFilter = z
  .object({ userId, ...dateRange })
  .describe("Whose executions of a training the statistics count, and over which days (dated by startTime)");
export type StatisticsFilter = z.output<typeof statisticsFilter>;
export const progressFilter = z
  .object({
    userId,
    interval: progressInterval.schema.default("DAY").describe("How the executions are grouped into points: DAY when left out"),
    ...dateRange,
  })
  .describe("Whose progress on an exercise, grouped how, and over which days (dated by executedAt)");
export type ProgressFilter = z.output<typeof progressFilter>;
