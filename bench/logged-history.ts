/**
 * Logged training history for the benchmarks, seeded with set-based SQL: given training executions already in the
 * table, their exercise executions and sets (deterministic, derived from the user, the time and the exercise's
 * position in the training), the aggregates and personal-record flags computed from those very sets, and the derived
 * tables the migrations backfill (the records among them, from which the personal records derive). Shared by `npm run bench:stats` and `npm run bench:api`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type postgres from "postgres";
import { migrationsFolder } from "../src/platform/db/paths.js";

export const SETS_PER_EXECUTION = 5;
/** Exercises at this position of a training or later are bodyweight ones: their sets carry no weight. */
export const BODYWEIGHT_FROM = 17;
/** How far back a history goes: weights rise by half over it. */
export const HISTORY_DAYS = 1_096;

/**
 * The backfill migrations' statements: derived statistics, records and completed weeks of executions written straight
 * into the tables.
 */
const BACKFILL_STATEMENTS = [
  "0008_backfill_training_statistics.sql",
  "0015_backfill_exercise_records.sql",
  "0028_backfill_completed_training_weeks.sql",
  "0030_backfill_completed_training_weeks_levels.sql",
  "0038_personal_record_holders_backfill.sql",
].flatMap((file) =>
  readFileSync(path.join(migrationsFolder, file), "utf8")
    .split("--> statement-breakpoint")
    .map((statement) => statement.trim())
    .filter(Boolean),
);

const SEEDED_TABLES = [
  "training_executions",
  "exercise_executions",
  "execution_sets",
  "training_exercise_months",
  "exercise_records",
  "personal_record_holders",
  "completed_training_weeks",
];

/** Day 0 of every history (HISTORY_DAYS ago, 17:00 UTC), as an SQL timestamptz literal. */
export function historyStart(): string {
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  return `'${new Date(today.getTime() - HISTORY_DAYS * 86_400_000 + 17 * 3_600_000).toISOString()}'::timestamptz`;
}

export async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

/**
 * The sets of one exercise execution of user `u`, ended at `at`, of the training's k-th exercise: 5 sets of 6–12
 * repetitions, ~10% not completed (more often the last one), no weight on bodyweight exercises and on ~3% of the others,
 * weights rising by half over the 3 years with some noise (so records are beaten now and then, and equalled too).
 */
function setsOf(u: string, at: string, k: string, t0: string): string {
  return `select s.position, v.reps, v.weight, v.completed
    from generate_series(0, ${SETS_PER_EXECUTION - 1}) as s(position)
    cross join lateral (select abs(hashint8(((extract(epoch from ${at})::bigint * 131 + ${u}) * 64 + ${k} * 8 + s.position))::bigint) as r) h
    cross join lateral (select
      (6 + h.r % 7)::int as reps,
      ((h.r / 7) % 10 <> 0 and not (s.position = ${SETS_PER_EXECUTION - 1} and (h.r / 70) % 4 = 0)) as completed,
      (case when ${k} >= ${BODYWEIGHT_FROM} or (h.r / 280) % 33 = 0 then null
        else round(((20 + ${k} * 4 + ${u} % 7) * (1 + 0.5 * extract(epoch from ${at} - ${t0}) / ${HISTORY_DAYS * 86_400})
          + ((h.r / 9240) % 5 - 2) * 1.25) * 2) / 2 end)::numeric(6, 2) as weight) v`;
}

export interface HistoryTimes {
  exerciseExecutions: number;
  sets: number;
  vacuumAnalyze: number;
}

/**
 * For every training execution of `userIds` (already inserted, with its training): one exercise execution per exercise
 * of the training, ended with the session, and its sets. One statement per table; then the backfill migration's
 * statements and a vacuum, as autovacuum would after a bulk insert.
 */
