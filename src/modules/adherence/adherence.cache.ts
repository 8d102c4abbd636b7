import type { Db } from "../../platform/db/database.js";
import { LruMap } from "../../platform/lru-map.js";
import type { PageRequest } from "../../platform/paging.js";
import { adherenceRepository, type AdherenceDays, type TrainerSummaries } from "./adherence.repository.js";

/**
 * Students' rows kept per instance, in all readings, the least recently used readings dropped first: some 300 bytes a
 * row (and as much again for its answer), so about 30 MB at most, whatever the trainers' numbers of students.
 */
const KEPT_ROWS = 50_000;

/**
 * A trainer's students' figures as last read, per window, day and page, reused while they still hold. Their statement
 * reads every student's year of schedule and executions (milliseconds of the database's CPU for a hundred students),
 * while whether anything under them changed is an index probe per student in the change log: the same ACTIVE students,
 * and no change recorded for them or the trainer since the snapshot the figures were read under. Every instance asks
 * the database, so a write through any of them is seen at once by all; the day is part of the key, so nothing outlives
 * it. A write that bypasses the services (SQL by hand, a migration changing executions) records no change: readings
 * taken before it are reused until the day ends.
 *
 * Requests that find the figures changed while they are being read again wait for that reading and check it like a
 * kept one, instead of each reading every student's year again: after a change, concurrent requests of a trainer cost
 * one reading.
 */
export class TrainerSummariesCache {
  private readonly readings: LruMap<TrainerSummaries>;
  private readonly underWay = new Map<string, Promise<TrainerSummaries>>();

  constructor(maxRows = KEPT_ROWS) {
    this.readings = new LruMap(maxRows, (reading) => reading.rows.length);
  }

  async read(db: Db, trainerId: number, days: AdherenceDays, request: Pick<PageRequest, "sort"> & Partial<PageRequest>): Promise<TrainerSummaries> {
    const key = JSON.stringify([trainerId, days.from, days.today, request.sort, request.size, request.page]);
    // A reading under way is newer than the one kept.
    const underWay = this.underWay.get(key);
    const candidate = underWay ? await underWay.catch(() => undefined) : this.readings.get(key);
    if (candidate && (await adherenceRepository.stillHold(db, trainerId, candidate))) return candidate;
    const reading = adherenceRepository.summaries(db, trainerId, days, request);
    this.underWay.set(key, reading);
    try {
      const read = await reading;
      this.readings.set(key, read);
      return read;
    } finally {
      if (this.underWay.get(key) === reading) this.underWay.delete(key);
    }
  }
}
