import { requireUser, type Actor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { forbidden, notFound, type AppError } from "../../platform/errors.js";
import { hundredthsText, parseHundredths } from "../../platform/hundredths.js";
import { LruMap } from "../../platform/lru-map.js";
import { toPage, type Page } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import type { ActivityAccess } from "../access/activity-access.js";
import { EXERCISE_NOT_FOUND, type ExerciseService } from "../exercises/exercise.service.js";
import type { NewRecordDto, PersonalRecordDto } from "../executions/execution.dto.js";
import type { LoggedExercise, PersonalRecordsReader, RecordClaims } from "../executions/record.ports.js";
import { byExerciseAndKind, toRecordDto, type RecordDto } from "./records.dto.js";
import type { RecordHistoryQuery, RecordsFilter } from "./records.inputs.js";
import { recordsRepository, type NewRecordRow, type PersonalRecordOffer, type RecentRecordIds } from "./records.repository.js";
import type { RecordKind } from "../../tables/records.table.js";
import { bestOfExecution, unitOf, type Candidate } from "./records.values.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import { emit, type DomainEvent } from "../events/emit.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

/** One `records` relation asked of a GraphQL list item: a user's current records, on one exercise and some kinds. */
export interface CurrentRecordsRequest {
  /** The caller when not given. */
  userId?: number;
  exerciseId?: number;
  kinds?: readonly RecordKind[];
}

/** About the bytes the readings of recent records kept per instance may hold in all (their users' ids, mostly). */
const RECENT_READINGS_KEPT_BYTES = 16 * 1024 * 1024;

/**
 * Record kinds (contract §12.1): claimed while executions are logged, read by the user, administrators and the
 * user's ACTIVE-linked trainer (contract §7); and the legacy personal record of contract §7, derived from them.
 */
export class RecordService implements RecordClaims, PersonalRecordsReader {
  /**
   * What the last reading of each set of users' recent records found (ids and snapshot), so that the next one reads
   * only those rows while nothing of the users changed.
   */
  private readonly recentFound = new LruMap<RecentRecordIds>(
    RECENT_READINGS_KEPT_BYTES,
    (found, key) => key.length + found.snapshot.length + found.ids.length * 8,
  );

  constructor(private readonly deps: { db: Db; access: ActivityAccess; exercises: ExerciseService }) {}

  /** A user's records and their history (contract §15); erasure deletes them. */
  readonly personalData: PersonalDataHolder = {
    exportPersonalData: async (db, userId) => ({ records: (await recordsRepository.recordsOfUser(db, userId)).map(toRecordDto) }),
    erasePersonalData: async (tx, userId) => {
      await recordsRepository.deleteRecordsOf(tx, userId);
    },
  };

  /**
   * Claims the records a log sets, inside its transaction `tx`, which must hold the user's executions lock
   * (lockForTransaction "executions"): concurrent logs of one user then claim one after the other, and a record is
   * never claimed twice. Executions are taken in the order given, each against the bests before it (the earlier
   * ones of the same log included); each kind's best set of an execution is a record when it strictly beats the
   * current record of its kind, or is the first of its kind. Answers the records each execution set, in the order given.
   */
  async claim(tx: Db, logged: readonly LoggedExercise[]): Promise<NewRecordDto[][]> {
    const userId = logged[0]?.execution.userId;
    const exerciseIds = [...new Set(logged.flatMap(({ execution }) => (execution.exerciseId === null ? [] : [execution.exerciseId])))];
    if (userId === undefined || exerciseIds.length === 0) return logged.map(() => []);
    const bests = new Map<string, number>();
    for (const held of await recordsRepository.currentValues(tx, userId, exerciseIds))
      bests.set(`${held.exerciseId}:${held.kind}`, Number(parseHundredths(held.value)));

    const rows: NewRecordRow[] = [];
    const exerciseNames = new Map<number, string>();
    const offers = new Map<number, PersonalRecordOffer>();
    for (const { execution, sets } of logged) {
      if (execution.exerciseId === null) continue;
      exerciseNames.set(execution.exerciseId, execution.exerciseName);
      const candidates = bestOfExecution(sets);
      offerPersonalRecord(offers, execution, candidates);
      for (const candidate of candidates) {
        const key = `${execution.exerciseId}:${candidate.kind}`;
        const previous = bests.get(key);
        if (previous !== undefined && candidate.value <= previous) continue;
        bests.set(key, candidate.value);
        rows.push({
          userId,
          exerciseId: execution.exerciseId,
          kind: candidate.kind,
          value: hundredthsText(candidate.value),
          reps: candidate.reps,
          weight: candidate.weight === null ? null : hundredthsText(candidate.weight),
          achievedAt: execution.executedAt,
          exerciseExecutionId: execution.id,
          trainingExecutionId: execution.trainingExecutionId,
          setIndex: candidate.setIndex,
          previousValue: previous === undefined ? null : hundredthsText(previous),
          current: true,
        });
      }
    }
    // An exercise logged twice in one training may beat its own record: only the last of a kind stays current.
    const last = new Map(rows.map((row) => [`${row.exerciseId}:${row.kind}`, row]));
    for (const row of rows) row.current = last.get(`${row.exerciseId}:${row.kind}`) === row;
    await recordsRepository.insert(tx, userId, rows);
    await recordsRepository.offerPersonalRecords(tx, [...offers.values()]);
    await emit(tx, logged[0].execution.createdAt, ...rows.map((row) => recordAchieved(row, exerciseNames.get(row.exerciseId)!)));
    return logged.map(({ execution }) =>
      rows
        .filter((row) => row.exerciseExecutionId === execution.id)
        .map((row) => ({
          exerciseId: row.exerciseId,
          kind: row.kind,
          value: Number(row.value),
          unit: unitOf(row.kind),
          previousValue: row.previousValue === null || row.previousValue === undefined ? null : Number(row.previousValue),
        })),
    );
  }

  /**
   * The records a log set when it was written, as its answer listed them (a log sent again with its client id answers
   * them again, contract §13.2): whether beaten since or not; those of an exercise deleted since are gone with it.
   */
  async setByExecutions(exerciseExecutionIds: readonly number[]): Promise<NewRecordDto[]> {
    const rows = await recordsRepository.setByExecutions(this.deps.db, exerciseExecutionIds);
    return rows.map((row) => ({
      exerciseId: row.exerciseId,
      kind: row.kind,
      value: Number(row.value),
      unit: unitOf(row.kind),
      previousValue: row.previousValue === null ? null : Number(row.previousValue),
    }));
  }

  /** A user's legacy personal records (contract §7), one per exercise (the caller's unless `userId`). */
  async listPersonalRecords(actor: Actor, userId?: number): Promise<PersonalRecordDto[]> {
    const caller = requireUser(actor);
    const owner = userId ?? caller.id;
    await this.deps.access.ensureMayReadActivity(caller, owner);
    return this.personalRecordsOf(owner);
  }

  /**
   * The legacy personal record of contract §7 on each exercise: the current MAX_WEIGHT with the current ESTIMATED_1RM,
   * dated and named by the execution that lifted that weight first (recordsRepository.personalRecords).
   */
  async personalRecordsOf(userId: number, only: { exerciseId?: number; limit?: number } = {}): Promise<PersonalRecordDto[]> {
    const rows = await recordsRepository.personalRecords(mayBeStale(this.deps.db), userId, only);
    return rows.map((row) => ({
      exerciseId: row.exerciseId,
      exerciseName: row.exerciseName,
      value: Number(row.value),
      unit: "kg",
      date: row.date,
      estimatedOneRepMax: row.oneRepMax === null ? null : Number(row.oneRepMax),
    }));
  }

  /** The first `limit` of personalRecordsOf, without their exercise ids, as the JSON text of an array. */
  personalRecordsText(userId: number, limit: number): Promise<string> {
    return recordsRepository.personalRecordsText(mayBeStale(this.deps.db), userId, limit);
  }

  /** A user's current record of each kind on an exercise (the caller's unless `userId`), in the kinds' order. */
  async listCurrent(actor: Actor, exerciseId: number, readFilter: InputReader<RecordsFilter>): Promise<RecordDto[]> {
    const caller = requireUser(actor);
    const userId = readFilter().userId ?? caller.id;
    const { exerciseExists, readable, rows } = await recordsRepository.currentOnExerciseReadBy(mayBeStale(this.deps.db), caller, userId, exerciseId);
    if (!exerciseExists) throw notFound(EXERCISE_NOT_FOUND);
    if (!readable) throw forbidden();
    return rows.map(toRecordDto).sort(byExerciseAndKind);
  }

  /** Every record event of a user on an exercise (the caller's unless `userId`), of one kind or all, newest first. */
  async listHistory(actor: Actor, exerciseId: number, readQuery: InputReader<RecordHistoryQuery>): Promise<Page<RecordDto>> {
    const caller = requireUser(actor);
    const { filter, page: request } = readQuery();
    await this.deps.exercises.getExisting(exerciseId);
    const userId = filter.userId ?? caller.id;
    await this.deps.access.ensureMayReadActivity(caller, userId);
    const { rows, total } = await recordsRepository.listHistory(mayBeStale(this.deps.db), { userId, exerciseId, kind: filter.kind }, request);
    return toPage(rows.map(toRecordDto), total, request);
  }

  /**
   * The records these users set in [from, until) — every record event, beaten since or not — newest first, at most
   * `limit`, each with its user, in one query (no access check: the asking module has its own rule).
   */
  async recentOfUsers(userIds: readonly number[], from: Date, until: Date, limit: number): Promise<(RecordDto & { userId: number })[]> {
    if (userIds.length === 0) return [];
    const ids = [...new Set(userIds)].sort((a, b) => a - b);
    const key = JSON.stringify([ids, from.getTime(), until.getTime(), limit]);
    const { rows, found } = await recordsRepository.listRecent(mayBeStale(this.deps.db), ids, from, until, limit, this.recentFound.get(key));
    this.recentFound.set(key, found);
    return rows.map((row) => ({ ...toRecordDto(row), userId: row.userId }));
  }

  /**
   * Current records for several GraphQL list items at once, in two statements whatever their number: who may be
   * read, then the records. Each answer is its records by exercise name and kind, or 403 for a user the caller may
   * not read.
   */
  async listCurrentOfMany(actor: Actor, requests: readonly CurrentRecordsRequest[]): Promise<(RecordDto[] | AppError)[]> {
    const caller = requireUser(actor);
    const userOf = (request: CurrentRecordsRequest) => request.userId ?? caller.id;
    const readable = await this.deps.access.activityReadableAmong(caller, [...new Set(requests.map(userOf))]);
    const every = <T>(pick: (request: CurrentRecordsRequest) => readonly T[] | undefined) =>
      requests.some((request) => pick(request) === undefined) ? undefined : [...new Set(requests.flatMap((request) => pick(request)!))];
    const rows = await recordsRepository.listCurrent(
      mayBeStale(this.deps.db),
      [...readable],
      every((request) => (request.exerciseId === undefined ? undefined : [request.exerciseId])),
      every((request) => request.kinds),
    );
    const records = rows.map((row) => ({ userId: row.userId, record: toRecordDto(row) }));
    return requests.map((request) => {
      const userId = userOf(request);
      if (!readable.has(userId)) return forbidden();
      return records
        .filter(
          ({ userId: owner, record }) =>
            owner === userId &&
            (request.exerciseId === undefined || record.exerciseId === request.exerciseId) &&
            (request.kinds?.includes(record.kind) ?? true),
        )
        .map(({ record }) => record)
        .sort(byExerciseAndKind);
    });
  }
}

/** The event of a record set (contract §14.1): the record as §12.1 gives it, with its user. */
function recordAchieved(row: NewRecordRow, exerciseName: string): DomainEvent {
  const record = toRecordDto({
    ...row,
    exerciseName,
    reps: row.reps ?? null,
    weight: row.weight ?? null,
    trainingExecutionId: row.trainingExecutionId ?? null,
    setIndex: row.setIndex ?? null,
    previousValue: row.previousValue ?? null,
  });
  return { type: "personal_record.achieved", subjectUserIds: [row.userId], data: { ...record, userId: row.userId } };
}

/**
 * Adds an execution of a log to its exercise's offer to the personal records (its MAX_WEIGHT and ESTIMATED_1RM
 * candidates, if it lifted a weight): of one log's executions of an exercise, the heaviest holds, then the earliest
 * executed, then the first logged, and the best estimate counts (recordsRepository.offerPersonalRecords weighs the
 * offer against the record held).
 */
function offerPersonalRecord(offers: Map<number, PersonalRecordOffer>, execution: LoggedExercise["execution"], candidates: readonly Candidate[]) {
  const heaviest = candidates.find((candidate) => candidate.kind === "MAX_WEIGHT");
  if (!heaviest || execution.exerciseId === null) return;
  const estimate = candidates.find((candidate) => candidate.kind === "ESTIMATED_1RM")?.value;
  const offer: PersonalRecordOffer = {
    userId: execution.userId,
    exerciseId: execution.exerciseId,
    value: hundredthsText(heaviest.value),
    exerciseExecutionId: execution.id,
    exerciseName: execution.exerciseName,
    executedAt: execution.executedAt,
    oneRepMax: estimate === undefined ? null : hundredthsText(estimate),
  };
  const other = offers.get(execution.exerciseId);
  if (!other) return void offers.set(execution.exerciseId, offer);
  const heavier = parseHundredths(offer.value) - parseHundredths(other.value);
  const holder = heavier > 0n || (heavier === 0n && execution.executedAt < other.executedAt) ? offer : other;
  offers.set(execution.exerciseId, { ...holder, oneRepMax: higher(offer.oneRepMax, other.oneRepMax) });
}

/** The higher of two hundredths texts, either null. */
function higher(a: string | null | undefined, b: string | null | undefined): string | null {
  if (a == null || b == null) return a ?? b ?? null;
  return parseHundredths(a) >= parseHundredths(b) ? a : b;
}
