/**
 * Change feed load (issue 13, contract §13.3): how long GET /api/sync/changes takes for a student with a year of
 * history: an initial sync's pages, a replay of the whole year from a cursor taken before it, and the polls of a client
 * that is caught up or has one session to fetch.
 *
 * Against PostgreSQL (DATABASE_URL's server, the local test database by default; a scratch database is created and
 * dropped). The year is written through the API, as a client would: a trainer's library of 24 exercises in 4 trainings
 * of 6, a plan of 4 sessions a week assigned to the student, then 52 weeks of 4 logged sessions (6 exercises of 4 sets),
 * one exercise logged alone, a weekly weight on the profile, and every 4 weeks the trainer editing a training of the
 * plan; ~1,900 changes for the student. 300 other users with 3,000 changes each are seeded into the log beside it.
 *
 * Each request kind is measured with BENCH_CLIENTS (8) clients walking or polling in a separate process for
 * BENCH_SECONDS (5) s, and with one; then the SQL statements of each kind and the EXPLAIN (ANALYZE, BUFFERS) of the
 * feed's own statement.
 *
 *   npm run bench:sync
 *   BENCH_SECONDS=2 BENCH_CLIENTS=4 npm run bench:sync
 */
import "reflect-metadata";
import { fork } from "node:child_process";
import http from "node:http";
import { availableParallelism, loadavg } from "node:os";
import postgres from "postgres";
import { startBenchApp, type BenchApp } from "./bench-app.js";
import { inlineParameters, printExplain } from "./explain.js";
import { bearer, closedLoop, ms, percentile, printTable, request, type Reply } from "./support.js";
import type { WalkRequest, WalkResult } from "./sync/walk-client.js";

const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? 5) * 1000;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const WEEKS = 52;
const NOISE_USERS = 300;
const NOISE_CHANGES_PER_USER = 3_000;
const PASSWORD = "bench-password-1";
const DAYS = ["MONDAY", "TUESDAY", "THURSDAY", "FRIDAY"];

let base: URL;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** The JSON answers this script reads: ids, tokens, a page's cursor. */
type Answer = { id: number; userId: number; token: string; cursor: string; hasMore: boolean };

async function call(method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { ...(token ? bearer(token) : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) };
  const reply: Reply = await request(agent, base, method, path, headers, body === undefined ? undefined : JSON.stringify(body));
  if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.body.slice(0, 300)}`);
  return (reply.body ? JSON.parse(reply.body) : {}) as Answer;
}

/** POST /api/exercises is multipart: the exercise as a text part. */
async function createExercise(token: string, name: string): Promise<number> {
  const boundary = "bench-boundary";
  const part = JSON.stringify({ name, description: "Seeded for the sync benchmark", category: "PERNAS", isPublic: false });
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="exercise"\r\n\r\n${part}\r\n--${boundary}--\r\n`;
  const reply = await request(agent, base, "POST", "/api/exercises", { ...bearer(token), "content-type": `multipart/form-data; boundary=${boundary}` }, body);
  if (reply.status !== 201) throw new Error(`create exercise: ${reply.status} ${reply.body}`);
  return (JSON.parse(reply.body) as { id: number }).id;
}

async function register(name: string, userType: "ALUNO" | "PERSONAL") {
  const email = `${name.toLowerCase().replace(/\W/g, "-")}@example.com`;
  const session = await call("POST", "/api/users/register", undefined, { name, email, password: PASSWORD, userType, requestLocation: "WEB", confirmed: true });
  return { id: session.userId, token: session.token };
}

interface Year {
  studentToken: string;
  /** The student's cursor taken before the year was written. */
  before: string;
  /** A cursor with one session logged after it. */
  oneSessionAgo: string;
  /** A caught-up cursor. */
  caughtUp: string;
  studentChanges: number;
}

