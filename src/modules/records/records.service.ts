import { z } from "zod";
import { requireUser, type Actor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { forbidden, notFound, type AppError } from "../../platform/errors.js";
import { LruMap } from "../../platform/lru-map.js";
import { toPage, type Page } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import type { ActivityAccess } from "../access/activity-access.js";
import { EXERCISE_NOT_FOUND, type ExerciseService } from "../exercises/exercise.service.js";
import type { PersonalRecordDto } from "../executions/execution.dto.js";
import type { PersonalRecordsReader } from "../executions/record.ports.js";
import { byExerciseAndKind, toRecordDto, type RecordDto, recordSchema } from "./records.dto.js";
import type { RecordHistoryQuery, RecordsFilter } from "./records.inputs.js";
import { recordsRepository, type RecentRecordIds } from "./records.repository.js";
import type { RecordKind } from "../../tables/records.table.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
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

/** What the data export holds of this module (contract §15). */
const recordExport = z.object({ records: z.array(recordSchema).describe("The user's records, one per exercise and kind") });

/**
 * Record kinds (contract §12.1): claimed while executions are logged (record-claims.subscriber.ts), read by the user,
 * administrators and the user's ACTIVE-linked trainer (contract §7); and the legacy personal record of contract §7,
 * derived from them.
 */
export class RecordService implements PersonalRecordsReader {
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
  readonly personalData: PersonalDataHolder<typeof recordExport> = {
    exportSections: recordExport,
    exportPersonalData: async (db, userId) => ({ records: (await recordsRepository.recordsOfUser(db, userId)).map(toRecordDto) }),
    erasePersonalData: async (tx, userId) => {
      await recordsRepository.deleteRecordsOf(tx, userId);
    },
  };

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
