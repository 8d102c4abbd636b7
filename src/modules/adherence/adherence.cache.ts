import type { Db } from "../../platform/db/database.js";
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
 */
export class TrainerSummariesCache {
  private readonly readings = new Map<string, TrainerSummaries>();
  private keptRows = 0;

  constructor(private readonly maxRows = KEPT_ROWS) {}

  async read(db: Db, trainerId: number, days: AdherenceDays, request: Pick<PageRequest, "sort"> & Partial<PageRequest>): Promise<TrainerSummaries> {
    const key = JSON.stringify([trainerId, days.from, days.today, request.sort, request.size, request.page]);
    const kept = this.readings.get(key);
    if (kept && (await adherenceRepository.stillHold(db, trainerId, kept))) {
      this.keep(key, kept);
      return kept;
    }
    const read = await adherenceRepository.summaries(db, trainerId, days, request);
    this.keep(key, read);
    return read;
  }

  /** Keeps a reading as the most recently used, dropping the least recently used while past the rows kept. */
  private keep(key: string, reading: TrainerSummaries) {
    this.drop(key);
    this.readings.set(key, reading);
    this.keptRows += reading.rows.length;
    for (const oldest of this.readings.keys()) {
      if (this.keptRows <= this.maxRows || oldest === key) break;
      this.drop(oldest);
    }
  }

  private drop(key: string) {
    const reading = this.readings.get(key);
    if (!reading) return;
    this.readings.delete(key);
    this.keptRows -= reading.rows.length;
  }
}
