import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import { makeScene, type Scene } from "../executions/support.js";
import { openSocket, type TestSocket } from "../helpers/graphql-socket.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";

// Live events (contract §14.2) between two instances of the service on one database: what is done on one reaches the
// subscribers of the other, each only what it may read at that moment.
const t = useTestApp({ FREE_TRAINER_MAX_STUDENTS: "10" });
const other = useSecondInstance(t, { FREE_TRAINER_MAX_STUDENTS: "10" });

let s: Scene;
const sockets: TestSocket[] = [];
let subscriptions = 0;
const open = (app: TestApp, user: MadeUser) => {
  const socket = openSocket(app, user.token);
  sockets.push(socket);
  const subscribe = socket.subscribe.bind(socket);
  socket.subscribe = (query, variables) => {
    subscriptions += 1;
    return subscribe(query, variables);
  };
  return socket;
};

/** The subscriptions both instances serve now, as their `live_subscriptions` gauges count them. */
async function served(): Promise<number> {
  let total = 0;
  for (const app of [t, other]) {
    for (const [, count] of (await app.get("/metrics")).text.matchAll(/^live_subscriptions\{[^}]*\} (\d+)$/gm)) total += Number(count);
  }
  return total;
}

/** Waits until every subscription the test opened is served: an event sent before would reach nobody. */
const allSubscribed = () => vi.waitFor(async () => expect(await served()).toBe(subscriptions), { timeout: 10_000, interval: 20 });

beforeEach(async () => {
  t.clock.set(new Date("2026-03-18T12:00:00.000Z"));
  s = await makeScene(t, { accept: true });
});
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.close()));
  subscriptions = 0;
  // A closed subscription leaves its instance's count as its server notices the close.
  await vi.waitFor(async () => expect(await served()).toBe(0), { timeout: 10_000, interval: 20 });
});

const log = (user: MadeUser, start: string, weight = 40) =>
  t.post(`/api/trainings/${s.trainingA.id}/execution`, {
    token: user.token,
    body: {
      startTime: start,
      endTime: new Date(Date.parse(start) + 3_600_000).toISOString(),
      completed: true,
      exerciseExecutions: [{ exerciseId: s.supino.id, sets: [{ repetitions: 5, weight, completed: true }] }],
    },
  });

const EXECUTIONS = "subscription ($studentId: Int) { trainingExecutionLogged(studentId: $studentId) { id userId trainingName completed } }";
const RECORDS = "subscription { personalRecordAchieved { userId exerciseId kind value previousValue } }";

/** Waits a moment for events that must not come (after one that must, sent later, has come elsewhere). */
const quietFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("trainingExecutionLogged", () => {
  it("reaches the student's trainer on another instance, and the student's own socket, with the execution", async () => {
    const trainer = open(other, s.trainer).subscribe(EXECUTIONS);
    const onlyAna = open(other, s.trainer).subscribe(EXECUTIONS, { studentId: s.student.id });
    const own = open(t, s.student).subscribe(EXECUTIONS);
    await allSubscribed();
    const logged = await log(s.student, "2026-03-18T10:00:00.000Z");
    expect(logged.status).toBe(201);
    const expected = { data: { trainingExecutionLogged: { id: logged.body.id, userId: s.student.id, trainingName: "Treino A", completed: true } } };
    expect(await trainer.received(1)).toEqual([expected]);
    expect(await onlyAna.received(1)).toEqual([expected]);
    expect(await own.received(1)).toEqual([expected]);
  });

  it("stops reaching the trainer once the link is removed, and never reaches a trainer without a link", async () => {
    const stranger = await makeTrainer(t);
    const trainer = open(other, s.trainer).subscribe(EXECUTIONS);
    const strangers = open(t, stranger).subscribe(EXECUTIONS);
    const own = open(other, s.student).subscribe(EXECUTIONS);
    await allSubscribed();
    expect((await log(s.student, "2026-03-18T08:00:00.000Z")).status).toBe(201);
    await trainer.received(1);

    expect((await t.delete(`/api/personal/students/${s.linkId}`, { token: s.trainer.token })).status).toBe(204);
    expect((await log(s.student, "2026-03-18T10:00:00.000Z")).status).toBe(201);
    await own.received(2);
    await quietFor(300);
    expect(trainer.events).toHaveLength(1);
    expect(strangers.events).toEqual([]);
  });
});

