import type { Db } from "../../platform/db/database.js";
import type { PageRequest } from "../../platform/paging.js";
import { adherenceRepository, type AdherenceDays, type TrainerSummaries } from "./adherence.repository.js";

/** Readings kept per instance, the least recently used dropped first: a hundred students' rows are some 30 kB. */
const KEPT_READINGS = 500;

/**
 * A trainer's students' figures as last read, per window, day and page, reused while they still hold. Their statement
 * reads every student's year of schedule and executions (milliseconds of the database's CPU for a hundred students),
 * while whether anything under them changed is an index probe per student in the change log: the same ACTIVE students,
 * and no change recorded for them or the trainer since the snapshot the figures were read under. Every instance asks
 * the database, so a write through any of them is seen at once by all; the day is part of the key, so nothing outlives
 * it.
 */
export class TrainerSummariesCache {
  private readonly readings = new Map<string, TrainerSummaries>();

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

  /** Keeps a reading as the most recently used, dropping the least recently used past KEPT_READINGS. */
  private keep(key: string, reading: TrainerSummaries) {
    this.readings.delete(key);
    this.readings.set(key, reading);
    if (this.readings.size > KEPT_READINGS) this.readings.delete(this.readings.keys().next().value!);
  }
}
