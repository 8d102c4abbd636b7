/**
 * What outbound webhooks (contract §14.1) cost and give: POST /api/exercises/{id}/execution by 8 students at once (the
 * write that records `exercise_execution.created` and, on a new best, `personal_record.achieved` in its transaction),
 * without any endpoint and then with the trainer and every student subscribed (rounds alternate, medians shown); then
 * how many deliveries per second the worker makes to a local receiver, draining what the writes queued.
 *
 * Boots the real app in this process on a scratch PostgreSQL database it creates and drops next to DATABASE_URL's
 * (default postgres://postgres@127.0.0.1:5432/test); the load generator runs in a child process; the receiver answers
 * 200 at once on loopback.
 *
 *   npm run bench:webhooks
 *   BENCH_SECONDS=3 BENCH_ROUNDS=1 npm run bench:webhooks
 */
import "reflect-metadata";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { startBenchApp } from "./bench-app.js";
import { loggingWorld } from "./logging-world.js";
import { closedLoop, ms, printTable, type Summary, runBenchmark } from "./support.js";

process.env.DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/test";

const STUDENTS = Number(process.env.BENCH_CLIENTS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = 2;

async function main() {
  const bench = await startBenchApp({ FREE_TRAINER_MAX_STUDENTS: String(STUDENTS + 1) });
  const agent = new http.Agent({ keepAlive: true });
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  try {
    const { call, trainer, students, write } = await loggingWorld(bench.base, agent, STUDENTS);
    const subscribe = (token: string) =>
      call("POST", "/api/webhook-endpoints", token, { url: receiverUrl, events: ["exercise_execution.created", "personal_record.achieved"] }, 201);
    const endpointIds: number[] = [];
    const setSubscribed = async (on: boolean) => {
      if (on && endpointIds.length === 0) for (const user of [trainer, ...students]) endpointIds.push((await subscribe(user.token)).id);
      await bench.database.db.execute(sql`update webhook_endpoints set enabled = ${on}`);
    };

    console.log(
      `${bench.databaseKind}; cores: ${availableParallelism()}; load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(" ")}; ${STUDENTS} closed-loop clients (one student each), ${ROUNDS} rounds of ${SECONDS} s per variant after ${WARMUP_SECONDS} s warm-up`,
    );
    const variants: Array<[string, boolean]> = [
      ["no endpoint", false],
      [`${STUDENTS + 1} endpoints (trainer + each student)`, true],
    ];
    await closedLoop(write, WARMUP_SECONDS * 1000, STUDENTS);
    const results = new Map<string, Summary[]>(variants.map(([label]) => [label, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, on] of round % 2 === 0 ? variants : [...variants].reverse()) {
        await setSubscribed(on);
        results.get(label)!.push(await closedLoop(write, SECONDS * 1000, STUDENTS));
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const baseP99 = median(results.get("no endpoint")!.map((r) => r.p99));
    console.log();
    console.log(`POST /api/exercises/{id}/execution (${ROUNDS} rounds; medians of each round's figures)`);
    printTable(
      ["variant", "req/s", "p50 ms", "p99 ms", "p99 vs none", "errors"],
      variants.map(([label]) => {
        const rounds = results.get(label)!;
        const p99 = median(rounds.map((r) => r.p99));
        return [
          label,
          median(rounds.map((r) => r.rate)).toFixed(0),
          ms(median(rounds.map((r) => r.p50))),
          ms(p99),
          label === "no endpoint" ? "-" : `${p99 >= baseP99 ? "+" : ""}${ms(p99 - baseP99)}`,
          String(rounds.reduce((sum, r) => sum + r.errors, 0)),
        ];
      }),
    );

    // Every event the subscribed rounds recorded: fanned out, then delivered.
    await setSubscribed(true);
    const started = performance.now();
    const succeeded = await bench.app.services.webhookDeliveries.runOnce();
    const seconds = (performance.now() - started) / 1000;
    console.log();
    printTable(
      ["deliveries", "seconds", "deliveries/s", "received"],
      [[String(succeeded), seconds.toFixed(1), (succeeded / seconds).toFixed(0), String(received)]],
    );
  } finally {
    agent.destroy();
    receiver.closeAllConnections();
    receiver.close();
    await bench.close();
  }
}

runBenchmark(main);