async function writeYear(bench: BenchApp): Promise<Year> {
  const trainer = await register("Bench Trainer", "PERSONAL");
  const student = await register("Bench Student", "ALUNO");
  const invite = await call("POST", "/api/personal/students/invite", trainer.token, { studentEmail: "bench-student@example.com" });
  await call("POST", `/api/students/invites/${invite.id}/accept`, student.token);
  const exerciseIds: number[] = [];
  for (let i = 0; i < 24; i += 1) exerciseIds.push(await createExercise(trainer.token, `Exercício ${i + 1}`));
  const trainingBody = (t: number, week: number) => ({
    name: `Treino ${"ABCD"[t]}`,
    exercises: exerciseIds.slice(t * 6, t * 6 + 6).map((exerciseId, order) => ({ exerciseId, sets: 4, repetitions: 10, weight: 20 + week, order })),
  });
  const trainings: number[] = [];
  for (let t = 0; t < 4; t += 1) trainings.push((await call("POST", "/api/trainings", trainer.token, trainingBody(t, 0))).id);
  const plan = await call("POST", "/api/training-plans", trainer.token, {
    name: "Plano anual",
    description: "Quatro sessões por semana",
    trainings: trainings.map((trainingId, order) => ({ trainingId, dayOfWeek: DAYS[order], order })),
  });
  const assignment = await call("POST", `/api/training-plans/${plan.id}/assign`, trainer.token, { studentId: student.id });
  await call("POST", `/api/training-plans/assignments/${assignment.id}/accept`, student.token);

  const before = await walkToEnd(student.token);
  const start = Date.now() - 365 * 86_400_000;
  const session = (t: number, day: number) => ({
    startTime: new Date(start + day * 86_400_000).toISOString(),
    endTime: new Date(start + day * 86_400_000 + 3_600_000).toISOString(),
    completed: true,
    exerciseExecutions: exerciseIds.slice(t * 6, t * 6 + 6).map((exerciseId) => ({
      exerciseId,
      sets: Array.from({ length: 4 }, () => ({ repetitions: 10, weight: 20 + Math.floor(day / 7), completed: true })),
    })),
  });
  for (let week = 0; week < WEEKS; week += 1) {
    // A week's four sessions go in together, as a client syncing after a few days offline would send them.
    await Promise.all(
      trainings.map((trainingId, t) => call("POST", `/api/trainings/${trainingId}/execution`, student.token, session(t, week * 7 + [0, 1, 3, 4][t]))),
    );
    await call("PUT", "/api/users/profile", student.token, { weight: 70 + (week % 5) / 2 });
    if (week % 4 === 3) await call("PUT", `/api/trainings/${trainings[((week / 4) % 4) | 0]}`, trainer.token, trainingBody(((week / 4) % 4) | 0, week));
  }
  await call("POST", `/api/exercises/${exerciseIds[0]}/execution`, student.token, {
    trainingId: trainings[0],
    sets: [{ repetitions: 5, weight: 80, completed: true }],
  });
  const oneSessionAgo = await walkToEnd(student.token, before);
  await call("POST", `/api/trainings/${trainings[0]}/execution`, student.token, session(0, 364));
  const caughtUp = await walkToEnd(student.token, oneSessionAgo);

  const seed = postgres(bench.databaseUrl!, { max: 1, onnotice: () => undefined });
  const [{ n }] = await seed<{ n: number }[]>`select count(*)::int as n from sync_changes where user_id = ${student.id}`;
  await seed.end();
  return { studentToken: student.token, before, oneSessionAgo, caughtUp, studentChanges: n };
}

/** The cursor at the end of the feed from `since`. */
async function walkToEnd(token: string, since?: string): Promise<string> {
  let cursor = since;
  for (;;) {
    const page = await call("GET", `/api/sync/changes?limit=500${cursor ? `&since=${cursor}` : ""}`, token);
    cursor = page.cursor;
    if (!page.hasMore) return cursor;
  }
}

/** Other users' changes beside the student's, so its rows are a range of a large index. */
async function seedNoise(bench: BenchApp) {
  const seed = postgres(bench.databaseUrl!, { max: 1, onnotice: () => undefined });
  await seed`
    insert into users (name, email, password_hash, user_type, email_confirmed)
    select format('Noise %s', n), format('noise-%s@example.com', n), 'x', 'ALUNO', true from generate_series(1, ${NOISE_USERS}) n`;
  await seed`
    insert into sync_changes (user_id, entity, entity_id, changed_at)
    select u.id, (array['exerciseExecution','trainingExecution','exercise','profile'])[g % 4 + 1], g, now() - (g % 89) * interval '1 day'
    from users u cross join generate_series(1, ${NOISE_CHANGES_PER_USER}) g where u.email like 'noise-%'`;
  await seed`vacuum analyze sync_changes`;
  await seed.end();
}

function walk(token: string, limit: number, since: string | undefined, concurrency: number): Promise<WalkResult> {
  const client = fork(new URL("./sync/walk-client.ts", import.meta.url), { execArgv: ["--import", "tsx"], stdio: "inherit" });
  return new Promise<WalkResult>((resolve, reject) => {
    client.once("message", (message) => resolve(message as WalkResult));
    client.once("error", reject);
    client.once("exit", (code) => reject(new Error(`walk client exited with ${code}`)));
    client.send({ base: base.toString(), token, limit, since, durationMs: MEASURE_MS, concurrency } satisfies WalkRequest);
  });
}