export async function seedExerciseHistories(seed: postgres.Sql, userIds: number[], t0: string): Promise<HistoryTimes> {
  const users = `array[${userIds.join(",")}]::int[]`;
  const [, exerciseExecutions] = await timed(() =>
    seed.unsafe(`
      insert into exercise_executions (user_id, exercise_id, exercise_name, training_id, training_name, training_execution_id, executed_at,
        duration_seconds, notes, personal_record, completed_sets, total_reps, volume, max_weight, weight_sum, weighted_sets, best_one_rep_max, created_at)
      select x.user_id, x.exercise_id, x.exercise_name, x.training_id, x.training_name, x.te_id, x.executed_at, null, null,
        x.max_weight is not null and x.max_weight > coalesce(max(x.max_weight) over (partition by x.user_id, x.exercise_id order by x.executed_at, x.k
          rows between unbounded preceding and 1 preceding), -1),
        x.completed_sets, x.total_reps, x.volume, x.max_weight, x.weight_sum, x.weighted_sets, x.best_one_rep_max, x.executed_at
      from (
        select te.user_id, tx.exercise_id, e.name as exercise_name, te.training_id, te.training_name, te.id as te_id, te.end_time as executed_at, tx.position as k, a.*
        from training_executions te
        join training_exercises tx on tx.training_id = te.training_id
        join exercises e on e.id = tx.exercise_id
        cross join lateral (
          select count(*) filter (where s.completed)::int as completed_sets,
            coalesce(sum(s.reps) filter (where s.completed), 0)::int as total_reps,
            coalesce(sum(s.reps * s.weight) filter (where s.completed), 0) as volume,
            max(s.weight) filter (where s.completed) as max_weight,
            coalesce(sum(s.weight) filter (where s.completed), 0) as weight_sum,
            count(s.weight) filter (where s.completed)::int as weighted_sets,
            max(case when s.reps = 1 then s.weight else round(s.weight * (30 + s.reps) / 30, 2) end)
              filter (where s.completed and s.reps between 1 and 12) as best_one_rep_max
          from (${setsOf("te.user_id", "te.end_time", "tx.position", t0)}) s
        ) a
        where te.user_id = any(${users})
      ) x
      order by x.executed_at, x.user_id, x.k`),
  );
  // Physical order follows exercise_executions (a sequential scan): every set right after its execution's siblings.
  const [, sets] = await timed(() =>
    seed.unsafe(`
      insert into execution_sets (exercise_execution_id, user_id, position, repetitions, weight, completed)
      select ee.id, ee.user_id, s.position, s.reps, s.weight, s.completed
      from exercise_executions ee
      join training_exercises tx on tx.training_id = ee.training_id and tx.exercise_id = ee.exercise_id
      cross join lateral (${setsOf("ee.user_id", "ee.executed_at", "tx.position", t0)}) s
      where ee.user_id = any(${users})`),
  );
  // The stored session volumes, monthly training sums and records, filled by the very statements the migrations use.
  for (const statement of BACKFILL_STATEMENTS) await seed.unsafe(statement);
  // What autovacuum does after a bulk insert (PostgreSQL 13+): statistics, and the visibility map index-only scans use.
  const [, vacuumAnalyze] = await timed(() => seed.unsafe(`vacuum (analyze) ${SEEDED_TABLES.join(", ")}`));
  const visibility = await seed<{ relname: string; relpages: number; relallvisible: number }[]>`
    select relname, relpages, relallvisible from pg_class where relname = any(${SEEDED_TABLES})`;
  // Index-only scans skip the heap only on all-visible pages.
  console.log(`  all-visible pages after vacuum: ${visibility.map((v) => `${v.relname} ${v.relallvisible}/${v.relpages}`).join(", ")}`);
  return { exerciseExecutions, sets, vacuumAnalyze };
}

/** Recomputes one user's aggregates and record flags from the stored sets; every count printed must be 0. */
export async function checkConsistency(seed: postgres.Sql, userId: number) {
  const [row] = await seed<{ executions: number; sets: number; aggregates: number; records: number; prs: number }[]>`
    with recomputed as (
      select ee.id, ee.user_id, ee.exercise_id, ee.executed_at, ee.personal_record,
        (ee.completed_sets, ee.total_reps, ee.volume, ee.max_weight, ee.weight_sum, ee.weighted_sets, ee.best_one_rep_max)
          is not distinct from (a.completed_sets, a.total_reps, a.volume, a.max_weight, a.weight_sum, a.weighted_sets, a.best_one_rep_max) as same,
        ee.max_weight is not null and ee.max_weight > coalesce(max(ee.max_weight) over (partition by ee.exercise_id order by ee.executed_at, ee.id
          rows between unbounded preceding and 1 preceding), -1) as record
      from exercise_executions ee
      cross join lateral (
        select count(*) filter (where s.completed)::int as completed_sets,
          coalesce(sum(s.repetitions) filter (where s.completed), 0)::int as total_reps,
          coalesce(sum(s.repetitions * s.weight) filter (where s.completed), 0)::numeric(14, 2) as volume,
          max(s.weight) filter (where s.completed) as max_weight,
          coalesce(sum(s.weight) filter (where s.completed), 0)::numeric(14, 2) as weight_sum,
          count(s.weight) filter (where s.completed)::int as weighted_sets,
          max(case when s.repetitions = 1 then s.weight else round(s.weight * (30 + s.repetitions) / 30, 2) end)
            filter (where s.completed and s.repetitions between 1 and 12)::numeric(10, 2) as best_one_rep_max
        from execution_sets s where s.exercise_execution_id = ee.id
      ) a
      where ee.user_id = ${userId}
    )
    select count(*)::int as executions,
      (select count(*)::int from execution_sets where user_id = ${userId}) as sets,
      count(*) filter (where not same)::int as aggregates,
      count(*) filter (where personal_record <> record)::int as records,
      count(*) filter (where personal_record)::int as prs
    from recomputed`;
  const [extra] = await seed<{ incomplete: number; unweighted: number; trainings: number }[]>`
    select count(*) filter (where not completed)::int as incomplete, count(*) filter (where weight is null)::int as unweighted,
      (select count(*)::int from training_executions where user_id = ${userId}) as trainings
    from execution_sets where user_id = ${userId}`;
  console.log(
    `  student ${userId}: ${extra.trainings} training executions, ${row.executions} exercise executions, ${row.sets} sets ` +
      `(${extra.incomplete} not completed, ${extra.unweighted} without weight), ${row.prs} personal-record flags; ` +
      `aggregates differing from the sets: ${row.aggregates}, record flags differing: ${row.records}`,
  );
  if (row.aggregates !== 0 || row.records !== 0) throw new Error("seeded aggregates are inconsistent with the seeded sets");
}
