/**
 * What an Idempotency-Key costs a write (contract §13.1): POST /api/exercises/{id}/execution by 8 students at once
 * (one per closed-loop client, each with its own logging lock), without a key, with a fresh key on every request (the
 * claim, and the answer kept before it is sent: two more statements), and with one key sent again and again (every
 * request a replay of the kept answer). Rounds alternate the three, so a noisy machine weighs on each alike; the
 * table shows each one's median over the rounds of p50 and p99, and the key's cost against no key.
 *
 * Boots the real app in this process on a scratch PostgreSQL database it creates and drops next to DATABASE_URL's
 * (default postgres://postgres@127.0.0.1:5432/test); the load generator runs in a child process.
 *
 *   npm run bench:idempotency
 *   BENCH_SECONDS=5 BENCH_ROUNDS=2 npm run bench:idempotency
 */
import "reflect-metadata";
import http from "node:http";
import { availableParallelism, loadavg } from "node:os";
import { startBenchApp } from "./bench-app.js";
import { loggingWorld } from "./logging-world.js";
import { closedLoop, ms, printTable, type Summary, runBenchmark } from "./support.js";

process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/test";

const STUDENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = 3;

async function main() {
  const bench = await startBenchApp({ FREE_TRAINER_MAX_STUDENTS: String(STUDENTS + 1) });
  const agent = new http.Agent({ keepAlive: true });

  try {
    const { write } = await loggingWorld(bench.base, agent, STUDENTS);
    const variants: Array<[string, Parameters<typeof closedLoop>[0]]> = [
      ["no key", write],
      ["a fresh Idempotency-Key each", { ...write, freshHeader: "idempotency-key" }],
      // The same key for every request of a student: after its first, every one is a replay.
      ["one key again (replays)", { ...write, headers: { ...write.headers, "idempotency-key": "bench-replay" } }],
    ];

    console.log(
      `${bench.databaseKind}; cores: ${availableParallelism()}; load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(" ")}; ` + `${STUDENTS} closed-loop clients (one student each), ${ROUNDS} rounds of ${SECONDS} s per variant after ${WARMUP_SECONDS} s warm-up`,
    );
    for (const [, target] of variants) await closedLoop(target, WARMUP_SECONDS * 1000, STUDENTS);
    const results = new Map<string, Summary[]>(variants.map(([label]) => [label, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, target] of round % 2 === 0 ? variants : [...variants].reverse()) {
        results.get(label)!.push(await closedLoop(target, SECONDS * 1000, STUDENTS));
      }
    }

    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const base = results.get("no key")!;
    const baseP50 = median(base.map((r) => r.p50));
    const baseP99 = median(base.map((r) => r.p99));
    console.log();
    console.log(`POST /api/exercises/{id}/execution (${ROUNDS} rounds; medians of each round's figures)`);
    printTable(
      ["variant", "req/s", "p50 ms", "p99 ms", "p50 vs no key", "p99 vs no key", "errors"],
      variants.map(([label]) => {
        const rounds = results.get(label)!;
        const p50 = median(rounds.map((r) => r.p50));
        const p99 = median(rounds.map((r) => r.p99));
        const delta = (value: number, against: number) => `${value >= against ? "+" : ""}${ms(value - against)}`;
        return [
          label,
          median(rounds.map((r) => r.rate)).toFixed(0),
          ms(p50),
          ms(p99),
          label === "no key" ? "-" : delta(p50, baseP50),
          label === "no key" ? "-" : delta(p99, baseP99),
          String(rounds.reduce((sum, r) => sum + r.errors, 0)),
        ];
      }),
    );
  } finally {
    agent.destroy();
    await bench.close();
  }
}

runBenchmark(main);
