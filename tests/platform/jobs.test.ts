import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createExercise, createTraining } from "../factories/content.js";
import { logExerciseExecution } from "../factories/executions.js";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";
import { billingOf, cardBody, DAY_MS, planId, subscriptionRow } from "../billing/support.js";
import { createEndpoint, deliveriesOf, Receiver } from "../webhooks/support.js";

/**
 * The job engine (pg-boss) with two instances of the service on one database. Its clock is pg-boss's TestClock, set
 * to 00:05 of a day: the ten-minute jobs below are due at 00:10, and nothing of the engine fires unless a test moves
 * that clock. The jobs' own rules keep the service's clock (`t.clock`).
 */
const DAY = Date.parse("2030-01-07T00:00:00Z");
const at = (minutes: number, seconds = 0) => DAY + minutes * 60_000 + seconds * 1000;
const TEN_MINUTES = 10 * 60_000;

/** Until `check` holds, for what another instance's worker does on its own time. */
const eventually = (check: () => void) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

async function startEngines(...apps: TestApp[]) {
  for (const app of apps) await app.app.jobs.start();
}

/** Stopping waits for the runs under way: what is counted after it is final. */
async function stopEngines(...apps: TestApp[]) {
  for (const app of apps) await app.app.jobs.stop();
}

async function register(t: TestApp, email: string) {
  const res = await t.post("/api/users/register", {
    body: { name: "Gabi Nunes", email, password: "segredo1", userType: "ALUNO", requestLocation: "APP", confirmed: false },
  });
  expect(res.status).toBe(201);
}

describe("a periodic job", () => {
  const first = useTestApp();
  const second = useSecondInstance(first);
  const runs: string[] = [];
  afterAll(() => stopEngines(second, first));

  it("runs once per period across the instances, not once per instance", async () => {
    await first.jobClock.setTime(at(5));
    first.app.jobs.every("tally", TEN_MINUTES, async () => void runs.push("first"));
    second.app.jobs.every("tally", TEN_MINUTES, async () => void runs.push("second"));
    await startEngines(first, second);
    // Both instances starting: one start-up run for the deployment.
    await eventually(() => expect(runs).toHaveLength(1));

    await first.jobClock.setTime(at(10, 5));
    await first.jobClock.tick(10_000);
    await eventually(() => expect(runs).toHaveLength(2));

    await first.jobClock.setTime(at(20, 5));
    await first.jobClock.tick(10_000);
    await eventually(() => expect(runs).toHaveLength(3));

    await stopEngines(second, first);
    expect(runs).toHaveLength(3);
  });
});

describe("a job whose run throws", () => {
  const t = useTestApp();
  const outcomes: string[] = [];
  afterAll(() => stopEngines(t));

  it("is run again after a backoff until it succeeds", async () => {
    await t.jobClock.setTime(at(5));
    t.app.jobs.every("flaky", TEN_MINUTES, async () => {
      outcomes.push(outcomes.length === 0 ? "failed" : "done");
      if (outcomes.length === 1) throw new Error("the first run fails");
    });
    await startEngines(t);
    await eventually(() => expect(outcomes).toEqual(["failed"]));

    // The first retry waits at least 30 s (with jitter); four minutes is past it and short of the next period.
    await t.jobClock.setTime(at(9));
    await t.jobClock.tick(1000);
    await eventually(() => expect(outcomes).toEqual(["failed", "done"]));
    await stopEngines(t);
    expect(outcomes).toEqual(["failed", "done"]);
    expect(t.logLines.filter((line) => line.includes("the first run fails"))).toHaveLength(1);
  });
});

describe("mail delivery on the engine", () => {
  const first = useTestApp();
  const second = useSecondInstance(first);
  afterEach(() => stopEngines(second, first));

  it("starts when the e-mail is queued, and delivers it once across the instances", async () => {
    await first.jobClock.setTime(at(5));
    await startEngines(first, second);
    await register(first, "gabi@example.com");
    await register(second, "rui@example.com");
    // No tick of the engine's clock, and nobody runs the mail worker by hand: the queued e-mail woke a worker.
    await eventually(() => expect(first.smtp.received.map((mail) => mail.to[0]).sort()).toEqual(["gabi@example.com", "rui@example.com"]));
    await stopEngines(second, first);
    expect(first.smtp.received).toHaveLength(2);
  });

  it("delivers what was queued while no engine ran once an instance starts again", async () => {
    await first.jobClock.setTime(at(7));
    await register(first, "gabi@example.com");
    expect(first.smtp.received).toHaveLength(0);

    await startEngines(second);
    await eventually(() => expect(first.smtp.received.map((mail) => mail.to[0])).toEqual(["gabi@example.com"]));

    await first.jobClock.setTime(at(8));
    await startEngines(first);
    await register(first, "rui@example.com");
    await eventually(() => expect(first.smtp.received.map((mail) => mail.to[0])).toEqual(["gabi@example.com", "rui@example.com"]));
    await stopEngines(second, first);
    expect(first.smtp.received).toHaveLength(2);
  });
});

