import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { planId, subscribeByCard } from "../factories/billing.js";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent } from "../factories/content.js";
import { logExerciseExecution, logTrainingExecution, setsOf, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, makeUser, relogin, type MadeUser } from "../factories/users.js";
import { useSecondInstance, useTestApp } from "../helpers/test-app.js";
import { createEndpoint, deliverWebhooks, deliveriesOf, never, ok, Receiver, status, verifyWith } from "./support.js";

const ADMIN_EMAIL = "admin-webhooks@example.com";
const t = useTestApp({ ADMIN_EMAILS: ADMIN_EMAIL, FREE_TRAINER_MAX_STUDENTS: "10" });
const second = useSecondInstance(t, { ADMIN_EMAILS: ADMIN_EMAIL, FREE_TRAINER_MAX_STUDENTS: "10" });

const receivers: Receiver[] = [];
async function receiver(): Promise<Receiver> {
  const started = await new Receiver(t.clock).start();
  receivers.push(started);
  return started;
}
afterEach(async () => {
  const stopped = receivers.splice(0);
  await Promise.all(stopped.map((r) => r.stop()));
  // Every event delivered is what the document's webhooks section says a receiver gets.
  const bodies = stopped.flatMap((r) => r.received.map((delivery) => delivery.body));
  expect(bodies.flatMap((body) => t.webhookEventProblems(body))).toEqual([]);
});

/** Every delivery a receiver got verifies with `secret`, by the Standard Webhooks library. */
function expectAllSignedBy(r: Receiver, secret: string) {
  expect(r.received.length).toBeGreaterThan(0);
  for (const delivery of r.received) expect(verifyWith(secret, delivery)).toEqual(JSON.parse(delivery.body));
}

/** A trainer, its ACTIVE-linked student, and a training of the trainer's exercise the student may execute. */
async function coached() {
  const trainer = await makeTrainer(t);
  const student = await makeStudent(t);
  const linkId = await linkTrainerAndStudent(t, trainer, student);
  const squat = await createExercise(t, trainer.token, { name: "Agachamento", isPublic: true });
  const training = await createTraining(t, trainer.token, [squat.id]);
  await assignPlan(t, trainer.token, (await createPlan(t, trainer.token, [training.id])).id, student.id);
  return { trainer, student, linkId, squat, training };
}

const logSquats = (student: MadeUser, training: { id: number }, squatId: number, weight: number) =>
  logTrainingExecution(
    t,
    student.token,
    training.id,
    trainingExecutionBody(t.clock.now(), 1800, [{ exerciseId: squatId, sets: setsOf(3, { repetitions: 5, weight, completed: true }) }]),
  );

