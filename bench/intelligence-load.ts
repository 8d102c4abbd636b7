/**
 * Training-intelligence load (issue 12): are a trainer's adherence page, dashboard (REST and GraphQL) and a student's
 * records fast when the trainer has 100 ACTIVE students with a year of history each, and does the dashboard's
 * statement count stay the same whatever the number of students?
 *
 * Against PostgreSQL only (DATABASE_URL's server, the local test database by default; a scratch database is created
 * and dropped). The trainer signs up and logs in through the API; everything else is seeded with set-based SQL:
 * 100 students, a 40-exercise library, 4 trainings of 20 exercises, a plan of 4 sessions a week (Mon, Tue, Thu, Fri)
 * assigned ACTIVE to every student a year ago, ~200 completed sessions per student over the last 365 days (2–6% of
 * the scheduled ones skipped), 20 exercise executions of 5 sets each per session (~20,000 sets per student, ~2M in all),
 * the derived statistics and the records computed from those sets by the backfill migrations' own statements.
 *
 * Counts the statements of each request with 5 ACTIVE students linked and with 100, right after a change of the
 * trainer's (what the trainer's readings depend on is read again) and again with nothing changed, on an app booted in
 * this process (which sees every statement it sends), then measures each request against the service as `npm start` runs it (the
 * built dist/, NODE_ENV=production, its own process, on one core when the machine has two, the load generator on the
 * other) with one client (its service time alone) and with 8 closed-loop clients, and prints the EXPLAIN (ANALYZE,
 * BUFFERS) of every distinct statement the requests run.
 *
 *   npm run bench:intelligence
 *   BENCH_STUDENTS=20 BENCH_SECONDS=5 npm run bench:intelligence   # smaller / shorter run
 */
import "reflect-metadata";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { answers200, pinning, pinThisProcessToClientCore, startServer, type ServerProcess } from "./api/servers.js";
import { BENCH_JWT_SECRET, startBenchApp, type BenchApp } from "./bench-app.js";
import { inlineParameters, printExplain } from "./explain.js";
import { checkConsistency, historyStart, seedExerciseHistories, SETS_PER_EXECUTION, timed } from "./logged-history.js";
import {
  bearer,
  closedLoop,
  databaseCpuMs,
  databaseCpuMsBetween,
  ms,
  printTable,
  request,
  secs,
  type DatabaseCpu,
  type LoadTarget,
  type Reply,
  type Summary,
  runBenchmark,
} from "./support.js";

const CONCURRENCY = 8;
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
const WARMUP_MS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2) * 1000;
/** Each endpoint is also measured with a single client for this long: its service time without queueing. */
const SERIAL_MS = Number(process.env.BENCH_SERIAL_SECONDS ?? 3) * 1000;
const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 100);
/** The statement counts are taken with this many ACTIVE students first, then with all of them. */
const FEW_STUDENTS = 5;
const EXERCISES = 40;
const TRAININGS = 4;
const EXERCISES_PER_TRAINING = 20;
const HISTORY_DAYS = 365;
const PASSWORD = "bench-password-1";
const TARGETS_MS = { reads: 50, records: 20 };
/**
 * The trainer's reads are measured again with a change of the trainer's this often. A hundred students logging 4
 * sessions a week make one change every 25 minutes on average: one a second is far more than a trainer's day brings.
 */
const CHANGE_EVERY_MS = Number(process.env.BENCH_CHANGE_EVERY_MS ?? 1000);

const DASHBOARD_QUERY = `{ trainerDashboard {
  adherence30d
  assignments { active pending }
  needsAttention { reasons studentId studentName }
  recentRecords { achievedAt exerciseId exerciseName kind studentId studentName unit value }
  sessionsThisWeek { completed scheduled }
  students { active limit pendingInvites }
  subscription { endDate planName status }
} }`;

interface World {
  trainerId: number;
  studentIds: number[];
  exerciseIds: number[];
  planId: number;
}