describe("the service's jobs on the engine", () => {
  const first = useTestApp();
  const second = useSecondInstance(first);
  afterAll(() => stopEngines(second, first));

  it("renew a subscription once, and mail its renewal once, with two instances starting together", async () => {
    const ana = await makeStudent(first);
    const bought = await first.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(first)) });
    expect(bought.status).toBe(201);
    const { endDate } = await subscriptionRow(first, bought.body.id);
    // The renewal's rule reads the service's clock: three days before the end, the card is charged again.
    first.clock.set(new Date(endDate!.getTime() - 3 * DAY_MS + 60_000));

    // A day on: the hourly job's period has not had its run yet (the tests above ran in the first hour).
    await first.jobClock.setTime(at(24 * 60 + 30));
    await startEngines(first, second);
    const renewalMails = () => first.smtp.to(ana.email).filter((mail) => mail.subject === "Assinatura renovada");
    await eventually(() => expect(renewalMails()).toHaveLength(1));
    await stopEngines(second, first);

    const { payments } = await billingOf(first, ana.id);
    expect(payments.map((payment) => payment.status)).toEqual(["COMPLETED", "COMPLETED"]);
    expect(renewalMails()).toHaveLength(1);
  });
});

describe("webhook delivery", () => {
  const first = useTestApp();
  const second = useSecondInstance(first);
  afterEach(() => stopEngines(second, first));

  it("starts when an event is committed, on either instance, without waiting for its period", async () => {
    const receiver = await new Receiver(first.clock).start();
    try {
      await first.jobClock.setTime(at(5));
      const trainer = await makeTrainer(first);
      const squat = await createExercise(first, trainer.token, { name: "Agachamento" });
      const training = await createTraining(first, trainer.token, [squat.id]);
      await createEndpoint(first, trainer, `${receiver.url}/hooks`, ["exercise_execution.created"]);
      await startEngines(first, second);
      // No tick of the engine's clock and no worker run by hand: the committed event woke a worker.
      await logExerciseExecution(second, trainer.token, squat.id, training.id, [{ repetitions: 5, weight: 60, completed: true }]);
      await eventually(() => expect(receiver.events().map((event) => event.type)).toEqual(["exercise_execution.created"]));
    } finally {
      await receiver.stop();
    }
  });

  it("starts when a test ping or a retry is asked for, on either instance, without waiting for its period", async () => {
    const receiver = await new Receiver(first.clock).start();
    // Runs of the delivery job under way on either instance.
    let running = 0;
    for (const app of [first, second]) {
      const worker = app.app.services.webhookDeliveries;
      const runOnce = worker.runOnce.bind(worker);
      vi.spyOn(worker, "runOnce").mockImplementation(async () => {
        running++;
        try {
          return await runOnce();
        } finally {
          running--;
        }
      });
    }
    try {
      await first.jobClock.setTime(at(6));
      const trainer = await makeTrainer(first);
      const endpoint = await createEndpoint(first, trainer, receiver.url, ["exercise_execution.created"]);
      await startEngines(first, second);
      // The runs the start-up offered are over, and the engine's clock stands still: only a wake starts another run.
      await eventually(() => expect(running).toBe(0));

      expect((await second.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: trainer.token })).status).toBe(202);
      await eventually(() => expect(receiver.events().map((event) => event.type)).toEqual(["ping"]));
      await eventually(() => expect(running).toBe(0));

      const [ping] = await deliveriesOf(first, trainer, endpoint.id);
      expect((await first.post(`/api/webhook-endpoints/${endpoint.id}/deliveries/${ping.id}/retry`, { token: trainer.token })).status).toBe(202);
      await eventually(() => expect(receiver.events().map((event) => event.type)).toEqual(["ping", "ping"]));
    } finally {
      vi.restoreAllMocks();
      await receiver.stop();
    }
  });
});
