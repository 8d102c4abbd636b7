/**
 * The API benchmark's data (issue 11), set-based SQL only: one trainer who wrote everything (so every row is visible
 * to the trainer, and PostGraphile, which applies no visibility rules, answers the same rows), 20 ACTIVE-linked
 * students, 200 exercises, 50 trainings of 5–8 exercises, 20 plans of 5 trainings, and every student's logged history
 * (about 100k sets). Names, link dates and start times are distinct, so every ordering is unambiguous.
 */
import type postgres from "postgres";
import { checkConsistency, HISTORY_DAYS, historyStart, seedExerciseHistories, SETS_PER_EXECUTION } from "../logged-history.js";

export const STUDENTS = 20;
export const EXERCISES = 200;
export const TRAININGS = 50;
export const PLANS = 20;
export const TRAININGS_PER_PLAN = 5;
/** 20 students × 150 sessions × 6.5 exercises on average × 5 sets ≈ 97,500 sets. */
const SESSIONS_PER_STUDENT = 150;

export interface ApiWorld {
  trainer: SeededUser;
  students: SeededUser[];
  exerciseIds: number[];
  trainingIds: number[];
  planIds: number[];
  counts: { trainingExecutions: number; exerciseExecutions: number; sets: number };
}

export interface SeededUser {
  id: number;
  name: string;
  email: string;
  userType: "ALUNO" | "PERSONAL";
}

const ids = (rows: { id: number }[]) => rows.map((row) => row.id).sort((a, b) => a - b);

export async function seedApiWorld(seed: postgres.Sql): Promise<ApiWorld> {
  const [trainer] = await seed<SeededUser[]>`
    insert into users (name, email, password_hash, user_type, email_confirmed)
    values ('Bench Trainer', 'bench-trainer@example.com', 'x', 'PERSONAL', true) returning id, name, email, user_type as "userType"`;
  const students = await seed<SeededUser[]>`
    insert into users (name, email, password_hash, user_type, email_confirmed)
    select format('Bench Student %s', lpad(n::text, 2, '0')), format('bench-student-%s@example.com', n), 'x', 'ALUNO', true
    from generate_series(1, ${STUDENTS}) n order by n returning id, name, email, user_type as "userType"`;
  students.sort((a, b) => a.id - b.id);
  // Linked an hour apart, the first student most recently.
  await seed`
    insert into personal_student_links (personal_id, student_id, status, created_at, updated_at)
    select ${trainer.id}, s.id, 'ACTIVE', now() - s.n * interval '1 hour', now() - s.n * interval '1 hour'
    from unnest(${students.map((s) => s.id)}::int[]) with ordinality as s(id, n)`;

  // Names in another order than ids (37 is prime to 200), so ordering by name is seen to be applied.
  const exerciseIds = ids(
    await seed<{ id: number }[]>`
      insert into exercises (name, description, category, created_by, is_public, equipment)
      select format('Exercise %s', lpad(((k * 37) % ${EXERCISES})::text, 3, '0')), 'Seeded for the API benchmark',
        (array['PEITO','COSTAS','OMBRO','BICEPS','TRICEPS','PERNAS','ABDOMEN','GLUTEOS','CARDIO','OUTRO'])[k % 10 + 1], ${trainer.id}, k % 2 = 0,
        (array['BARRA','HALTERES','MAQUINA','CABO','PESO_CORPORAL','OUTRO'])[k % 6 + 1]
      from generate_series(0, ${EXERCISES - 1}) k order by k returning id`,
  );
  const trainingIds = ids(
    await seed<{ id: number }[]>`
      insert into trainings (name, description, created_by, is_public)
      select format('Training %s', lpad(t::text, 2, '0')), 'Seeded for the API benchmark', ${trainer.id}, true
      from generate_series(0, ${TRAININGS - 1}) t order by t returning id`,
  );
  // Training t has 5 + t % 4 exercises, 13 apart in the library (distinct within a training).
  await seed`
    insert into training_exercises (training_id, exercise_id, position, sets, repetitions, weight_kg, rest_seconds, "order")
    select t.id, (${exerciseIds}::int[])[((t.n * 7 + j * 13) % ${EXERCISES})::int + 1], j, ${SETS_PER_EXECUTION}, 10, null, 90, j
    from unnest(${trainingIds}::int[]) with ordinality as t(id, n)
    cross join lateral generate_series(0, 4 + t.n::int % 4) j`;
  const planIds = ids(
    await seed<{ id: number }[]>`
      insert into training_plans (name, description, created_by, is_public, difficulty, goal, duration_weeks)
      select format('Plan %s', lpad(p::text, 2, '0')), 'Seeded for the API benchmark', ${trainer.id}, false, 'INTERMEDIARIO', 'HIPERTROFIA', 8
      from generate_series(0, ${PLANS - 1}) p order by p returning id`,
  );
  await seed`
    insert into plan_trainings (plan_id, training_id, day_of_week, "order", position)
    select p.id, (${trainingIds}::int[])[((p.n * 5 + i * 3) % ${TRAININGS})::int + 1],
      (array['MONDAY','TUESDAY','WEDNESDAY','THURSDAY','FRIDAY'])[i + 1], 0, i
    from unnest(${planIds}::int[]) with ordinality as p(id, n)
    cross join generate_series(0, ${TRAININGS_PER_PLAN - 1}) i`;

  // Each student's sessions, a week apart over the history, cycling through every training (7 is prime to 50).
  const t0 = historyStart();
  const step = `${(HISTORY_DAYS - 1) / SESSIONS_PER_STUDENT} * interval '1 day'`;
  await seed.unsafe(`
    insert into training_executions (user_id, training_id, training_name, start_time, end_time, duration_seconds, completed, notes, created_at)
    select s.id, t.id, t.name, w.start_time, w.start_time + w.duration, extract(epoch from w.duration)::int,
      (g * 13 + s.n) % 20 <> 0, null, w.start_time + w.duration
    from generate_series(0, ${SESSIONS_PER_STUDENT - 1}) g
    cross join unnest(array[${students.map((s) => s.id).join(",")}]::int[]) with ordinality as s(id, n)
    join trainings t on t.id = (array[${trainingIds.join(",")}]::int[])[((g * 7 + s.n) % ${TRAININGS})::int + 1]
    cross join lateral (select date_trunc('second', ${t0} + g * ${step}) + ((s.n * 37 + g * 11) % 60) * interval '1 minute' as start_time,
      (50 + (s.n + g * 7) % 40) * interval '1 minute' as duration) w
    order by w.start_time, s.id`);
  await seedExerciseHistories(
    seed,
    students.map((s) => s.id),
    t0,
  );
  await checkConsistency(seed, students[0].id);
  // The planner's statistics, as a live database has them: left to autovacuum, whether a read measured early was
  // planned on them or on an empty table's guesses depended on the run's timing.
  await seed`analyze`;
  const [counts] = await seed<ApiWorld["counts"][]>`
    select (select count(*)::int from training_executions) as "trainingExecutions", (select count(*)::int from exercise_executions) as "exerciseExecutions",
      (select count(*)::int from execution_sets) as sets`;
  return { trainer, students, exerciseIds, trainingIds, planIds, counts };
}