/** Students, exercises, 4 trainings of 20 exercises each, and a plan with one of them on Mon, Tue, Thu and Fri. */
async function seedWorld(seed: postgres.Sql, trainerId: number): Promise<World> {
  const students = await seed<{ id: number }[]>`
    insert into users (name, email, password_hash, user_type, email_confirmed)
    select format('Bench Student %s', lpad(n::text, 3, '0')), format('bench-student-%s@example.com', n), 'x', 'ALUNO', true
    from generate_series(1, ${STUDENTS}) n order by n returning id`;
  const exercises = await seed<{ id: number }[]>`
    insert into exercises (name, description, category, created_by, is_public, equipment)
    select format('Exercise %s', lpad(k::text, 2, '0')), 'Seeded for the intelligence benchmark',
      (array['PEITO','COSTAS','OMBRO','BICEPS','TRICEPS','PERNAS','ABDOMEN','GLUTEOS'])[k % 8 + 1], ${trainerId}, true, 'BARRA'
    from generate_series(0, ${EXERCISES - 1}) k order by k returning id`;
  const trainings = await seed<{ id: number }[]>`
    insert into trainings (name, description, created_by, is_public)
    select format('Bench training %s', t), 'Twenty exercises of the library', ${trainerId}, true
    from generate_series(1, ${TRAININGS}) t order by t returning id`;
  const exerciseIds = exercises.map((row) => row.id).sort((a, b) => a - b);
  const trainingIds = trainings.map((row) => row.id).sort((a, b) => a - b);
  // Training t has the library's exercises 10t … 10t + 19 (wrapping), so consecutive trainings share half of theirs.
  await seed`
    insert into training_exercises (training_id, exercise_id, position, sets, repetitions, weight_kg, rest_seconds, "order")
    select t.id, (${exerciseIds}::int[])[((t.n - 1) * 10 + k) % ${EXERCISES} + 1], k, ${SETS_PER_EXECUTION}, 10, null, 90, k
    from unnest(${trainingIds}::int[]) with ordinality as t(id, n)
    cross join generate_series(0, ${EXERCISES_PER_TRAINING - 1}) k`;
  const [plan] = await seed<{ id: number }[]>`
    insert into training_plans (name, description, created_by, is_public) values ('Bench plan', 'Four sessions a week', ${trainerId}, false) returning id`;
  await seed`
    insert into plan_trainings (plan_id, training_id, day_of_week, "order", position)
    select ${plan.id}, t.id, (array['MONDAY','TUESDAY','THURSDAY','FRIDAY'])[t.n], 0, t.n - 1
    from unnest(${trainingIds}::int[]) with ordinality as t(id, n)`;
  return { trainerId, studentIds: students.map((row) => row.id).sort((a, b) => a - b), exerciseIds, planId: plan.id };
}

interface SeedTimes {
  trainingExecutions: number;
  exerciseExecutions: number;
  sets: number;
  vacuumAnalyze: number;
}

/**
 * Every student's year: the plan's session of each Mon, Tue, Thu and Fri of the last 365 days, completed, a few
 * skipped (2–6% depending on the student); then their exercise executions and sets, and the records of all that.
 */
async function seedHistories(seed: postgres.Sql, world: World): Promise<SeedTimes> {
  const [, trainingExecutions] = await timed(
    () =>
      seed`
      insert into training_executions (user_id, training_id, training_name, start_time, end_time, duration_seconds, completed, notes, created_at)
      select s.id, t.id, t.name, x.start_time, x.start_time + x.duration, extract(epoch from x.duration)::int, true, null, x.start_time + x.duration
      from unnest(${world.studentIds}::int[]) with ordinality as s(id, n)
      cross join generate_series(0, ${HISTORY_DAYS - 1}) g
      cross join lateral (select current_date - ${HISTORY_DAYS - 1}::int + g as day) d
      join plan_trainings pt on pt.plan_id = ${world.planId}
        and pt.day_of_week = (array['MONDAY','TUESDAY','WEDNESDAY','THURSDAY','FRIDAY','SATURDAY','SUNDAY'])[extract(isodow from d.day)::int]
      join trainings t on t.id = pt.training_id
      cross join lateral (select d.day::timestamp at time zone 'UTC' + interval '6 hours' + (s.n * 7 % 720) * interval '1 minute' as start_time,
        (45 + s.n % 30) * interval '1 minute' as duration) x
      where abs(hashint8(s.id::bigint * 100000 + g)) % 100 >= 2 + s.n % 5 and x.start_time + x.duration < now()
      order by x.start_time, s.id`,
  );
  const history = await seedExerciseHistories(seed, world.studentIds, historyStart());
  return { trainingExecutions, ...history };
}

