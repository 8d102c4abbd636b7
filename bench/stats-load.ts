/**
 * Statistics load (issue 6): are training statistics, exercise progress, personal records and user metrics fast on
 * a long history, and does their cost follow one user's history rather than the size of the table?
 *
 * Against PostgreSQL only. Creates a scratch database (fitness_bench_<pid>) next to DATABASE_URL's, migrates it,
 * seeds with set-based SQL one student with 3 years of history (1,000 training executions of a 20-exercise training,
 * 20,000 exercise executions, 100,000 sets, the executions' aggregate columns and personal-record flags computed in SQL
 * from those very sets), starts the app in this process, and measures the four endpoints with one client (service time)
 * and with 8 closed-loop clients (p50/p99/max), next to GET /api/users/profile as the floor of the stack on this machine.
 * Then it re-seeds the same generator for 100 students, interleaved in time (so the first student's rows are scattered
 * among everybody else's, as they would be in production), and measures the first student again. Prints the
 * EXPLAIN (ANALYZE, BUFFERS) of the statements behind each endpoint, a table of figures, and drops the database.
 *
 *   npm run bench:stats
 *   DATABASE_URL=postgres://user@host:5432/any npm run bench:stats
 *   BENCH_STUDENTS=20 BENCH_SECONDS=5 npm run bench:stats   # smaller / shorter run
 */
import "reflect-metadata";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createApp, type App } from "../src/app.js";
import { systemClock } from "../src/platform/clock.js";
import { loadConfig } from "../src/platform/config.js";
import { openDatabase, type Db, type DatabaseHandle } from "../src/platform/db/database.js";
import { createLogger } from "../src/platform/logger.js";
import { statisticsRepository } from "../src/modules/executions/statistics.repository.js";
import { recordsRepository } from "../src/modules/records/records.repository.js";
import { RECORDS_IN_METRICS } from "../src/modules/executions/statistics.service.js";
import { inlineParameters, printExplain } from "./explain.js";
import { BODYWEIGHT_FROM, checkConsistency, historyStart, HISTORY_DAYS, seedExerciseHistories, SETS_PER_EXECUTION, timed } from "./logged-history.js";
import { bearer, closedLoop, ms, printTable, request, scratchDatabase, secs, watchEventLoopDelay, type Summary, runBenchmark } from "./support.js";

const CONCURRENCY = 8;
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
const WARMUP_MS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2) * 1000;
/** Each endpoint is also measured with a single client for this long: its service time without queueing. */
const SERIAL_MS = Number(process.env.BENCH_SERIAL_SECONDS ?? 2) * 1000;
const WANTED_STUDENTS = Number(process.env.BENCH_STUDENTS ?? 100);
/** Seeding the scaled table should take about this long at most; fewer students are seeded when it would not. */
const SEED_BUDGET_MS = Number(process.env.BENCH_SEED_BUDGET_SECONDS ?? 600) * 1000;
const TARGET_P99_MS = 50;
const BASELINE = "GET /api/users/profile (baseline)";

const TRAINING_EXECUTIONS = 1_000;
const EXERCISES = 20;
const PASSWORD = "bench-password-1";

// ---------------------------------------------------------------------------------------------------------------
// Seeding: set-based SQL only; the generator is deterministic, so a student's history is the same in both phases.

interface World {
  trainerId: number;
  trainingId: number;
  trainingName: string;
  exerciseIds: number[];
  /** Day 0 of every history, as an SQL timestamptz literal. */
  t0: string;
}

interface SeedTimes {
  trainingExecutions: number;
  exerciseExecutions: number;
  sets: number;
  vacuumAnalyze: number;
  total: number;
}

