/**
 * What GraphQL subscriptions (contract §14.2) held by a user who receives none of the events cost the events: a student
 * logs 40 training sessions (POST /api/trainings/{id}/execution, each a new best: an execution and its records
 * announced), first with no subscription open, then with an unrelated free account holding 640 subscriptions (32
 * sockets of 20, half on each instance) to trainingExecutionLogged and personalRecordAchieved. Per phase, the 40
 * sessions alone: the database's commits (pg_stat_database's xact_commit once the fan-out has settled), the statements
 * the two instances sent and the wall time; then 40 more while a trainer reads its profile in a closed loop on each
 * instance: their wall time and the read's p50/p99.
 *
 * Two instances of the real app in this process, on a scratch PostgreSQL database created next to DATABASE_URL's
 * (default postgres://postgres@127.0.0.1:5432/test) and dropped at the end; bounded by BENCH_TIMEOUT_S (default 300).
 *
 *   npx tsx bench/live-fanout.ts
 */
import "reflect-metadata";
import http from "node:http";
import { createClient, type Client } from "graphql-ws";
import postgres from "postgres";
import { WebSocket } from "ws";
import { startAnotherBenchInstance, startBenchApp, type BenchApp } from "./bench-app.js";
import { loggingWorld } from "./logging-world.js";
import { bearer, ms, percentile, printTable, request, secs, runBenchmark } from "./support.js";

process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/test";

const SESSIONS = 40;
const SOCKETS = 32;
const SUBSCRIPTIONS_PER_SOCKET = 20;
const READERS = 2;
const TIMEOUT_S = Number(process.env.BENCH_TIMEOUT_S ?? 300);
/** The fan-out has settled once the instances sent no statement for this long. */
const SETTLED_AFTER_MS = 1_500;
/** An idle backend reports its commits to the statistics within 10 s (PostgreSQL's PGSTAT_IDLE_INTERVAL). */
const STATS_REPORTED_AFTER_MS = 11_000;
const FIELDS = ["subscription { trainingExecutionLogged { id } }", "subscription { personalRecordAchieved { userId value } }"];

interface Phase {
  label: string;
  commits: number;
  statements: number;
  sessionsMs: number;
  settledMs: number;
  readSessionsMs: number;
  reads: number[];
}