describe("an event's cost", () => {
  /** The access checks (reads of trainer–student links) both instances make while `run` runs. */
  async function linkReadsDuring(run: () => Promise<unknown>): Promise<number> {
    let reads = 0;
    // On PGlite the two instances share one handle: observed once.
    const stops = [...new Set([t.database, other.database])].map((database) =>
      database.observeQueries((statement) => {
        if (statement.includes('"personal_student_links"')) reads += 1;
      }),
    );
    try {
      await run();
    } finally {
      stops.forEach((stop) => stop());
    }
    return reads;
  }

  it("does not grow with the subscriptions of a user the event is not for (issue 30)", async () => {
    // A free account following all it may read, on both instances, subscribed before the trainer: its checks come first.
    const outsider = await makeStudent(t);
    const outsiders = [open(t, outsider), open(other, outsider)];
    const follow = (count: number) => outsiders.flatMap((socket) => Array.from({ length: count }, () => socket.subscribe(EXECUTIONS)));
    const held = follow(1);
    const trainer = [open(t, s.trainer).subscribe(EXECUTIONS), open(other, s.trainer).subscribe(EXECUTIONS)];
    await allSubscribed();
    expect((await log(s.student, "2026-03-17T10:00:00.000Z")).status).toBe(201);
    await Promise.all(trainer.map((subscription) => subscription.received(1)));

    const few = await linkReadsDuring(async () => {
      expect((await log(s.student, "2026-03-18T08:00:00.000Z", 50)).status).toBe(201);
      await Promise.all(trainer.map((subscription) => subscription.received(2)));
    });
    held.push(...follow(19));
    await allSubscribed();
    const many = await linkReadsDuring(async () => {
      expect((await log(s.student, "2026-03-18T10:00:00.000Z", 60)).status).toBe(201);
      await Promise.all(trainer.map((subscription) => subscription.received(3)));
    });
    console.info(`link reads per logged session: ${few} with 2 unrelated subscriptions, ${many} with 40`);
    expect(many).toBe(few);
    expect(held.every((subscription) => subscription.events.length === 0 && subscription.errors.length === 0)).toBe(true);
  });

  it("asks once about the records of one session, which were committed together (issue 30)", async () => {
    // Another follower whose access must be checked: the subject's own would need no statement.
    const outsider = await makeStudent(t);
    open(t, outsider).subscribe(RECORDS);
    const records = open(t, s.trainer).subscribe(RECORDS);
    await allSubscribed();
    const reads = await linkReadsDuring(async () => {
      expect((await log(s.student, "2026-03-18T10:00:00.000Z", 40)).status).toBe(201);
      // A first session of one set: max weight, estimated 1RM, set and session volume, max reps, 3- and 5-rep maxes.
      await records.received(7);
    });
    expect(reads).toBe(1);
  });
});

describe("personalRecordAchieved", () => {
  it("gives the trainer each record the student sets, with whose it is", async () => {
    const records = open(other, s.trainer).subscribe(RECORDS);
    await allSubscribed();
    expect((await log(s.student, "2026-03-18T10:00:00.000Z", 40)).status).toBe(201);
    const [first] = await records.received(1);
    expect(first.data?.personalRecordAchieved).toMatchObject({ userId: s.student.id, exerciseId: s.supino.id, previousValue: null });
  });
});

describe("inviteUpdated and assignmentUpdated", () => {
  it("reach both parties, and nobody else", async () => {
    const newcomer = await makeStudent(t, { email: "nova@example.com" });
    const outsider = await makeStudent(t);
    const invites = "subscription { inviteUpdated { id status } }";
    const trainerSide = open(other, s.trainer).subscribe(invites);
    const studentSide = open(t, newcomer).subscribe(invites);
    const outsiders = open(t, outsider).subscribe(invites);
    await allSubscribed();
    const sent = await t.post("/api/personal/students/invite", { token: s.trainer.token, body: { studentEmail: newcomer.email } });
    expect(sent.status).toBe(201);
    expect(await trainerSide.received(1)).toEqual([{ data: { inviteUpdated: { id: sent.body.id, status: "PENDING" } } }]);
    expect(await studentSide.received(1)).toEqual([{ data: { inviteUpdated: { id: sent.body.id, status: "PENDING" } } }]);
    await quietFor(300);
    expect(outsiders.events).toEqual([]);
  });
});
