import { sql, type SQL } from "drizzle-orm";
import { completedTrainingWeeks, exerciseExecutions, trainingExecutions, WEEKS_PER_BLOCK } from "../../tables/execution.table.js";

/*
 * Who hears of executions in the change feed (contract §13.3): their user. As rows (execution id, user id), for the
 * changes other modules write when a change of theirs shows in an execution's DTO.
 */

/** Every training execution of `userId` (their DTOs show the user's name). */
export function trainingExecutionsOf(userId: number): SQL {
  return sql`select ${trainingExecutions.id}, ${trainingExecutions.userId} from ${trainingExecutions} where ${trainingExecutions.userId} = ${userId}`;
}

/** The training executions of a training (their DTOs name it by id: a deleted training leaves null). */
export function trainingExecutionsOfTraining(trainingId: number): SQL {
  return sql`select ${trainingExecutions.id}, ${trainingExecutions.userId} from ${trainingExecutions} where ${trainingExecutions.trainingId} = ${trainingId}`;
}

/** The exercise executions of a training (logged in its sessions or on their own). */
export function exerciseExecutionsOfTraining(trainingId: number): SQL {
  return sql`select ${exerciseExecutions.id}, ${exerciseExecutions.userId} from ${exerciseExecutions} where ${exerciseExecutions.trainingId} = ${trainingId}`;
}

/** The exercise executions of an exercise (their DTOs name it by id: a deleted exercise leaves null). */
export function exerciseExecutionsOfExercise(exerciseId: number): SQL {
  return sql`select ${exerciseExecutions.id}, ${exerciseExecutions.userId} from ${exerciseExecutions} where ${exerciseExecutions.exerciseId} = ${exerciseId}`;
}

/** The training executions holding an execution of an exercise (their DTOs list its exercise id). */
export function trainingExecutionsHoldingExercise(exerciseId: number): SQL {
  return sql`select ${exerciseExecutions.trainingExecutionId}, ${exerciseExecutions.userId} from ${exerciseExecutions}
    where ${exerciseExecutions.exerciseId} = ${exerciseId} and ${exerciseExecutions.trainingExecutionId} is not null`;
}

/** The columns of `completedTrainingWeeks` by level: the weeks with at least 1, 2 or 3 completed executions. */
const LEVEL_COLUMNS = [completedTrainingWeeks.weeks, completedTrainingWeeks.weeksTwice, completedTrainingWeeks.weeksThrice];

/**
 * The weeks from `from` to `to` (ISO week numbers, inclusive; null counts nothing) in which a user completed a
 * training at least `level` times (1 to COMPLETED_WEEK_LEVELS), from one row of `completedTrainingWeeks` (`row` names
 * it in the query): its bits of the range, counted.
 */
export function completedWeeksIn(row: string, from: SQL, to: SQL, level = 1): SQL {
  const base = sql`${sql.raw(row)}.${sql.identifier(completedTrainingWeeks.block.name)} * ${sql.raw(String(WEEKS_PER_BLOCK))}`;
  /** The block's lowest `n` bits set, `n` clamped to 0–64 (a shift by 64 or more, or below 0, is not defined). */
  const lowBits = (n: SQL) => sql`(case when ${n} >= ${sql.raw(String(WEEKS_PER_BLOCK))} then -1::bigint else ~(-1::bigint << greatest(0, ${n})) end)`;
  return sql`bit_count((${sql.raw(row)}.${sql.identifier(LEVEL_COLUMNS[level - 1].name)} & ${lowBits(sql`(${to} - ${base} + 1)`)} & ~${lowBits(sql`(${from} - ${base})`)})::bit(64))`;
}

/** The `completedTrainingWeeks` rows of a user's training that hold the weeks from `from` to `to` (a WHERE condition). */
export function completedWeekBlocks(row: string, userId: SQL, trainingId: SQL, from: SQL, to: SQL): SQL {
  const column = (name: string) => sql`${sql.raw(row)}.${sql.identifier(name)}`;
  const block = (week: SQL) => sql`(${week}) / ${sql.raw(String(WEEKS_PER_BLOCK))}`;
  return sql`${column(completedTrainingWeeks.userId.name)} = ${userId} and ${column(completedTrainingWeeks.trainingId.name)} = ${trainingId}
    and ${column(completedTrainingWeeks.block.name)} between ${block(from)} and ${block(to)}`;
}