/** The statements one request sends, and the text and parameters of the feed's own (the one reading sync_changes). */
async function statementsOf(bench: BenchApp, path: string, token: string) {
  const seen: { text: string; params: unknown[] }[] = [];
  const stop = bench.database.observeQueries((text, params) => seen.push({ text, params }));
  try {
    await call("GET", path, token);
  } finally {
    stop();
  }
  return { count: seen.length, feed: seen.find((statement) => /from "sync_changes"/.test(statement.text) && /lateral/.test(statement.text)) };
}

async function main() {
  process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/test";
  const started = Date.now();
  const bench = await startBenchApp({ FREE_TRAINER_MAX_STUDENTS: "10" });
  base = bench.base;
  try {
    console.log(`bench:sync on ${bench.databaseKind}, ${availableParallelism()} cores, load ${loadavg()[0].toFixed(2)}`);
    await seedNoise(bench);
    const seedStart = Date.now();
    const year = await writeYear(bench);
    console.log(
      `a year written through the API in ${((Date.now() - seedStart) / 1000).toFixed(1)} s: ${year.studentChanges} changes for the student, ` +
        `${NOISE_USERS * NOISE_CHANGES_PER_USER} for ${NOISE_USERS} others`,
    );

    const rows: string[][] = [];
    const walks: [string, number, string | undefined][] = [
      ["initial sync, limit 100", 100, undefined],
      ["initial sync, limit 500", 500, undefined],
      ["the year from a cursor before it, limit 100", 100, year.before],
      ["the year from a cursor before it, limit 500", 500, year.before],
    ];
    for (const [label, limit, since] of walks) {
      for (const clients of [1, CLIENTS]) {
        const result = await walk(year.studentToken, limit, since, clients);
        if (result.errors > 0) console.log(`  ! ${result.errors} failed pages, first: ${result.firstError}`);
        const pages = [...result.latencies].sort((a, b) => a - b);
        const wholes = [...result.walks].sort((a, b) => a - b);
        rows.push([
          label,
          String(clients),
          (pages.length / (MEASURE_MS / 1000)).toFixed(0),
          ms(percentile(pages, 50)),
          ms(percentile(pages, 99)),
          `${result.pagesPerWalk} / ${result.changesPerWalk}`,
          ms(percentile(wholes, 50)),
        ]);
      }
    }
    const polls: [string, string][] = [
      ["poll, caught up", year.caughtUp],
      ["poll, one session to fetch (7 changes)", year.oneSessionAgo],
    ];
    for (const [label, since] of polls) {
      for (const clients of [1, CLIENTS]) {
        const summary = await closedLoop({ base, path: `/api/sync/changes?since=${since}`, headers: bearer(year.studentToken) }, MEASURE_MS, clients);
        rows.push([label, String(clients), summary.rate.toFixed(0), ms(summary.p50), ms(summary.p99), "1", "-"]);
      }
    }
    console.log();
    printTable(["GET /api/sync/changes", "clients", "pages/s", "p50 ms", "p99 ms", "pages / changes a walk", "walk p50 ms"], rows);

    console.log("\nSQL statements per request:");
    const kinds: [string, string][] = [
      ["initial sync, first page of 500", "/api/sync/changes?limit=500"],
      ["the year from before it, first page of 500", `/api/sync/changes?limit=500&since=${year.before}`],
      ["poll, caught up", `/api/sync/changes?since=${year.caughtUp}`],
      ["poll, one session to fetch", `/api/sync/changes?since=${year.oneSessionAgo}`],
    ];
    const explained: [string, { text: string; params: unknown[] }][] = [];
    for (const [label, path] of kinds) {
      const { count, feed } = await statementsOf(bench, path, year.studentToken);
      console.log(`  ${label}: ${count}`);
      if (feed && label !== "initial sync, first page of 500") explained.push([label, feed]);
    }
    const explain = postgres(bench.databaseUrl!, { max: 1, onnotice: () => undefined });
    for (const [label, statement] of explained) await printExplain(explain, label, inlineParameters(statement.text, statement.params));
    await explain.end();
    console.log(`\nbench:sync done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    agent.destroy();
    await bench.close();
  }
}

await main();
