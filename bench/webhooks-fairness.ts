/**
 * Whether one user's hanging receivers starve everyone's webhooks (contract §14.1): two instances of the service on
 * one PostgreSQL database, both running the delivery job; a student with 20 endpoints on a receiver that never answers
 * logs an exercise once a second, while another user (the trainer) asks a test ping of its own endpoint, on a receiver
 * that answers at once, once a second. Shows that other user's delivery latency (the ping's 202 to its arrival) per
 * 10 s of the run, and how many of its pings had not arrived when the run ended (and how long the oldest of them had
 * waited by then). BENCH_HANGING_ENDPOINTS=0 gives the same figures without the student's endpoints.
 *
 * Boots the real app twice in this process on a scratch PostgreSQL database created and dropped next to DATABASE_URL's
 * (default postgres://postgres@127.0.0.1:5432/test); both receivers are on loopback. Bounded: BENCH_SECONDS (60) of
 * load, then at most 5 s for the last pings.
 *
 *   npm run bench:webhooks-fairness
 *   BENCH_SECONDS=30 BENCH_HANGING_ENDPOINTS=0 npm run bench:webhooks-fairness
 */
import "reflect-metadata";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createApp } from "../src/app.js";
import { systemClock } from "../src/platform/clock.js";
import { loadConfig } from "../src/platform/config.js";
import { openDatabase } from "../src/platform/db/database.js";
import { createLogger } from "../src/platform/logger.js";
import { BENCH_JWT_SECRET, startBenchApp } from "./bench-app.js";
import { loggingWorld } from "./logging-world.js";
import { ms, percentile, printTable, secs, runBenchmark } from "./support.js";

process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/test";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const HANGING_ENDPOINTS = Number(process.env.BENCH_HANGING_ENDPOINTS ?? 20);
const WINDOW_SECONDS = 10;
const LAST_PINGS_WAIT_MS = 5_000;

async function main() {
  const bench = await startBenchApp();
  const secondDatabase = await openDatabase({ databaseUrl: bench.databaseUrl! });
  const logger = createLogger("warn");
  const second = await createApp({
    config: loadConfig({ NODE_ENV: "test", DATA_DIR: "/tmp", JWT_SECRET: BENCH_JWT_SECRET, LOG_LEVEL: "warn", DATABASE_URL: bench.databaseUrl! }),
    database: secondDatabase,
    clock: systemClock,
    logger,
  });
  // Never answers: each attempt is held open until the service gives up on it.
  const hanging = http.createServer((req) => req.resume());
  const arrivals = new Map<string, number>();
  const quick = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      arrivals.set(String(req.headers["webhook-id"]), performance.now());
      res.writeHead(204).end();
    });
  });
  for (const server of [hanging, quick]) await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const urlOf = (server: http.Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const agent = new http.Agent({ keepAlive: true });

  try {
    const { call, trainer, students, write } = await loggingWorld(bench.base, agent, 1);
    const [student] = students;
    for (let i = 0; i < HANGING_ENDPOINTS; i++) {
      const events = ["exercise_execution.created", "personal_record.achieved", "training_execution.created"];
      await call("POST", "/api/webhook-endpoints", student.token, { url: urlOf(hanging), events }, 201);
    }
    const trainerEndpoint = await call("POST", "/api/webhook-endpoints", trainer.token, { url: urlOf(quick), events: ["invite.updated"] }, 201);
    await bench.app.jobs.start();
    await second.jobs.start();
    console.log(
      `${bench.databaseKind}; two instances; a student with ${HANGING_ENDPOINTS} endpoints on a receiver that never answers logs once a second, another user asks a ping once a second; ${SECONDS} s`,
    );

    const pings: { sentAt: number; eventId: string }[] = [];
    const started = performance.now();
    for (let i = 0; i < SECONDS; i++) {
      const tick = started + i * 1000;
      await call(write.method, write.path, student.token, JSON.parse(write.body), write.okStatus);
      await call("POST", `/api/webhook-endpoints/${trainerEndpoint.id}/test`, trainer.token, undefined, 202);
      const sentAt = performance.now();
      // The ping's event id, from its delivery (the newest of the trainer's endpoint).
      const listed = (await call(
        "GET",
        `/api/webhook-endpoints/${trainerEndpoint.id}/deliveries?size=1&sort=id,desc`,
        trainer.token,
        undefined,
        200,
      )) as unknown as {
        content: { eventId: string }[];
      };
      pings.push({ sentAt, eventId: listed.content[0].eventId });
      await sleep(Math.max(0, tick + 1000 - performance.now()));
    }
    await sleep(LAST_PINGS_WAIT_MS);
    const ended = performance.now();

    const rows: string[][] = [];
    for (let from = 0; from < SECONDS; from += WINDOW_SECONDS) {
      const inWindow = pings.filter((ping) => ping.sentAt - started >= from * 1000 && ping.sentAt - started < (from + WINDOW_SECONDS) * 1000);
      const latencies = inWindow
        .filter((ping) => arrivals.has(ping.eventId))
        .map((ping) => arrivals.get(ping.eventId)! - ping.sentAt)
        .sort((a, b) => a - b);
      const waiting = inWindow.filter((ping) => !arrivals.has(ping.eventId));
      rows.push([
        `${from}-${from + WINDOW_SECONDS} s`,
        String(inWindow.length),
        ms(percentile(latencies, 50)),
        ms(latencies.at(-1) ?? Number.NaN),
        waiting.length === 0 ? "0" : `${waiting.length} (waited ${secs(ended - waiting[0].sentAt)})`,
      ]);
    }
    console.log();
    console.log("the other user's ping: its 202 to its arrival at its receiver");
    printTable(["sent during", "pings", "p50 ms", "max ms", `not arrived at the end (+${LAST_PINGS_WAIT_MS / 1000} s)`], rows);
  } finally {
    agent.destroy();
    for (const server of [hanging, quick]) {
      server.closeAllConnections();
      server.close();
    }
    await second.close();
    await secondDatabase.close();
    await bench.close();
  }
}

runBenchmark(main);