/** The trainer, the exercise library and a training with every exercise of it. */
async function seedWorld(seed: postgres.Sql): Promise<World> {
  const [trainer] = await seed<{ id: number }[]>`
    insert into users (name, email, password_hash, user_type, email_confirmed)
    values ('Bench Trainer', 'bench-trainer@example.com', 'x', 'PERSONAL', true) returning id`;
  const exerciseRows = await seed<{ id: number }[]>`
    insert into exercises (name, description, category, created_by, is_public, equipment)
    select format('Exercise %s', lpad(k::text, 2, '0')), 'Seeded for the statistics benchmark',
      (array['PEITO','COSTAS','OMBRO','BICEPS','TRICEPS','PERNAS','ABDOMEN','GLUTEOS'])[k % 8 + 1], ${trainer.id}, true,
      case when k >= ${BODYWEIGHT_FROM} then 'PESO_CORPORAL' else 'BARRA' end
    from generate_series(0, ${EXERCISES - 1}) k order by k returning id`;
  const trainingName = "Bench full body";
  const [training] = await seed<{ id: number }[]>`
    insert into trainings (name, description, created_by, is_public) values (${trainingName}, 'Every exercise of the library', ${trainer.id}, true) returning id`;
  const exerciseIds = exerciseRows.map((row) => row.id).sort((a, b) => a - b);
  await seed`
    insert into training_exercises (training_id, exercise_id, position, sets, repetitions, weight_kg, rest_seconds, "order")
    select ${training.id}, e.id, e.n - 1, ${SETS_PER_EXECUTION}, 10, null, 90, e.n - 1
    from unnest(${exerciseIds}::int[]) with ordinality as e(id, n)`;
  return { trainerId: trainer.id, trainingId: training.id, trainingName, exerciseIds, t0: historyStart() };
}

/** The histories of `userIds`, in the order they would have been logged: everybody's executions interleaved by time. */
async function seedHistories(seed: postgres.Sql, world: World, userIds: number[]): Promise<SeedTimes> {
  const users = `array[${userIds.join(",")}]::int[]`;
  const step = `${(HISTORY_DAYS - 1) / TRAINING_EXECUTIONS} * interval '1 day'`;
  const [, trainingExecutions] = await timed(() =>
    seed.unsafe(`
      insert into training_executions (user_id, training_id, training_name, start_time, end_time, duration_seconds, completed, notes, created_at)
      select u, ${world.trainingId}, '${world.trainingName}', t.start_time, t.start_time + t.duration, extract(epoch from t.duration)::int,
        (g * 13 + u) % 20 <> 0, null, t.start_time + t.duration
      from generate_series(0, ${TRAINING_EXECUTIONS - 1}) g
      cross join unnest(${users}) u
      cross join lateral (select date_trunc('second', ${world.t0} + g * ${step}) + ((u * 37 + g * 11) % 60) * interval '1 minute' as start_time,
        (50 + (u + g * 7) % 40) * interval '1 minute' as duration) t
      order by t.start_time, u`),
  );
  const { exerciseExecutions, sets, vacuumAnalyze } = await seedExerciseHistories(seed, userIds, world.t0);
  return { trainingExecutions, exerciseExecutions, sets, vacuumAnalyze, total: trainingExecutions + exerciseExecutions + sets + vacuumAnalyze };
}

// ---------------------------------------------------------------------------------------------------------------
// EXPLAIN of the statements the endpoints run, taken from the repository itself (not copied), parameters inlined:
// each repository call runs once on the app's database while its statements are observed.

async function statementsOf(database: DatabaseHandle, userId: number, world: World) {
  const monday = new Date();
  monday.setUTCHours(0, 0, 0, 0);
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7) - 7 * 7);
  const endpoints: Array<[string, Array<(db: Db) => Promise<unknown>>]> = [
    ["GET /trainings/{id}/statistics", [(db) => statisticsRepository.trainingStatistics(db, userId, world.trainingId, {})]],
    [
      "GET /exercises/{id}/progress?interval=WEEK",
      [
        (db) => statisticsRepository.exerciseProgress(db, userId, world.exerciseIds[0], "WEEK", {}),
        (db) => recordsRepository.personalRecords(db, userId, { exerciseId: world.exerciseIds[0] }),
      ],
    ],
    ["GET /exercises/personal-records", [(db) => recordsRepository.personalRecords(db, userId, {})]],
    [
      "GET /users/metrics",
      [(db) => statisticsRepository.metricsJson(db, userId, monday), (db) => recordsRepository.personalRecords(db, userId, { limit: RECORDS_IN_METRICS })],
    ],
  ];
  const result: Array<[string, string[]]> = [];
  for (const [label, calls] of endpoints) {
    const statements: string[] = [];
    const stop = database.observeQueries((text, params) => statements.push(inlineParameters(text, params)));
    try {
      for (const call of calls) await call(database.db);
    } finally {
      stop();
    }
    result.push([label, statements]);
  }
  return result;
}