async function main() {
  const deadline = setTimeout(() => {
    console.error(`gave up after ${TIMEOUT_S} s`);
    process.exit(1);
  }, TIMEOUT_S * 1000);
  deadline.unref();

  const first = await startBenchApp({ FREE_TRAINER_MAX_STUDENTS: "5" });
  const second = await startAnotherBenchInstance(first, { FREE_TRAINER_MAX_STUDENTS: "5" });
  const instances = [first, second];
  const observer = postgres(first.databaseUrl!, { max: 1, onnotice: () => undefined });
  const agent = new http.Agent({ keepAlive: true });
  const clients: Client[] = [];
  try {
    const { call, trainer, students, write } = await loggingWorld(first.base, agent, 1);
    const [student] = students;
    const { trainingId } = JSON.parse(write.body) as { trainingId: number };
    const exerciseId = Number(/\/exercises\/(\d+)\//.exec(write.path)![1]);
    const outsider = await call(
      "POST",
      "/api/users/register",
      undefined,
      { name: "alheio", email: "alheio@bench.example.com", password: "bench-password-1", userType: "ALUNO", requestLocation: "WEB", confirmed: true },
      201,
    );
    console.log(`${first.databaseKind}; two instances in this process; ${SESSIONS} sessions per phase, ${READERS} profile readers`);

    let session = 0;
    const logSession = async (instance: BenchApp) => {
      session += 1;
      const start = new Date(Date.UTC(2026, 0, 1) + session * 86_400_000);
      const body = {
        startTime: start.toISOString(),
        endTime: new Date(start.getTime() + 3_600_000).toISOString(),
        completed: true,
        exerciseExecutions: [{ exerciseId, sets: [{ repetitions: 5, weight: 40 + session, completed: true }] }],
      };
      const headers = { "content-type": "application/json", ...bearer(student.token) };
      const reply = await request(agent, instance.base, "POST", `/api/trainings/${trainingId}/execution`, headers, JSON.stringify(body));
      if (reply.status !== 201) throw new Error(`session: ${reply.status} ${reply.body}`);
    };

    const phases: Phase[] = [];
    /** Runs the 40 sessions, alternating between the instances; their wall time. */
    const logSessions = async () => {
      const started = performance.now();
      for (let i = 0; i < SESSIONS; i++) await logSession(instances[i % 2]);
      return performance.now() - started;
    };
    const measure = async (label: string) => {
      let statements = 0;
      let lastStatementAt = performance.now();
      const stops = instances.map((instance) =>
        instance.database.observeQueries(() => {
          statements += 1;
          lastStatementAt = performance.now();
        }),
      );
      // What came before (the set-up, the last phase's reads) is reported by now.
      await sleep(STATS_REPORTED_AFTER_MS);
      const commitsBefore = await commitsSoFar(observer);
      const started = performance.now();
      const sessionsMs = await logSessions();
      while (performance.now() - lastStatementAt < SETTLED_AFTER_MS) await sleep(100);
      const settledMs = lastStatementAt - started;
      stops.forEach((stop) => stop());
      await sleep(STATS_REPORTED_AFTER_MS);
      const commits = (await commitsSoFar(observer)) - commitsBefore;

      const reads: number[] = [];
      let logging = true;
      const reader = async (instance: BenchApp) => {
        while (logging) {
          const sent = performance.now();
          const reply = await request(agent, instance.base, "GET", "/api/users/profile", bearer(trainer.token));
          if (reply.status !== 200) throw new Error(`profile: ${reply.status} ${reply.body}`);
          reads.push(performance.now() - sent);
        }
      };
      const readers = instances.slice(0, READERS).map(reader);
      const readSessionsMs = await logSessions();
      logging = false;
      await Promise.all(readers);
      phases.push({ label, commits, statements, sessionsMs, settledMs, readSessionsMs, reads: reads.sort((a, b) => a - b) });
    };

    await measure("no subscription");
    for (let i = 0; i < SOCKETS; i++) {
      const client = createClient({
        url: instances[i % 2].base.origin.replace(/^http/, "ws") + "/graphql",
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: { authorization: `Bearer ${outsider.token}` },
      });
      clients.push(client);
      for (let j = 0; j < SUBSCRIPTIONS_PER_SOCKET; j++) {
        client.subscribe(
          { query: FIELDS[j % FIELDS.length] },
          {
            next: () => console.error("the unrelated account received an event"),
            error: (error) => console.error("subscription refused:", error),
            complete: () => undefined,
          },
        );
      }
    }
    // Lets every subscribe reach its instance.
    await sleep(2_000);
    await measure(`${SOCKETS * SUBSCRIPTIONS_PER_SOCKET} unrelated subscriptions`);

    console.log();
    printTable(
      ["phase", "commits", "per session", "statements", "40 sessions", "fan-out settled", "40 with reads", "reads", "read p50 ms", "read p99 ms"],
      phases.map((phase) => [
        phase.label,
        String(phase.commits),
        (phase.commits / SESSIONS).toFixed(1),
        String(phase.statements),
        secs(phase.sessionsMs),
        secs(phase.settledMs),
        secs(phase.readSessionsMs),
        String(phase.reads.length),
        ms(percentile(phase.reads, 50)),
        ms(percentile(phase.reads, 99)),
      ]),
    );
  } finally {
    await Promise.all(clients.map((client) => client.dispose()));
    agent.destroy();
    await observer.end({ timeout: 5 });
    await second.close();
    await first.close();
  }
}

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

async function commitsSoFar(observer: postgres.Sql): Promise<number> {
  await observer`select pg_stat_clear_snapshot()`;
  const [{ commits }] = await observer<{ commits: string }[]>`select xact_commit as commits from pg_stat_database where datname = current_database()`;
  return Number(commits);
}

runBenchmark(main);
