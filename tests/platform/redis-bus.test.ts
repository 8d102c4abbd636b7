import { Redis } from "ioredis";
import { describe, expect, it, vi } from "vitest";
import { BUS_CHANNEL, databaseIdentity } from "../../src/platform/db/database.js";
import { makeScene } from "../executions/support.js";
import { makeUser } from "../factories/users.js";
import { openSocket } from "../helpers/graphql-socket.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";

// REDIS_URL moves the instance bus (session news, live updates) from LISTEN/NOTIFY onto Redis pub/sub (contract §16).
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const t = useTestApp({ REDIS_URL });
const other = useSecondInstance(t, { REDIS_URL });

const me = (app: TestApp, token: string) => app.graphql<{ me: { id: number } }>("{ me { id } }", {}, token);

/** Closes, on the Redis server, the connections of `app`'s bus (they are named after its channel). */
async function cutBusConnections(app: TestApp): Promise<number> {
  const admin = new Redis(REDIS_URL);
  try {
    const clients = ((await admin.client("LIST")) as string).split("\n").filter(Boolean);
    const channelOf = (line: string) => /(?:^| )name=(\S*)/.exec(line)?.[1] ?? "";
    const name = `${BUS_CHANNEL}:${await databaseIdentity(app.db)}`;
    const ours = clients.filter((line) => channelOf(line) === name);
    for (const line of ours) await admin.client("KILL", "ID", /(?:^| )id=(\d+)/.exec(line)![1]);
    return ours.length;
  } finally {
    admin.disconnect();
  }
}

describe("the instance bus over Redis", () => {
  it("tells the other instance at once: a token logged out on one is refused on the other", async () => {
    const ana = await makeUser(t);
    expect((await me(t, ana.token)).data?.me.id).toBe(ana.id);
    expect((await me(other, ana.token)).data?.me.id).toBe(ana.id);
    expect((await other.post("/api/users/logout", { token: ana.token })).status).toBe(200);
    expect((await me(t, ana.token)).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  it("is not live while its connection is cut, tells its subscribers, and is live again once Redis takes it back", async () => {
    expect(t.app.bus.live).toBe(true);
    const interrupted = new Promise<void>((resolve) => t.app.bus.subscribe("sessions", { message: () => undefined, interrupted: resolve }));
    expect(await cutBusConnections(t)).toBeGreaterThan(0);
    await interrupted;
    await vi.waitFor(() => expect(t.app.bus.live).toBe(true), { timeout: 10_000 });

    // Heard again: a logout on the other instance reaches this one.
    const ana = await makeUser(t);
    expect((await me(t, ana.token)).data?.me.id).toBe(ana.id);
    expect((await other.post("/api/users/logout", { token: ana.token })).status).toBe(200);
    expect((await me(t, ana.token)).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });
});

describe("live updates over Redis", () => {
  it("carry a student's logged training from one instance to the trainer's socket on the other", async () => {
    t.clock.set(new Date("2026-03-18T12:00:00.000Z"));
    const s = await makeScene(t, { accept: true });
    const socket = openSocket(other, s.trainer.token);
    try {
      const executions = socket.subscribe("subscription { trainingExecutionLogged { id userId } }");
      await socket.connected;
      await new Promise((resolve) => setTimeout(resolve, 100));
      const logged = await t.post(`/api/trainings/${s.trainingA.id}/execution`, {
        token: s.student.token,
        body: {
          startTime: "2026-03-18T10:00:00.000Z",
          endTime: "2026-03-18T11:00:00.000Z",
          completed: true,
          exerciseExecutions: [{ exerciseId: s.supino.id, sets: [{ repetitions: 5, weight: 40, completed: true }] }],
        },
      });
      expect(logged.status).toBe(201);
      expect(await executions.received(1)).toEqual([{ data: { trainingExecutionLogged: { id: logged.body.id, userId: s.student.id } } }]);
    } finally {
      await socket.close();
    }
  });
});
