import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { systemClock } from "../../src/platform/clock.js";
import { useTemplateClone } from "../helpers/database.js";
import { never, ok, Receiver } from "./support.js";

/*
 * A crash while events are pending (contract §14.1: "a crash loses none"): the service runs as a child process on
 * PostgreSQL, its deliveries hang at the receiver, it is killed with SIGKILL, started again, and every event arrives.
 */
const root = path.resolve(import.meta.dirname, "../..");
const databaseUrl = process.env.DATABASE_URL;
const template = databaseUrl ? inject("pgTemplate") : null;
const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-webhook-crash-"));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startService(port: number, database: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/main.ts")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ...database,
      JWT_SECRET: "crash-test-secret-that-is-long-enough-0123456789",
      NODE_ENV: "development",
      FREE_TRAINER_MAX_STUDENTS: "10",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const until = Date.now() + 45_000;
  while (Date.now() < until) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill("SIGKILL");
  throw new Error("service did not become ready");
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!template)("webhook deliveries across a crash (PostgreSQL)", () => {
  const clone = useTemplateClone("webhook_crash");
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("delivers every pending event after the instance is killed with SIGKILL and started again", async () => {
    const receiver = await new Receiver(systemClock).start();
    // The first instance's attempts hang: they are under way when it dies.
    receiver.otherwise = never;
    const port = await freePort();
    let service = await startService(port, clone.env());
    const api = async (method: string, url: string, token?: string, body?: unknown) => {
      const res = await fetch(`http://127.0.0.1:${port}/api${url}`, {
        method,
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (res.status === 204 ? null : await res.json()) as any };
    };
    try {
      const registered = await api("POST", "/users/register", undefined, {
        name: "Ana",
        email: "ana-crash@example.com",
        password: "senha-forte-1",
        userType: "PERSONAL",
        requestLocation: "WEB",
        confirmed: true,
      });
      const token = registered.body.token as string;
      const endpoint = await api("POST", "/webhook-endpoints", token, { url: receiver.url, events: ["invite.updated"] });
      expect(endpoint.status).toBe(201);
      const students = [];
      for (let i = 0; i < 3; i++) {
        const student = await api("POST", "/users/register", undefined, {
          name: `Aluno ${i}`,
          email: `aluno-crash-${i}@example.com`,
          password: "senha-forte-1",
          userType: "ALUNO",
          requestLocation: "WEB",
          confirmed: true,
        });
        students.push(student.body.user.email as string);
      }
      // Three invites (domain events through the outbox) and two pings.
      for (const email of students.slice(0, 2)) expect((await api("POST", "/personal/students/invite", token, { studentEmail: email })).status).toBe(201);
      for (let i = 0; i < 2; i++) expect((await api("POST", `/webhook-endpoints/${endpoint.body.id}/test`, token)).status).toBe(202);
      await waitFor(() => receiver.received.length >= 4, "the first attempts to hang at the receiver");
      // One more event, committed right before the crash: maybe not even dispatched yet.
      expect((await api("POST", "/personal/students/invite", token, { studentEmail: students[2] })).status).toBe(201);
      service.kill("SIGKILL");
      await new Promise((resolve) => service.once("exit", resolve));

      receiver.otherwise = ok;
      const answeredBefore = receiver.received.length;
      service = await startService(port, clone.env());
      // Leases of the dead instance run out (15 s), then its deliveries are attempted again; the last event is
      // dispatched if it was not yet.
      let deliveries: { eventId: string; status: string }[] = [];
      await waitFor(async () => {
        deliveries = (await api("GET", `/webhook-endpoints/${endpoint.body.id}/deliveries?size=100`, token)).body.content;
        return deliveries.length === 5 && deliveries.every((d) => d.status === "SUCCEEDED");
      }, "every delivery to succeed");
      const answeredOk = new Set(receiver.received.slice(answeredBefore).map((d) => String(d.headers["webhook-id"])));
      for (const { eventId } of deliveries) expect(answeredOk).toContain(eventId);
    } finally {
      service.kill("SIGKILL");
      await receiver.stop();
    }
  }, 120_000);
});
