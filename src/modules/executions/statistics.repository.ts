import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../platform/db/database.js";
import { preparedStatement } from "../../platform/db/prepared.js";
import { fromJson, jsonArrayText, jsonNumber, jsonObjectText, jsonString } from "../../platform/db/json.js";
import { weightHistoryText } from "../users/user.fragments.js";
import type { TrainingStatisticsFigures } from "./execution.dto.js";
import type { Period } from "./execution.repository.js";

const iso = (date: Date) => date.toISOString();
const isoDay = (date: Date) => iso(date).slice(0, 10);

/**
 * The whole UTC months inside a range [from, until): from the first month starting at or after `from` to the
 * last one ending at or before `until` (open ends stay open). `empty` when no whole month fits.
 */
export function wholeMonths(range: Period): { from: string | null; until: string | null; empty: boolean } {
  const monthStart = (date: Date) => Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  let from: number | null = null;
  if (range.from) {
    const start = monthStart(range.from);
    from = start === range.from.getTime() ? start : Date.UTC(range.from.getUTCFullYear(), range.from.getUTCMonth() + 1, 1);
  }
  const until = range.until ? monthStart(range.until) : null;
  return { from: from === null ? null : day(from), until: until === null ? null : day(until), empty: from !== null && until !== null && from >= until };
}

/** The ISO weeks of the metrics' weeklyProgress (contract §7). */
export const WEEKS_IN_METRICS = 8;

/**
 * A user's metrics (contract §7) as the JSON text of the answer, built whole by PostgreSQL in one statement, prepared
 * once (its text is long to build) and bound to `userId` and the first week's Monday (`firstMonday`, an instant, and
 * `firstMondayDay`, its date): the totals (one index-only pass over each table, and the few standalone exercise logs),
 * trainings and time for each week and the weight history (the users module's fragment); all but the personal
 * records, which the records module keeps (StatisticsService.metricsJson adds them). Carried as one text, the answer
 * is not decoded into objects, walked for dates and encoded again; and that text is concatenated (`jsonObjectText`:
 * compact, as every other answer is written), where json_build_object and json_agg would space it and look up every
 * value's type and output function again for each item. Sums of seconds leave as float8: exact for any integer a
 * history can reach (below 2^53), where an int would overflow past 2^31 (68 years of logged time).
 */
const userMetrics = preparedStatement((db) => {
  const userId = sql.placeholder("userId");
  const firstMonday = sql`${sql.placeholder("firstMonday")}::timestamptz`;
  const answer = jsonObjectText({
    userId: sql`${userId}::int::text`,
    totalTrainings: sql`t.trainings::text`,
    completedTrainings: sql`t.completed::text`,
    totalExercises: sql`e.exercises::text`,
    totalTime: jsonNumber(sql`t.training_time + s.exercise_time`),
    weeklyProgress: jsonArrayText(
      jsonObjectText({
        date: jsonString(sql`to_char(d.week, 'YYYY-MM-DD')`),
        trainingsCount: sql`coalesce(weekly.trainings, 0)::text`,
        totalTime: jsonNumber(sql`coalesce(weekly.time, 0)`),
      }),
      sql`from (select ${sql.placeholder("firstMondayDay")}::date + 7 * i as week from generate_series(0, ${sql.raw(String(WEEKS_IN_METRICS - 1))}) i) d
        left join weekly on weekly.week = d.week`,
      sql`d.week`,
    ),
    weightHistory: weightHistoryText(sql`${userId}::int`),
  });
  return db
    .select({ answer: sql<string>`metrics.answer` })
    .from(
      sql`(
        with weekly as (
          select date_trunc('week', w.at at time zone 'UTC')::date as week, sum(w.trainings)::int as trainings, sum(w.time)::float8 as time from (
            select start_time as at, 1 as trainings, duration_seconds as time
            from training_executions where user_id = ${userId} and start_time >= ${firstMonday}
            union all
            select executed_at, 0, coalesce(duration_seconds, 0)
            from exercise_executions where user_id = ${userId} and training_execution_id is null and executed_at >= ${firstMonday}
          ) w group by 1
        )
        select ${answer} as answer
        from (
          select count(*)::int as trainings, (count(*) filter (where completed))::int as completed, coalesce(sum(duration_seconds), 0)::float8 as training_time
          from training_executions where user_id = ${userId}
        ) t,
        (select count(*)::int as exercises from exercise_executions where user_id = ${userId}) e,
        (
          select coalesce(sum(duration_seconds), 0)::float8 as exercise_time
          from exercise_executions where user_id = ${userId} and training_execution_id is null
        ) s
      ) metrics`,
    )
    .prepare("user_metrics");
});

