import type { Db } from "../../platform/db/database.js";
import { hundredthsText, parseHundredths } from "../../platform/hundredths.js";
import type { LoggedExercise } from "../events/domain-event.js";
import { emit, type DomainEvent, type EventSubscriber } from "../events/emit.js";
import type { NewRecordDto } from "../executions/execution.dto.js";
import type { RecordClaims } from "../executions/record.ports.js";
import { toRecordDto } from "./records.dto.js";
import { recordsRepository, type NewRecordRow, type PersonalRecordOffer } from "./records.repository.js";
import { bestOfExecution, unitOf, type Candidate } from "./records.values.js";

/**
 * Per open transaction (Drizzle makes a new object for each): the records each exercise execution logged in it set.
 * Kept for the process, not per instance: the instances of one database (tests run two) share its subscribers, the
 * last one's (`subscribe`), so the instance whose subscriber claims may not be the one that asks.
 */
const claimedInTransaction = new WeakMap<Db, Map<number, NewRecordDto[]>>();

/**
 * The records logs set (contract §12.1): claimed as the records module hears of each log (`exercise_executions.logged`),
 * in its transaction; what a log claimed is then answered to the logging use case, which lists them in its answer and
 * its public event, and again to a log sent again with its client id (contract §13.2).
 */
export class RecordClaiming implements RecordClaims {
  constructor(private readonly deps: { db: Db }) {}

  /** The records module's part of every emit: the claims of the logs it hears of. */
  readonly claimOnLog: EventSubscriber = async (tx, _at, events) => {
    for (const event of events) {
      if (event.type !== "exercise_executions.logged") continue;
      const claimed = await this.claim(tx, event.userId, event.exercises);
      const kept = claimedInTransaction.get(tx) ?? new Map<number, NewRecordDto[]>();
      event.exercises.forEach(({ execution }, i) => kept.set(execution.id, claimed[i]));
      claimedInTransaction.set(tx, kept);
    }
  };

  claimedIn(tx: Db, exerciseExecutionIds: readonly number[]): NewRecordDto[][] {
    return exerciseExecutionIds.map((id) => {
      const claimed = claimedInTransaction.get(tx)?.get(id);
      if (!claimed) throw new Error(`no records were claimed for exercise execution ${id} in this transaction`);
      return claimed;
    });
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

  /**
   * Claims the records a log of `userId` sets, inside its transaction `tx`, which holds the user's executions lock
   * (lockForTransaction "executions"): concurrent logs of one user then claim one after the other, and a record is
   * never claimed twice. Executions are taken in the order given, each against the bests before it (the earlier
   * ones of the same log included); each kind's best set of an execution is a record when it strictly beats the
   * current record of its kind, or is the first of its kind. Answers the records each execution set, in the order given.
   */
  private async claim(tx: Db, userId: number, logged: readonly LoggedExercise[]): Promise<NewRecordDto[][]> {
    const exerciseIds = [...new Set(logged.flatMap(({ execution }) => (execution.exerciseId === null ? [] : [execution.exerciseId])))];
    if (exerciseIds.length === 0) return logged.map(() => []);
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
    // Emitted from inside the log's emit: every subscriber hears of the records, and they precede the log's public event in the outbox.
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
