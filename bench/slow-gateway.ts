/**
 * Slow gateway: does a checkout waiting on a slow payment gateway delay anyone else?
 *
 * Starts the real app in this process (in-memory PGlite, or with DATABASE_URL a scratch PostgreSQL database it
 * creates and drops) with a local PIX gateway (the tests' fake, speaking its HTTP API) and a local Stripe
 * stand-in, both answering charges after GATEWAY_DELAY_MS. Measures a cheap `GET /api/exercises?size=1` alone, then
 * while 1 and while 10 PIX checkouts wait on the gateway, then while 10 card checkouts do; and what each checkout
 * took. Issue 18 measured 4,859 ms (PGlite) and 4,979 ms (PostgreSQL) for that cheap read before the gateway call
 * left the transaction.
 *
 *   npm run bench:slow-gateway
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:slow-gateway
 */
import "reflect-metadata";
import http from "node:http";
import { availableParallelism } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { FakePixGateway } from "../tests/helpers/fake-pix-gateway.js";
import { startFakeStripe } from "../tests/helpers/fake-stripe.js";
import { startBenchApp } from "./bench-app.js";
import { ms, percentile, request, runBenchmark } from "./support.js";

const GATEWAY_DELAY_MS = 5_000;
const CHEAP_PROBES = 20;
const PIX_KEY = "pix_bench_key";

async function main() {
  const pix = new FakePixGateway({ apiKey: PIX_KEY, devMode: true });
  await pix.start();
  const stripe = await startFakeStripe();
  const bench = await startBenchApp({
    PIX_API_URL: pix.url,
    PIX_API_KEY: PIX_KEY,
    PIX_DEV_MODE: "true",
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_API_BASE: stripe.url,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const json = (token?: string) => ({ "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) });
  try {
    let sequence = 0;
    const student = async () => {
      sequence += 1;
      const body = {
        name: `Aluno ${sequence}`,
        email: `slow-${sequence}@example.com`,
        password: "bench-password-1",
        userType: "ALUNO",
        requestLocation: "WEB",
        confirmed: true,
      };
      const reply = await request(agent, bench.base, "POST", "/api/users/register", json(), JSON.stringify(body));
      if (reply.status !== 201) throw new Error(`register failed: ${reply.status} ${reply.body}`);
      return (JSON.parse(reply.body) as { token: string }).token;
    };
    const reader = await student();
    const plans = await request(agent, bench.base, "GET", "/api/subscription-plans?userType=ALUNO", json(reader));
    const planId = (JSON.parse(plans.body) as Array<{ id: number }>)[0].id;

    /** CHEAP_PROBES cheap reads one after another: their latencies, sorted. */
    const probe = async () => {
      const latencies: number[] = [];
      for (let i = 0; i < CHEAP_PROBES; i++) {
        const started = performance.now();
        const reply = await request(agent, bench.base, "GET", "/api/exercises?size=1", json(reader));
        if (reply.status !== 200) throw new Error(`cheap read answered ${reply.status}`);
        latencies.push(performance.now() - started);
      }
      return latencies.sort((a, b) => a - b);
    };
    /** `count` checkouts held at the gateway for GATEWAY_DELAY_MS; the cheap reads made meanwhile. */
    const whileCheckouts = async (count: number, method: "PIX" | "CREDIT_CARD") => {
      const buyers = await Promise.all(Array.from({ length: count }, () => student()));
      const hold = method === "PIX" ? pix.hold(GATEWAY_DELAY_MS) : stripe.hold(GATEWAY_DELAY_MS);
      const checkout = (token: string) => {
        const started = performance.now();
        const body =
          method === "PIX"
            ? { planId, paymentMethod: "PIX" }
            : {
                planId,
                paymentMethod: "CREDIT_CARD",
                cardNumber: "4242424242424242",
                cardHolderName: "ANA LIMA",
                cardExpirationMonth: "12",
                cardExpirationYear: "2099",
                cardCvv: "123",
              };
        const path = method === "PIX" ? "/api/payments/subscribe" : "/api/subscriptions";
        return request(agent, bench.base, "POST", path, json(token), JSON.stringify(body)).then((reply) => ({
          status: reply.status,
          ms: performance.now() - started,
        }));
      };
      const checkouts = Promise.all(buyers.map(checkout));
      await (method === "PIX" ? pix.waitForRequests("/v1/pixQrCode/create", count) : stripe.waitForRequests("POST /v1/payment_intents", count));
      const cheap = await probe();
      const heldThroughout = hold.releasedBy === null;
      const answers = await checkouts;
      const bad = answers.filter((answer) => answer.status !== 201);
      if (bad.length > 0) throw new Error(`checkouts answered ${bad.map((answer) => answer.status).join(", ")}`);
      pix.reset();
      stripe.reset();
      return { cheap, heldThroughout, checkout: answers.map((answer) => answer.ms).sort((a, b) => a - b) };
    };

    console.log(
      `database: ${bench.databaseKind}; cores: ${availableParallelism()}; gateway answers after ${GATEWAY_DELAY_MS} ms; ${CHEAP_PROBES} sequential cheap reads per phase`,
    );
    await probe(); // warm-up
    const alone = await probe();
    const rows: Array<[string, number[], boolean | null, number[]]> = [["alone", alone, null, []]];
    for (const [count, method] of [
      [1, "PIX"],
      [10, "PIX"],
      [10, "CREDIT_CARD"],
    ] as const) {
      const phase = await whileCheckouts(count, method);
      rows.push([`while ${count} ${method} checkout${count > 1 ? "s" : ""} wait`, phase.cheap, phase.heldThroughout, phase.checkout]);
      await sleep(200);
    }
    console.log();
    console.log("GET /api/exercises?size=1                 p50 ms   p99 ms   max ms   gateway still holding   checkout p50 / max ms");
    for (const [label, cheap, held, checkout] of rows) {
      const checkoutText = checkout.length ? `${ms(percentile(checkout, 50))} / ${ms(checkout[checkout.length - 1])}` : "-";
      console.log(
        `${label.padEnd(40)} ${ms(percentile(cheap, 50)).padStart(7)}  ${ms(percentile(cheap, 99)).padStart(7)}  ${ms(cheap[cheap.length - 1]).padStart(7)}   ${String(held ?? "-").padEnd(22)}  ${checkoutText}`,
      );
    }
  } finally {
    agent.destroy();
    await bench.close();
    await pix.stop();
    await stripe.stop();
  }
}

runBenchmark(main);