/** The aggregates of one user's history (contract §7): a training's statistics, an exercise's progress, metrics. */
export const statisticsRepository = {
  /**
   * Totals, per-exercise figures and the daily series of one user's executions of one training, in one statement
   * answering one row. The two lists come back as JSON built by PostgreSQL: a long history has a thousand days, and
   * one JSON value is far cheaper to carry and decode than a thousand rows of columns (the days as [date, volume,
   * duration] triples, which PostgreSQL builds and Node decodes faster than objects).
   * Per-exercise figures read whole months from the monthly sums and only the range's partial edge months from the
   * executions; daily figures read one covering-index entry per session.
   */
  async trainingStatistics(db: Db, userId: number, trainingId: number, range: Period): Promise<TrainingStatisticsFigures> {
    const inRange = sql`te.user_id = ${userId} and te.training_id = ${trainingId}
      ${range.from ? sql`and te.start_time >= ${iso(range.from)}::timestamptz` : sql``}
      ${range.until ? sql`and te.start_time < ${iso(range.until)}::timestamptz` : sql``}`;
    const months = wholeMonths(range);
    const inWholeMonths = sql`${months.from ? sql`m.month >= ${months.from}::date` : sql`true`} and ${months.until ? sql`m.month < ${months.until}::date` : sql`true`}`;
    const outsideWholeMonths = months.empty
      ? sql`true`
      : sql`not (${months.from ? sql`te.start_time >= ${`${months.from}T00:00:00Z`}::timestamptz` : sql`true`} and ${months.until ? sql`te.start_time < ${`${months.until}T00:00:00Z`}::timestamptz` : sql`true`})`;
    const result = await db.execute(sql`
      with per_exercise as (
        select x.exercise_id, min(x.exercise_name) as exercise_name, sum(x.sets) as sets, sum(x.reps) as reps,
          max(x.max_weight) as max_weight, sum(x.weight_sum) as weight_sum, sum(x.weighted_sets) as weighted_sets, sum(x.volume) as volume
        from (
          select m.exercise_id, m.exercise_name, m.completed_sets as sets, m.total_reps as reps, m.max_weight, m.weight_sum, m.weighted_sets, m.volume
          from training_exercise_months m
          where m.user_id = ${userId} and m.training_id = ${trainingId} and ${months.empty ? sql`false` : inWholeMonths}
          union all
          select ee.exercise_id, ee.exercise_name, ee.completed_sets, ee.total_reps, ee.max_weight, ee.weight_sum, ee.weighted_sets, ee.volume
          from training_executions te join exercise_executions ee on ee.training_execution_id = te.id
          where ${inRange} and ${outsideWholeMonths}
        ) x
        group by x.exercise_id
      ),
      per_day as (
        select (te.start_time at time zone 'UTC')::date as day, count(*) as total, count(*) filter (where te.completed) as completed,
          sum(te.duration_seconds) as duration, sum(te.volume) as volume
        from training_executions te
        where ${inRange}
        group by 1
      )
      select
        coalesce(sum(d.total), 0)::int as total_executions,
        coalesce(sum(d.completed), 0)::int as completed_executions,
        coalesce(round(sum(d.duration) / nullif(sum(d.total), 0), 2), 0)::text as average_duration,
        coalesce(sum(d.volume), 0)::text as total_volume,
        coalesce(json_agg(json_build_array(d.day, d.volume, d.duration) order by d.day), '[]') as progress_data,
        (
          select coalesce(json_agg(json_build_object(
            'exerciseId', e.exercise_id, 'exerciseName', e.exercise_name, 'totalSets', e.sets, 'totalReps', e.reps, 'maxWeight', e.max_weight,
            'averageWeight', case when e.weighted_sets > 0 then round(e.weight_sum / e.weighted_sets, 2) end, 'totalVolume', e.volume
          ) order by e.exercise_name, e.exercise_id), '[]')
          from per_exercise e
        ) as exercise_statistics
      from per_day d`);
    const [row] = rowsOf<{
      total_executions: number;
      completed_executions: number;
      average_duration: string;
      total_volume: string;
      progress_data: unknown;
      exercise_statistics: unknown;
    }>(result);
    return {
      totalExecutions: row.total_executions,
      completedExecutions: row.completed_executions,
      averageDuration: Number(row.average_duration),
      totalVolume: Number(row.total_volume),
      exerciseStatistics: fromJson(row.exercise_statistics) as TrainingStatisticsFigures["exerciseStatistics"],
      progressData: (fromJson(row.progress_data) as [string, number, number][]).map(([date, totalVolume, duration]) => ({ date, totalVolume, duration })),
    };
  },

  /** One user's progress on one exercise, bucketed by UTC day, ISO week (Monday) or month (first day). */
  async exerciseProgress(db: Db, userId: number, exerciseId: number, interval: "DAY" | "WEEK" | "MONTH", range: Period) {
    const bucket =
      interval === "DAY"
        ? sql`(ee.executed_at at time zone 'UTC')::date`
        : interval === "WEEK"
          ? sql`date_trunc('week', ee.executed_at at time zone 'UTC')::date`
          : sql`date_trunc('month', ee.executed_at at time zone 'UTC')::date`;
    return rowsOf<{ day: string; max_weight: string | null; volume: string; sets: number; reps: number; one_rep_max: string | null }>(
      await db.execute(sql`
        select to_char(${bucket}, 'YYYY-MM-DD') as day, max(ee.max_weight)::text as max_weight, sum(ee.volume)::text as volume,
          sum(ee.completed_sets)::float8 as sets, sum(ee.total_reps)::float8 as reps, max(ee.best_one_rep_max)::text as one_rep_max
        from exercise_executions ee
        where ee.user_id = ${userId} and ee.exercise_id = ${exerciseId}
          ${range.from ? sql`and ee.executed_at >= ${iso(range.from)}::timestamptz` : sql``}
          ${range.until ? sql`and ee.executed_at < ${iso(range.until)}::timestamptz` : sql``}
        group by 1 order by 1`),
    );
  },

  /**
   * A user's metrics (contract §7) as the JSON text of the answer but its personal records, built whole by PostgreSQL in
   * one statement (`userMetrics`): the 8 ISO weeks of `weeklyProgress` start on `firstMonday`.
   */
  async metricsJson(db: Db, userId: number, firstMonday: Date): Promise<string> {
    const [row] = await userMetrics(db).execute({ userId, firstMonday: iso(firstMonday), firstMondayDay: isoDay(firstMonday) });
    return row.answer;
  },
};
