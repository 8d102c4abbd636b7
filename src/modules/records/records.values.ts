import { toHundredths } from "../../platform/hundredths.js";
import { RECORD_KINDS, type RecordKind } from "../../tables/records.table.js";
import { estimatedOneRepMax } from "../executions/execution.dto.js";
import type { LoggedSet } from "../events/domain-event.js";

/*
 * What each record kind measures of one logged exercise execution (contract §12.1). Weights and values are integer
 * hundredths (of a kilogram, or of a repetition for MAX_REPS), so comparisons are exact and rounding happens once.
 * The records backfill migration (drizzle/*_backfill_exercise_records.sql) states the same rules in SQL for the history
 * logged before records existed; tests/records/backfill.test.ts holds the two together.
 */

const REP_MAX_KINDS = [
  ["REP_MAX_3", 3],
  ["REP_MAX_5", 5],
  ["REP_MAX_10", 10],
] as const;

export const unitOf = (kind: RecordKind): "kg" | "reps" => (kind === "MAX_REPS" ? "reps" : "kg");

/** The best of one kind within an execution: the set that gives it (the earliest on a tie). */
export interface Candidate {
  kind: RecordKind;
  value: number;
  /** null for BEST_SESSION_VOLUME, which no single set gives. */
  setIndex: number | null;
  reps: number | null;
  weight: number | null;
}

/** Each kind's best value over an execution's completed sets, for the kinds some completed set qualifies for, in kind order. */
export function bestOfExecution(sets: readonly LoggedSet[]): Candidate[] {
  const best = new Map<RecordKind, Candidate>();
  const offer = (kind: RecordKind, value: number | null, setIndex: number | null, reps: number | null, weight: number | null) => {
    if (value === null) return;
    const held = best.get(kind);
    if (!held || value > held.value) best.set(kind, { kind, value, setIndex, reps, weight });
  };
  let sessionVolume: number | null = null;
  sets.forEach((set, index) => {
    if (!set.completed) return;
    const reps = set.repetitions;
    offer("MAX_REPS", toHundredths(reps), index, reps, set.weight === null || set.weight === undefined ? null : toHundredths(set.weight));
    if (set.weight === null || set.weight === undefined) return;
    const weight = toHundredths(set.weight);
    offer("MAX_WEIGHT", weight, index, reps, weight);
    offer("ESTIMATED_1RM", estimatedOneRepMax(weight, reps), index, reps, weight);
    offer("BEST_SET_VOLUME", weight * reps, index, reps, weight);
    for (const [kind, minimum] of REP_MAX_KINDS) offer(kind, reps >= minimum ? weight : null, index, reps, weight);
    sessionVolume = (sessionVolume ?? 0) + weight * reps;
  });
  offer("BEST_SESSION_VOLUME", sessionVolume, null, null, null);
  return RECORD_KINDS.flatMap((kind) => best.get(kind) ?? []);
}