describe("webhook deliveries", () => {
  it("delivers a student's training and its records to the student's, its trainer's and an administrator's endpoints, signed", async () => {
    const { trainer, student, training, squat } = await coached();
    const admin = await makeUser(t, { email: ADMIN_EMAIL, userType: "PERSONAL" });
    const [forTrainer, forStudent, forAdmin] = [await receiver(), await receiver(), await receiver()];
    const trainerEndpoint = await createEndpoint(t, trainer, forTrainer.url, ["training_execution.created", "personal_record.achieved"]);
    const studentEndpoint = await createEndpoint(t, student, forStudent.url, ["training_execution.created"]);
    const adminEndpoint = await createEndpoint(t, admin, forAdmin.url, ["training_execution.created"]);

    const logged = await logSquats(student, training, squat.id, 100);
    await deliverWebhooks(t);

    const execution = (await t.get(`/api/trainings/executions/${logged.id}`, { token: student.token })).body;
    const trainerEvents = forTrainer.events();
    expect(trainerEvents.filter((e) => e.type === "training_execution.created")).toHaveLength(1);
    expect(logged.newRecords.length).toBeGreaterThan(0);
    expect(
      trainerEvents
        .filter((e) => e.type === "personal_record.achieved")
        .map((e) => e.data.kind)
        .sort(),
    ).toEqual(logged.newRecords.map((r: any) => r.kind).sort());
    const created = trainerEvents.find((e) => e.type === "training_execution.created")!;
    expect(created.data).toEqual({ ...execution, newRecords: logged.newRecords });
    expect(created.id).toMatch(/^evt_[0-9a-f]{32}$/);
    const maxWeight = trainerEvents.find((e) => e.type === "personal_record.achieved" && e.data.kind === "MAX_WEIGHT")!;
    expect(maxWeight.data).toMatchObject({
      userId: student.id,
      exerciseId: squat.id,
      exerciseName: "Agachamento",
      value: 100,
      unit: "kg",
      previousValue: null,
    });
    expect(forStudent.events().map((e) => e.data.id)).toEqual([logged.id]);
    expect(forAdmin.events().map((e) => e.data.id)).toEqual([logged.id]);
    expect(forStudent.events()[0].id).toBe(created.id);
    expectAllSignedBy(forTrainer, trainerEndpoint.secret);
    expectAllSignedBy(forStudent, studentEndpoint.secret);
    expectAllSignedBy(forAdmin, adminEndpoint.secret);

    const [delivery] = await deliveriesOf(t, student, studentEndpoint.id);
    expect(delivery).toMatchObject({
      eventId: created.id,
      eventType: "training_execution.created",
      status: "SUCCEEDED",
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(delivery.deliveredAt).toBe(t.clock.now().toISOString());
    // Delivered once: running again sends nothing.
    await deliverWebhooks(t);
    expect(forStudent.received).toHaveLength(1);

    // An exercise logged on its own, as its logging call answers it.
    const trainerEndpointChange = await t.patch(`/api/webhook-endpoints/${trainerEndpoint.id}`, {
      token: trainer.token,
      body: { events: ["exercise_execution.created"] },
    });
    expect(trainerEndpointChange.status).toBe(200);
    const single = await logExerciseExecution(t, student.token, squat.id, training.id, [{ repetitions: 3, weight: 50, completed: true }]);
    await deliverWebhooks(t);
    const [exerciseEvent] = forTrainer.events().slice(trainerEvents.length);
    expect(exerciseEvent).toMatchObject({ type: "exercise_execution.created", data: single });
    expect(forTrainer.received).toHaveLength(trainerEvents.length + 1);
    expectAllSignedBy(forTrainer, trainerEndpoint.secret);
  });

  it("sends a trainer nothing of a student it is not linked to, nor once the link is removed", async () => {
    const { trainer, student, linkId, training, squat } = await coached();
    const stranger = await makeTrainer(t);
    const [forTrainer, forStranger] = [await receiver(), await receiver()];
    await createEndpoint(t, trainer, forTrainer.url, ["training_execution.created", "personal_record.achieved", "link.updated"]);
    await createEndpoint(t, stranger, forStranger.url, ["training_execution.created", "personal_record.achieved", "link.updated"]);

    await logSquats(student, training, squat.id, 80);
    await deliverWebhooks(t);
    const seen = forTrainer.received.length;
    expect(forTrainer.events().filter((e) => e.type === "training_execution.created")).toHaveLength(1);
    expect(forStranger.received).toHaveLength(0);

    expect((await t.delete(`/api/students/personals/${linkId}`, { token: student.token })).status).toBe(204);
    await logSquats(student, training, squat.id, 90);
    await deliverWebhooks(t);
    const later = forTrainer.events().slice(seen);
    expect(later.map((e) => e.type)).toEqual(["link.updated"]);
    expect(later[0].data).toMatchObject({ id: linkId, status: "INACTIVE" });
    expect(forStranger.received).toHaveLength(0);
  });

  it("checks a batch's endpoints in a number of statements that does not grow with the endpoints of users it is not for (issue 30)", async () => {
    const { trainer, student, training, squat } = await coached();
    const forTrainer = await receiver();
    const elsewhere = await receiver();
    await createEndpoint(t, trainer, forTrainer.url, ["training_execution.created", "personal_record.achieved"]);
    /** The access checks (reads of trainer–student links) of dispatching one logged session. */
    const linkReadsOfSession = async (weight: number) => {
      await logSquats(student, training, squat.id, weight);
      let reads = 0;
      const stop = t.database.observeQueries((statement) => {
        if (statement.includes('"personal_student_links"')) reads += 1;
      });
      try {
        await t.app.services.webhookDeliveries.dispatch();
      } finally {
        stop();
      }
      return reads;
    };
    const strangersWithEndpoints = async (count: number) => {
      for (let i = 0; i < count; i++) await createEndpoint(t, await makeTrainer(t), elsewhere.url, ["training_execution.created", "personal_record.achieved"]);
    };

    await strangersWithEndpoints(1);
    const few = await linkReadsOfSession(80);
    await strangersWithEndpoints(5);
    const many = await linkReadsOfSession(90);
    console.info(`link reads per dispatched session: ${few} with 1 unrelated endpoint owner, ${many} with 6`);
    expect(many).toBe(few);
    await deliverWebhooks(t);
    expect(forTrainer.events().filter((e) => e.type === "training_execution.created")).toHaveLength(2);
    expect(elsewhere.received).toHaveLength(0);
  });

  it("delivers invites, links, assignments, subscriptions and payments to their parties only, as their REST DTOs", async () => {
    const { trainer, student } = await coached();
    const other = await makeStudent(t);
    // An endpoint receives what happens from its registration on: not the linking and assigning above.
    t.clock.advance(1000);
    const all = ["invite.updated", "link.updated", "plan_assignment.updated", "subscription.updated", "payment.completed"];
    const [forTrainer, forStudent, forOther] = [await receiver(), await receiver(), await receiver()];
    await createEndpoint(t, trainer, forTrainer.url, all);
    await createEndpoint(t, student, forStudent.url, all);
    await createEndpoint(t, other, forOther.url, all);

    const invite = await t.post("/api/personal/students/invite", { token: trainer.token, body: { studentEmail: other.email } });
    const rejected = await t.post(`/api/students/invites/${invite.body.id}/reject`, { token: other.token });
    const assignments = (await t.get("/api/training-plans/assignments", { token: student.token })).body.content;
    const accepted = await t.post(`/api/training-plans/assignments/${assignments[0].id}/accept`, { token: student.token });
    expect((await subscribeByCard(t, student, await planId(t))).status).toBe(201);
    await deliverWebhooks(t);

    const typesOf = (r: Receiver) => r.events().map((e) => e.type);
    expect(typesOf(forTrainer)).toEqual(["invite.updated", "invite.updated", "plan_assignment.updated"]);
    expect(forTrainer.events()[1].data).toMatchObject({ id: invite.body.id, status: "REJECTED", studentEmail: other.email });
    expect(forTrainer.events()[2].data).toEqual(accepted.body);
    expect(typesOf(forOther)).toEqual(["invite.updated", "invite.updated"]);
    expect(forOther.events()[1].data).toMatchObject({ id: rejected.body.id, status: "REJECTED" });
    // Each write of the subscription is an update: PENDING when opened, then ACTIVE once paid.
    expect(forStudent.events().map((e) => [e.type, e.data.status])).toEqual([
      ["plan_assignment.updated", "ACTIVE"],
      ["subscription.updated", "PENDING"],
      ["subscription.updated", "PENDING"],
      ["payment.completed", "COMPLETED"],
      ["subscription.updated", "ACTIVE"],
    ]);
    const payments = (await t.get("/api/payments", { token: student.token })).body.content;
    expect(forStudent.events().find((e) => e.type === "payment.completed")!.data).toEqual(payments[0]);
    const subscription = forStudent
      .events()
      .filter((e) => e.type === "subscription.updated")
      .at(-1)!.data;
    expect(subscription).toEqual((await t.get(`/api/subscriptions/${subscription.id}`, { token: student.token })).body);
  });

  it("delivers each event once when two instances run their workers at the same time", async () => {
    const trainer = await makeTrainer(t);
    const r = await receiver();
    const endpoint = await createEndpoint(t, trainer, r.url, ["invite.updated"]);
    const students = [];
    for (let i = 0; i < 3; i++) students.push(await makeStudent(t));
    for (const student of students)
      expect((await t.post("/api/personal/students/invite", { token: trainer.token, body: { studentEmail: student.email } })).status).toBe(201);
    for (let i = 0; i < 10; i++) await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: trainer.token });

    await Promise.all([deliverWebhooks(t), second.app.services.webhookDeliveries.runOnce()]);
    const ids = r.received.map((d) => d.headers["webhook-id"]);
    expect(ids).toHaveLength(13);
    expect(new Set(ids).size).toBe(13);
    expect((await deliveriesOf(t, trainer, endpoint.id)).every((d) => d.status === "SUCCEEDED" && d.attempts === 1)).toBe(true);
  });

  it("delivers another user's event while one user's 20 endpoints on a receiver that never answers hold their attempts, on two instances", async () => {
    const student = await makeStudent(t);
    const other = await makeTrainer(t);
    const [silent, quick] = [await receiver(), await receiver()];
    silent.otherwise = never;
    const hanging = [];
    for (let i = 0; i < 20; i++) hanging.push(await createEndpoint(t, student, silent.url, ["invite.updated"]));
    const otherEndpoint = await createEndpoint(t, other, quick.url, ["invite.updated"]);
    // The student's deliveries come due first; the other user's last.
    for (const endpoint of hanging) expect((await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: student.token })).status).toBe(202);
    expect((await t.post(`/api/webhook-endpoints/${otherEndpoint.id}/test`, { token: other.token })).status).toBe(202);

    const runs = Promise.all([deliverWebhooks(t), second.app.services.webhookDeliveries.runOnce()]);
    let runsEnded = false;
    void runs.finally(() => (runsEnded = true));
    while (quick.received.length === 0 && !runsEnded) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(quick.received).toHaveLength(1);
    // It arrived while every attempt at the silent receiver was still held open: none of them had given up yet.
    const studentDeliveries = (await Promise.all(hanging.map((endpoint) => deliveriesOf(t, student, endpoint.id)))).flat();
    expect(studentDeliveries.filter((d) => d.lastError !== null)).toEqual([]);
    expect(silent.received.length).toBeGreaterThan(0);

    await silent.stop();
    await runs;
    expect((await deliveriesOf(t, other, otherEndpoint.id))[0]).toMatchObject({ status: "SUCCEEDED", attempts: 1 });
  }, 60_000);

  it("takes a retry asked while an attempt is under way as that attempt: another instance's worker posts nothing more", async () => {
    const trainer = await makeTrainer(t);
    const r = await receiver();
    let answerHeld: () => void = () => undefined;
    r.answers.push((_req, res) => (answerHeld = () => res.writeHead(200).end("ok")));
    const endpoint = await createEndpoint(t, trainer, r.url, ["invite.updated"]);
    await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: trainer.token });

    const underWay = deliverWebhooks(t);
    await expect.poll(() => r.received.length).toBe(1);
    const [delivery] = await deliveriesOf(t, trainer, endpoint.id);
    const retried = await t.post(`/api/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`, { token: trainer.token });
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: delivery.id, status: "PENDING", attempts: 1 });
    expect(await second.app.services.webhookDeliveries.runOnce()).toBe(0);
    expect(r.received).toHaveLength(1);

    answerHeld();
    expect(await underWay).toBe(1);
    expect((await deliveriesOf(t, trainer, endpoint.id))[0]).toMatchObject({ status: "SUCCEEDED", attempts: 1, lastStatusCode: 200 });
    expect(r.received).toHaveLength(1);
  });

  it("prunes events and their deliveries 30 days old once none is pending", async () => {
    const student = await makeStudent(t);
    const r = await receiver();
    const endpoint = await createEndpoint(t, student, r.url, ["invite.updated"]);
    await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: student.token });
    await deliverWebhooks(t);
    r.otherwise = status(503);
    await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: student.token });
    await deliverWebhooks(t);
    // Still being retried 30 days on (a long disabled endpoint's pending delivery): kept.
    await t.db.execute(sql`update webhook_endpoints set enabled = false`);
    t.clock.advance(30 * 24 * 3_600_000 + 3_600_000);
    await relogin(t, student);
    await deliverWebhooks(t);
    expect((await deliveriesOf(t, student, endpoint.id)).map((d) => d.status)).toEqual(["PENDING"]);
  });

  it("attempts a 500 again after about 5 seconds, then succeeds with the same event id", async () => {
    const student = await makeStudent(t);
    const r = await receiver();
    r.answers = [status(500)];
    const endpoint = await createEndpoint(t, student, r.url, ["invite.updated"]);
    expect((await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: student.token })).status).toBe(202);

    await deliverWebhooks(t);
    const [failed] = await deliveriesOf(t, student, endpoint.id);
    expect(failed).toMatchObject({ eventType: "ping", status: "PENDING", attempts: 1, lastStatusCode: 500, lastError: "HTTP 500: status 500" });
    expect(failed.nextAttemptAt).toBe(new Date(t.clock.now().getTime() + 5_000).toISOString());
    await deliverWebhooks(t);
    expect(r.received).toHaveLength(1);

    t.clock.advance(5_000);
    await deliverWebhooks(t);
    const [succeeded] = await deliveriesOf(t, student, endpoint.id);
    expect(succeeded).toMatchObject({ status: "SUCCEEDED", attempts: 2, lastStatusCode: 200, lastError: null });
    expect(r.received.map((d) => d.headers["webhook-id"])).toEqual([failed.eventId, failed.eventId]);
    expectAllSignedBy(r, endpoint.secret);
    // The attempts are counted in /metrics, by outcome (this instance's since it started).
    const counted = (metrics: string, outcome: string) =>
      Number(new RegExp(`webhook_delivery_attempts_total\\{outcome="${outcome}"\\} (\\d+)`).exec(metrics)?.[1]);
    const metrics = (await t.get("/metrics")).text;
    expect(counted(metrics, "retried")).toBeGreaterThanOrEqual(1);
    expect(counted(metrics, "succeeded")).toBeGreaterThanOrEqual(1);
  });

  it("does not follow a redirect: a 3xx is a failed attempt", async () => {
    const student = await makeStudent(t);
    const r = await receiver();
    r.otherwise = status(302, { location: "http://169.254.169.254/latest/meta-data/" });
    const endpoint = await createEndpoint(t, student, r.url, ["invite.updated"]);
    await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: student.token });
    await deliverWebhooks(t);
    const [delivery] = await deliveriesOf(t, student, endpoint.id);
    expect(delivery).toMatchObject({ status: "PENDING", attempts: 1, lastStatusCode: 302 });
    expect(delivery.lastError).toMatch(/^Redirecionamento não seguido/);
    expect(r.received).toHaveLength(1);
  });

  it("with the receiver down: the retry schedule, FAILED after the 8th attempt, the endpoint disabled after 5 days of failures and its owner e-mailed; redelivered by hand", async () => {
    const trainer = await makeTrainer(t);
    const r = await receiver();
    const url = r.url;
    await r.stop();
    const endpoint = await createEndpoint(t, trainer, url, ["invite.updated"]);
    const firstFailure = t.clock.now();
    await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: trainer.token });

    const waits = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
    for (const [i, wait] of waits.entries()) {
      await deliverWebhooks(t);
      const [delivery] = await deliveriesOf(t, trainer, endpoint.id);
      expect(delivery).toMatchObject({ status: "PENDING", attempts: i + 1, lastStatusCode: null });
      expect(delivery.lastError).toMatch(/ECONNREFUSED/);
      expect(delivery.nextAttemptAt).toBe(new Date(t.clock.now().getTime() + wait).toISOString());
      t.clock.advance(wait - 1);
      await deliverWebhooks(t);
      expect((await deliveriesOf(t, trainer, endpoint.id))[0].attempts).toBe(i + 1);
      t.clock.advance(1);
      await relogin(t, trainer);
    }
    await deliverWebhooks(t);
    const [failed] = await deliveriesOf(t, trainer, endpoint.id);
    expect(failed).toMatchObject({ status: "FAILED", attempts: 8, nextAttemptAt: null });
    // About 28 hours of failures: not yet 5 days.
    expect((await t.get(`/api/webhook-endpoints/${endpoint.id}`, { token: trainer.token })).body.enabled).toBe(true);

    t.clock.set(new Date(firstFailure.getTime() + 5 * 24 * 3_600_000));
    await relogin(t, trainer);
    await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: trainer.token });
    await deliverWebhooks(t);
    expect((await t.get(`/api/webhook-endpoints/${endpoint.id}`, { token: trainer.token })).body.enabled).toBe(false);
    await t.deliverMail();
    const mail = t.smtp.received.find((m) => m.subject === "Endpoint de webhook desativado");
    expect(mail?.to).toEqual([trainer.email]);
    expect(mail?.text).toContain(url);

    // Disabled: nothing more is attempted.
    await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: trainer.token });
    t.clock.advance(3_600_000);
    await deliverWebhooks(t);
    const pending = await deliveriesOf(t, trainer, endpoint.id);
    expect(pending.map((d) => d.attempts)).toEqual([8, 1, 0]);

    // Back up, turned on again, the FAILED delivery sent by hand.
    const back = await new Receiver(t.clock).start(Number(new URL(url).port));
    receivers.push(back);
    expect((await t.patch(`/api/webhook-endpoints/${endpoint.id}`, { token: trainer.token, body: { enabled: true } })).body.enabled).toBe(true);
    const retried = await t.post(`/api/webhook-endpoints/${endpoint.id}/deliveries/${failed.id}/retry`, { token: trainer.token });
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ id: failed.id, status: "PENDING", attempts: 8 });
    await deliverWebhooks(t);
    const after = await deliveriesOf(t, trainer, endpoint.id);
    expect(after[0]).toMatchObject({ status: "SUCCEEDED", attempts: 9, lastStatusCode: 200 });
    expect(back.events().map((e) => e.id)).toContain(failed.eventId);
    expectAllSignedBy(back, endpoint.secret);
  });

  it("signs with both secrets for 24 hours after a rotation, then with the new one only", async () => {
    const student = await makeStudent(t);
    const r = await receiver();
    const endpoint = await createEndpoint(t, student, r.url, ["invite.updated"]);
    const ping = async () => {
      await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: student.token });
      await deliverWebhooks(t);
      return r.received.at(-1)!;
    };
    const before = await ping();
    expect(verifyWith(endpoint.secret, before)).toBeTruthy();

    const rotated = await t.post(`/api/webhook-endpoints/${endpoint.id}/rotate-secret`, { token: student.token });
    expect(rotated.status).toBe(200);
    const secret = rotated.body.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(secret).not.toBe(endpoint.secret);

    const during = await ping();
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifyWith(endpoint.secret, during)).toBeTruthy();
    expect(verifyWith(secret, during)).toBeTruthy();

    t.clock.advance(24 * 3_600_000 + 1_000);
    await relogin(t, student);
    const after = await ping();
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifyWith(secret, after)).toBeTruthy();
    expect(() => verifyWith(endpoint.secret, after)).toThrow("No matching signature found");
  });

  it("bounds a receiver that never answers, one that answers after 60 s and one that sends 100 MB, without holding up the others or the API", async () => {
    const student = await makeStudent(t);
    const [silent, late, huge, hugeError, quick] = [await receiver(), await receiver(), await receiver(), await receiver(), await receiver()];
    silent.otherwise = never;
    late.otherwise = (_req, res) => {
      setTimeout(() => res.writeHead(200).end(), 60_000).unref();
    };
    const sent = { huge: 0, hugeError: 0 };
    const flood = (which: keyof typeof sent, code: number) => (_req: unknown, res: import("node:http").ServerResponse) => {
      res.writeHead(code, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(1024 * 1024, 120);
      const pump = () => {
        while (sent[which] < 100 * 1024 * 1024 && !res.destroyed) {
          sent[which] += chunk.length;
          if (!res.write(chunk)) return res.once("drain", pump);
        }
        res.end();
      };
      pump();
    };
    huge.otherwise = flood("huge", 200);
    hugeError.otherwise = flood("hugeError", 500);
    quick.otherwise = ok;
    const endpoints: { id: number }[] = [];
    for (const r of [silent, late, huge, hugeError, quick]) endpoints.push(await createEndpoint(t, student, r.url, ["invite.updated"]));
    for (const endpoint of endpoints) await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: student.token });

    const run = deliverWebhooks(t);
    // While the silent and the late receivers hold their attempts, the quick one is served and the API answers.
    const quickEndpoint = endpoints[4];
    for (;;) {
      const [delivery] = await deliveriesOf(t, student, quickEndpoint.id);
      if (delivery.status === "SUCCEEDED") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await deliveriesOf(t, student, endpoints[0].id))[0]).toMatchObject({ status: "PENDING", attempts: 1, lastError: null });
    await run;

    const outcome = async (i: number) => (await deliveriesOf(t, student, endpoints[i].id))[0];
    expect(await outcome(0)).toMatchObject({ status: "PENDING", lastStatusCode: null, lastError: "Sem resposta em 10 s" });
    expect(await outcome(1)).toMatchObject({ status: "PENDING", lastStatusCode: null, lastError: "Sem resposta em 10 s" });
    expect(await outcome(2)).toMatchObject({ status: "SUCCEEDED", lastStatusCode: 200 });
    const error = await outcome(3);
    expect(error).toMatchObject({ status: "PENDING", lastStatusCode: 500 });
    expect(error.lastError.length).toBeLessThanOrEqual(520);
    // The connection was dropped: the floods never got through.
    expect(sent.huge).toBeLessThan(100 * 1024 * 1024);
    expect(sent.hugeError).toBeLessThan(100 * 1024 * 1024);
  }, 60_000);
});