/** Links `studentIds` ACTIVE to the trainer (an hour apart) and assigns them the plan, ACTIVE since a year ago. */
async function link(seed: postgres.Sql, world: World, studentIds: number[]) {
  await seed`
    insert into personal_student_links (personal_id, student_id, status, created_at, updated_at)
    select ${world.trainerId}, s.id, 'ACTIVE', now() - interval '400 days' - s.n * interval '1 hour', now() - interval '400 days'
    from unnest(${studentIds}::int[]) with ordinality as s(id, n)`;
  await seed`
    insert into plan_assignments (plan_id, student_id, personal_id, status, assigned_at, start_date, end_date, notes)
    select ${world.planId}, s.id, ${world.trainerId}, 'ACTIVE', now() - ${HISTORY_DAYS}::int * interval '1 day', current_date - ${HISTORY_DAYS}::int, null, null
    from unnest(${studentIds}::int[]) s(id)`;
  await seed`analyze personal_student_links, plan_assignments`;
}

// ---------------------------------------------------------------------------------------------------------------

interface Endpoint {
  label: string;
  target: LoadTarget;
  targetMs: number;
  /** Reads the trainer's students' figures, which the service reuses until something under them changes. */
  readsTrainersFigures?: boolean;
}

/** Runs `measure` while `change` is made every `everyMs` (one at a time), and answers what `measure` answers. */
async function whileChangingEvery<T>(everyMs: number, change: () => Promise<void>, measure: () => Promise<T>): Promise<T> {
  let changing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => (changing = changing.then(change)), everyMs);
  try {
    return await measure();
  } finally {
    clearInterval(timer);
    await changing;
  }
}

interface Observed {
  reply: Reply;
  statements: Array<{ text: string; params: unknown[] }>;
}

/** One request alone, with every statement the app sent for it (the app runs in this process). */
async function observe(bench: BenchApp, agent: http.Agent, { target }: Endpoint): Promise<Observed> {
  const statements: Observed["statements"] = [];
  const stop = bench.database.observeQueries((text, params) => statements.push({ text, params }));
  try {
    const reply = await request(agent, target.base, target.method ?? "GET", target.path, target.headers, target.body);
    if (reply.status !== 200 || (target.failOn && reply.body.includes(target.failOn)))
      throw new Error(`${target.path}: ${reply.status} ${reply.body.slice(0, 300)}`);
    return { reply, statements };
  } finally {
    stop();
  }
}

/** CPU time used so far, in ms: by the service's process and by the database. */
async function cpuTime(service: ServerProcess, seed: postgres.Sql): Promise<{ app: number; database: DatabaseCpu | null }> {
  return { app: service.cpuMs(), database: await databaseCpuMs(seed) };
}

/** CPU ms per request between two readings, "-" where unknown. */
const perRequest = (before: number | null, after: number | null, requests: number) =>
  before === null || after === null || requests === 0 ? "-" : ((after - before) / requests).toFixed(2);

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");