async function explainAll(seed: postgres.Sql, database: DatabaseHandle, userId: number, world: World, heading: string) {
  console.log(`\n=== EXPLAIN (ANALYZE, BUFFERS), ${heading} ===`);
  for (const [label, statements] of await statementsOf(database, userId, world)) {
    for (const [i, statement] of statements.entries()) {
      await printExplain(seed, `${label}${statements.length > 1 ? ` [${i + 1}/${statements.length}]` : ""}`, statement);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------

interface Figures {
  /** One client alone: the service time of a request, without queueing. */
  alone: Summary;
  loaded: Summary;
}

interface Phase {
  students: number;
  seed: SeedTimes;
  results: Map<string, Figures>;
  answers: string;
  load: string;
}

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");

async function measure(base: URL, token: string, endpoints: Array<[string, string]>): Promise<Map<string, Figures>> {
  const results = new Map<string, Figures>();
  for (const [label, url] of endpoints) {
    const target = { base, path: url, headers: bearer(token) };
    await closedLoop(target, WARMUP_MS, CONCURRENCY);
    const alone = await closedLoop(target, SERIAL_MS, 1);
    // How long the server's event loop was kept from running (its own work, GC, or the OS handing its core to others).
    const loopWatch = watchEventLoopDelay();
    const loaded = await closedLoop(target, MEASURE_MS, CONCURRENCY);
    const loop = loopWatch.read();
    console.log(
      `  ${label}: 1 client p50 ${ms(alone.p50)} ms; ${CONCURRENCY} clients ${loaded.count} requests, ` +
        `p50 ${ms(loaded.p50)} ms, p99 ${ms(loaded.p99)} ms, max ${ms(loaded.max)} ms; ` +
        `event-loop delay p99 ${ms(loop.p99)} ms, max ${ms(loop.max)} ms (load average ${loadAverage()})`,
    );
    results.set(label, { alone, loaded });
  }
  return results;
}

/** A few figures of the answers, so both phases can be seen to read the same history. */
async function answers(agent: http.Agent, base: URL, token: string, urls: Record<string, string>): Promise<string> {
  const get = async (url: string) => {
    const reply = await request(agent, base, "GET", url, { authorization: `Bearer ${token}` });
    if (reply.status !== 200) throw new Error(`${url}: ${reply.status} ${reply.body}`);
    return JSON.parse(reply.body) as Record<string, unknown>;
  };
  const statistics = (await get(urls.statistics)) as {
    totalExecutions: number;
    completedExecutions: number;
    totalVolume: number;
    exerciseStatistics: unknown[];
    progressData: unknown[];
  };
  const progress = (await get(urls.progress)) as { progressData: unknown[]; personalRecord: { value: number; estimatedOneRepMax: number } | null };
  const records = (await get(urls.records)) as unknown as unknown[];
  const metrics = (await get(urls.metrics)) as {
    totalTrainings: number;
    completedTrainings: number;
    totalExercises: number;
    totalTime: number;
    weeklyProgress: { trainingsCount: number }[];
  };
  return (
    `statistics: ${statistics.totalExecutions} executions (${statistics.completedExecutions} completed), volume ${statistics.totalVolume}, ` +
    `${statistics.exerciseStatistics.length} exercises, ${statistics.progressData.length} days; ` +
    `progress: ${progress.progressData.length} weeks, record ${progress.personalRecord?.value} kg (1RM ${progress.personalRecord?.estimatedOneRepMax}); ` +
    `records: ${records.length}; metrics: ${metrics.totalTrainings}/${metrics.completedTrainings} trainings, ${metrics.totalExercises} exercises, ` +
    `${metrics.totalTime} s, last 8 weeks ${metrics.weeklyProgress.map((w) => w.trainingsCount).join(",")}`
  );
}

async function main() {
  const scratch = scratchDatabase("fitness_bench");

  const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-stats-bench-"));
  let database: DatabaseHandle | undefined;
  let seed: postgres.Sql | undefined;
  let app: App | undefined;
  let server: http.Server | undefined;
  let agent: http.Agent | undefined;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    agent?.destroy();
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    await app?.close().catch(() => undefined);
    await database?.close().catch(() => undefined);
    await seed?.end({ timeout: 5 }).catch(() => undefined);
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const interrupted = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: dropping ${scratch.name}`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);

  try {
    const version = await scratch.create();
    console.log(
      `PostgreSQL ${version}; scratch database ${scratch.name}; cores: ${availableParallelism()}; ${CONCURRENCY} concurrent clients, ${MEASURE_MS / 1000} s per endpoint after ${WARMUP_MS / 1000} s warm-up`,
    );

    database = await openDatabase({ databaseUrl: scratch.url });
    await database.migrate();
    seed = postgres(scratch.url, { max: 1, onnotice: () => undefined, connection: { work_mem: "512MB", maintenance_work_mem: "512MB" } });

    server = http.createServer();
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      DATABASE_URL: scratch.url,
      JWT_SECRET: "stats-bench-secret-0123456789-abcdefghij",
      PUBLIC_BASE_URL: base.origin,
      AUTH_RATE_LIMIT_PER_MINUTE: "1000000",
      LOG_LEVEL: "warn",
    });
    const logger = createLogger(config.logLevel);
    app = await createApp({ config, database, clock: systemClock, logger });
    server.on("request", app.express);
    agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

    // The student signs up and logs in through the API; everything else is seeded in SQL.
    const email = "bench-student-1@example.com";
    const registered = await request(
      agent,
      base,
      "POST",
      "/api/users/register",
      { "content-type": "application/json" },
      JSON.stringify({ name: "Bench Student 1", email, password: PASSWORD, userType: "ALUNO", requestLocation: "WEB", confirmed: true }),
    );
    if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.body}`);
    const login = await request(agent, base, "POST", "/api/users/login", { "content-type": "application/json" }, JSON.stringify({ email, password: PASSWORD }));
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.body}`);
    const token = (JSON.parse(login.body) as { token: string }).token;
    const [{ id: studentId }] = await seed<{ id: number }[]>`select id from users where email = ${email}`;

    const world = await seedWorld(seed);
    const urls = {
      statistics: `/api/trainings/${world.trainingId}/statistics`,
      progress: `/api/exercises/${world.exerciseIds[0]}/progress?interval=WEEK`,
      records: "/api/exercises/personal-records",
      metrics: "/api/users/metrics",
    };
    const endpoints: Array<[string, string]> = [
      ["GET /api/trainings/{id}/statistics", urls.statistics],
      ["GET /api/exercises/{id}/progress?interval=WEEK", urls.progress],
      ["GET /api/exercises/personal-records", urls.records],
      ["GET /api/users/metrics", urls.metrics],
      // Not a statistics endpoint: the floor of the stack on this machine (token check, one row read, JSON).
      [BASELINE, "/api/users/profile"],
    ];

    // Phase 1: one student's history alone in the tables.
    console.log("\n# 1 student");
    const one = await seedHistories(seed, world, [studentId]);
    console.log(
      `  seeded in ${secs(one.total)} (training executions ${secs(one.trainingExecutions)}, exercise executions ${secs(one.exerciseExecutions)}, ` +
        `sets ${secs(one.sets)}, vacuum analyze ${secs(one.vacuumAnalyze)})`,
    );
    await checkConsistency(seed, studentId);
    const phases: Phase[] = [];
    phases.push({
      students: 1,
      seed: one,
      load: loadAverage(),
      results: await measure(base, token, endpoints),
      answers: await answers(agent, base, token, urls),
    });
    console.log(`  answers: ${phases[0].answers}`);
    await explainAll(seed, database, studentId, world, "1 student");

    // Phase 2: the same generator for N students, re-seeded from scratch and interleaved in time.
    const perStudent = (one.trainingExecutions + one.exerciseExecutions + one.sets) / 1;
    const affordable = Math.max(1, Math.floor(SEED_BUDGET_MS / perStudent));
    const students = Math.min(WANTED_STUDENTS, affordable);
    if (students < WANTED_STUDENTS) {
      console.log(
        `\n(seeding ${WANTED_STUDENTS} students would take about ${secs(perStudent * WANTED_STUDENTS)}; seeding ${students} to stay within ${secs(SEED_BUDGET_MS)})`,
      );
    }
    console.log(`\n# ${students} students`);
    await seed`
      insert into users (name, email, password_hash, user_type, email_confirmed)
      select format('Bench Student %s', n), format('bench-student-%s@example.com', n), 'x', 'ALUNO', true from generate_series(2, ${students}) n`;
    const everyone = (await seed<{ id: number }[]>`select id from users where email like 'bench-student-%' order by id`).map((row) => row.id);
    await seed`truncate execution_sets, exercise_records, exercise_executions, training_executions, training_exercise_months, completed_training_weeks restart identity`;
    const many = await seedHistories(seed, world, everyone);
    const [size] = await seed<{ sets: string; executions: string; database: string }[]>`
      select pg_size_pretty(pg_total_relation_size('execution_sets')) as sets, pg_size_pretty(pg_total_relation_size('exercise_executions')) as executions,
        pg_size_pretty(pg_database_size(current_database())) as database`;
    const [counts] = await seed<{ te: number; ee: number; sets: number }[]>`
      select (select count(*)::int from training_executions) as te, (select count(*)::int from exercise_executions) as ee, (select count(*)::int from execution_sets) as sets`;
    console.log(
      `  seeded ${counts.te} training executions, ${counts.ee} exercise executions, ${counts.sets} sets in ${secs(many.total)} ` +
        `(training executions ${secs(many.trainingExecutions)}, exercise executions ${secs(many.exerciseExecutions)}, sets ${secs(many.sets)}, ` +
        `vacuum analyze ${secs(many.vacuumAnalyze)}); sizes with indexes: execution_sets ${size.sets}, exercise_executions ${size.executions}, database ${size.database}`,
    );
    await checkConsistency(seed, studentId);
    phases.push({
      students,
      seed: many,
      load: loadAverage(),
      results: await measure(base, token, endpoints),
      answers: await answers(agent, base, token, urls),
    });
    console.log(`  answers: ${phases[1].answers}`);
    if (phases[1].answers !== phases[0].answers) console.log("  ! the first student's answers differ between the phases");
    await explainAll(seed, database, studentId, world, `${students} students`);

    console.log(
      `\n=== Figures (first student: ${TRAINING_EXECUTIONS} training executions, ${TRAINING_EXECUTIONS * EXERCISES} exercise executions, ${TRAINING_EXECUTIONS * EXERCISES * SETS_PER_EXECUTION} sets; ${CONCURRENCY} clients; target p99 < ${TARGET_P99_MS} ms) ===\n`,
    );
    const header = ["endpoint", "students", "1 client p50", "req/s", "p50 ms", "p99 ms", "max ms", "target"];
    const rows: string[][] = [];
    for (const [label] of endpoints) {
      for (const phase of phases) {
        const { alone, loaded } = phase.results.get(label)!;
        const met = loaded.p99 < TARGET_P99_MS && loaded.errors === 0 ? "met" : "MISSED";
        rows.push([
          label,
          String(phase.students),
          ms(alone.p50),
          loaded.rate.toFixed(0),
          ms(loaded.p50),
          ms(loaded.p99),
          ms(loaded.max),
          label === BASELINE ? "-" : met,
        ]);
      }
    }
    printTable(header, rows);
    console.log();
    for (const phase of phases) {
      console.log(`load average (1, 5, 15 min) when measuring ${phase.students} student(s): ${phase.load}`);
    }
    for (const phase of phases) {
      console.log(
        `seeding ${phase.students} student(s): ${secs(phase.seed.total)} (training executions ${secs(phase.seed.trainingExecutions)}, ` +
          `exercise executions ${secs(phase.seed.exerciseExecutions)}, sets ${secs(phase.seed.sets)}, vacuum analyze ${secs(phase.seed.vacuumAnalyze)})`,
      );
    }
  } finally {
    await cleanup();
  }
}

runBenchmark(main);