/** Plan node types and what they read, in the plan's order: `Index Only Scan on training_executions (its_index)`. */
function planNodes(plan: string[]): string {
  return plan
    .map((line) => /^(?:->\s+)?(.+?)\s+\(cost=/.exec(line.trim())?.[1])
    .filter((node): node is string => node !== undefined)
    .map((node) => {
      const [, type, index, relation] = /^(.*?)(?: using (\S+))?(?: on (\S+)(?: \S+)?)?$/.exec(node)!;
      return `${type}${relation ? ` on ${relation}` : ""}${index ? ` (${index})` : ""}`;
    })
    .join(", ");
}

async function main() {
  process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/test";
  pinThisProcessToClientCore();
  const bench = await startBenchApp();
  const serviceDir = mkdtempSync(path.join(tmpdir(), "fitness-intelligence-bench-"));
  let service: ServerProcess | undefined;
  const seed = postgres(bench.databaseUrl!, { max: 1, onnotice: () => undefined, connection: { work_mem: "512MB", maintenance_work_mem: "512MB" } });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    agent.destroy();
    await service?.stop();
    rmSync(serviceDir, { recursive: true, force: true });
    await seed.end({ timeout: 5 }).catch(() => undefined);
    await bench.close();
  };
  const interrupted = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: dropping the scratch database`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);

  try {
    const [{ version }] = await seed<{ version: string }[]>`select current_setting('server_version') as version`;
    console.log(
      `PostgreSQL ${version}; ${bench.databaseKind}; cores: ${cpus().length}${pinning ? ` (the service on core ${pinning.server}, this process and the load generator on core ${pinning.client})` : ""}; load average ${loadAverage()}; ` +
        `${CONCURRENCY} concurrent clients, ${MEASURE_MS / 1000} s per endpoint after ${WARMUP_MS / 1000} s warm-up`,
    );
    const json = { "content-type": "application/json" };
    const email = "bench-trainer@example.com";
    const registered = await request(
      agent,
      bench.base,
      "POST",
      "/api/users/register",
      json,
      JSON.stringify({ name: "Bench Trainer", email, password: PASSWORD, userType: "PERSONAL", requestLocation: "WEB", confirmed: true }),
    );
    if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.body}`);
    const login = await request(agent, bench.base, "POST", "/api/users/login", json, JSON.stringify({ email, password: PASSWORD }));
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.body}`);
    const token = (JSON.parse(login.body) as { token: string }).token;
    const [{ id: trainerId }] = await seed<{ id: number }[]>`select id from users where email = ${email}`;

    console.log(`\n# seeding ${STUDENTS} students' year`);
    const world = await seedWorld(seed, trainerId);
    const [seedTimes, seedTotal] = await timed(() => seedHistories(seed, world));
    const [counts] = await seed<{ te: number; ee: number; sets: number; records: number; size: string }[]>`
      select (select count(*)::int from training_executions) as te, (select count(*)::int from exercise_executions) as ee,
        (select count(*)::int from execution_sets) as sets, (select count(*)::int from exercise_records) as records,
        pg_size_pretty(pg_database_size(current_database())) as size`;
    const seeded =
      `${counts.te} training executions, ${counts.ee} exercise executions, ${counts.sets} sets, ${counts.records} record events in ${secs(seedTotal)} ` +
      `(training executions ${secs(seedTimes.trainingExecutions)}, exercise executions ${secs(seedTimes.exerciseExecutions)}, sets ${secs(seedTimes.sets)}, ` +
      `vacuum analyze ${secs(seedTimes.vacuumAnalyze)}); database ${counts.size}`;
    console.log(`  seeded ${seeded}`);
    const firstStudent = world.studentIds[0];
    await checkConsistency(seed, firstStudent);

    const headers = bearer(token);
    const endpoints: Endpoint[] = [
      {
        label: "GET /api/personal/students/adherence?window=90&size=100",
        target: { base: bench.base, path: "/api/personal/students/adherence?window=90&size=100", headers },
        targetMs: TARGETS_MS.reads,
        readsTrainersFigures: true,
      },
      {
        label: "GET /api/personal/dashboard",
        target: { base: bench.base, path: "/api/personal/dashboard", headers },
        targetMs: TARGETS_MS.reads,
        readsTrainersFigures: true,
      },
      {
        label: "POST /graphql trainerDashboard (every field)",
        target: {
          base: bench.base,
          method: "POST",
          path: "/graphql",
          headers: { ...headers, ...json },
          body: JSON.stringify({ query: DASHBOARD_QUERY }),
          failOn: '"errors"',
        },
        targetMs: TARGETS_MS.reads,
        readsTrainersFigures: true,
      },
      {
        label: "GET /api/exercises/{id}/records?userId=<student>",
        target: { base: bench.base, path: `/api/exercises/${world.exerciseIds[0]}/records?userId=${firstStudent}`, headers },
        targetMs: TARGETS_MS.records,
      },
    ];

    // Statement counts with a few students, then with all of them: each request once, then right after a change of the
    // trainer's (its name: what a trainer's readings depend on is read again, adherence.cache.ts), then again with
    // nothing changed.
    const statementCounts = new Map<string, { changed: number[]; again: number[] }>();
    let renames = 0;
    const changeTheTrainer = async () => {
      const renamed = await request(
        agent,
        bench.base,
        "PUT",
        "/api/users/profile",
        { ...bearer(token), ...json },
        JSON.stringify({ name: `Bench Trainer ${++renames}` }),
      );
      if (renamed.status !== 200) throw new Error(`profile update failed: ${renamed.status} ${renamed.body}`);
    };
    const phases = [world.studentIds.slice(0, FEW_STUDENTS), world.studentIds.slice(FEW_STUDENTS)];
    const observed = new Map<string, Observed>();
    for (const studentIds of phases) {
      await link(seed, world, studentIds);
      const [{ active }] = await seed<{ active: number }[]>`
        select count(*)::int as active from personal_student_links where personal_id = ${trainerId} and status = 'ACTIVE'`;
      console.log(`\n# ${active} ACTIVE students`);
      for (const endpoint of endpoints) {
        await observe(bench, agent, endpoint);
        await changeTheTrainer();
        const seen = await observe(bench, agent, endpoint);
        const again = await observe(bench, agent, endpoint);
        const counts = statementCounts.get(endpoint.label) ?? { changed: [], again: [] };
        counts.changed.push(seen.statements.length);
        counts.again.push(again.statements.length);
        statementCounts.set(endpoint.label, counts);
        observed.set(endpoint.label, seen);
        console.log(
          `  ${endpoint.label}: ${seen.statements.length} statements after a change, ${again.statements.length} again, ${seen.reply.body.length} bytes`,
        );
      }
    }
    const adherencePage = JSON.parse(observed.get(endpoints[0].label)!.reply.body) as { content: unknown[]; totalElements: number };
    console.log(`  adherence page: ${adherencePage.content.length} of ${adherencePage.totalElements} students`);
    console.log(`  dashboard: ${observed.get(endpoints[1].label)!.reply.body.slice(0, 600)}`);

    console.log(`\n# load, ${STUDENTS} ACTIVE students, against the service in its own process`);
    service = await startServer(
      "service",
      { databaseUrl: bench.databaseUrl!, jwtSecret: BENCH_JWT_SECRET, dataDir: serviceDir },
      answers200("GET", "/healthz", {}),
    );
    const results = new Map<string, { alone: Summary; summary: Summary; appCpu: string; databaseCpu: string; whileChanging?: Summary }>();
    const loads = new Map<string, string>();
    for (const { label, target: observedTarget, readsTrainersFigures } of endpoints) {
      const target = { ...observedTarget, base: service.base };
      await closedLoop(target, WARMUP_MS, CONCURRENCY);
      const alone = await closedLoop(target, SERIAL_MS, 1);
      const cpuBefore = await cpuTime(service, seed);
      const summary = await closedLoop(target, MEASURE_MS, CONCURRENCY);
      const cpuAfter = await cpuTime(service, seed);
      // The trainer's readings are reused until something under them changes: measured again while the trainer's name
      // changes every CHANGE_EVERY_MS, each change making the next reading read every student's year again.
      const whileChanging = readsTrainersFigures
        ? await whileChangingEvery(CHANGE_EVERY_MS, changeTheTrainer, () => closedLoop(target, MEASURE_MS, CONCURRENCY))
        : undefined;
      results.set(label, {
        alone,
        summary,
        appCpu: perRequest(cpuBefore.app, cpuAfter.app, summary.count),
        databaseCpu: perRequest(0, databaseCpuMsBetween(cpuBefore.database, cpuAfter.database), summary.count),
        whileChanging,
      });
      loads.set(label, loadAverage());
      console.log(
        `  ${label}: 1 client p50 ${ms(alone.p50)} ms; ${CONCURRENCY} clients ${summary.count} requests, p50 ${ms(summary.p50)} ms, p99 ${ms(summary.p99)} ms, max ${ms(summary.max)} ms` +
          `${whileChanging ? `; with a change every ${CHANGE_EVERY_MS / 1000} s p50 ${ms(whileChanging.p50)} ms, p99 ${ms(whileChanging.p99)} ms` : ""} (load average ${loadAverage()})`,
      );
    }

    // Every distinct statement of the four requests, explained with the parameters it was sent with.
    console.log(`\n=== EXPLAIN (ANALYZE, BUFFERS), ${STUDENTS} ACTIVE students ===`);
    const explained = new Map<string, { labels: string[]; time: string; nodes: string }>();
    for (const { label } of endpoints) {
      for (const { text, params } of observed.get(label)!.statements) {
        const known = explained.get(text);
        if (known) {
          known.labels.push(label);
          continue;
        }
        const plan = await printExplain(seed, `${label}, statement ${explained.size + 1}`, inlineParameters(text, params));
        const time = plan.find((line) => line.startsWith("Execution Time"))?.replace("Execution Time: ", "") ?? "-";
        explained.set(text, { labels: [label], time, nodes: planNodes(plan) });
      }
    }

    console.log(`\n=== Figures (${STUDENTS} ACTIVE students, ${CONCURRENCY} clients) ===\n`);
    printTable(
      [
        "endpoint",
        "1 client p50",
        "req/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "target",
        `statements (${FEW_STUDENTS} / ${STUDENTS} students): after a change; again`,
        "service CPU ms/req",
        "PostgreSQL CPU ms/req",
        `with a change every ${CHANGE_EVERY_MS / 1000} s: req/s, p50 / p99 ms`,
      ],
      endpoints.map(({ label, targetMs }) => {
        const { alone, summary, appCpu, databaseCpu, whileChanging } = results.get(label)!;
        const met = summary.p99 < targetMs && summary.errors === 0 ? `met (< ${targetMs})` : `MISSED (< ${targetMs})`;
        return [
          label,
          ms(alone.p50),
          summary.rate.toFixed(0),
          ms(summary.p50),
          ms(summary.p99),
          ms(summary.max),
          met,
          `${statementCounts.get(label)!.changed.join(" / ")}; ${statementCounts.get(label)!.again.join(" / ")}`,
          appCpu,
          databaseCpu,
          whileChanging ? `${whileChanging.rate.toFixed(0)}, ${ms(whileChanging.p50)} / ${ms(whileChanging.p99)}` : "-",
        ];
      }),
    );
    console.log("\nStatements explained (execution time of one run, plan nodes):");
    [...explained.values()].forEach(({ labels, time, nodes }, i) => console.log(`  ${i + 1}. [${[...new Set(labels)].join("; ")}] ${time}: ${nodes}`));
    console.log(`\nseeded ${seeded}`);
    for (const { label } of endpoints) console.log(`load average (1, 5, 15 min) after ${label}: ${loads.get(label)}`);
  } finally {
    await cleanup();
  }
}

runBenchmark(main);
