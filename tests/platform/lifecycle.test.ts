import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startService as startServiceProcess, waitForHealth } from "../helpers/service-process.js";

const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-main-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The service on this file's data directory. */
const startService = (env: Record<string, string> = {}) => startServiceProcess({ DATA_DIR: dataDir, ...env });

/**
 * Each service here runs on the embedded database whatever the suite's database: the runs on PostgreSQL (and through
 * PgBouncer) would repeat them as they are, for a minute of CPU each.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

describe("the service process", { skip: onPostgres }, () => {
  it("starts on the embedded database, applies migrations, serves, and stops cleanly on SIGTERM", async () => {
    const service = startService({ DATABASE_URL: "" });
    const base = await service.base;
    await waitForHealth(base);

    const registered = await fetch(`${base}/api/users/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Ana", email: "ana@example.com", password: "segredo1", userType: "ALUNO", requestLocation: "WEB", confirmed: true }),
    });
    expect(registered.status).toBe(201);

    service.child.kill("SIGTERM");
    expect(await service.exited).toBe(0);
    expect(service.output()).toContain("stopped");
  }, 90_000);

  it("keeps its data and secret across restarts (same DATA_DIR)", async () => {
    const service = startService({ DATABASE_URL: "" });
    const base = await service.base;
    await waitForHealth(base);
    const login = await fetch(`${base}/api/users/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ana@example.com", password: "segredo1" }),
    });
    expect(login.status).toBe(200);
    service.child.kill("SIGINT");
    expect(await service.exited).toBe(0);
  }, 90_000);

  it("refuses to start in production without secrets, saying why", async () => {
    const service = startService({ NODE_ENV: "production", JWT_SECRET: "", DATABASE_URL: "" });
    expect(await service.exited).toBe(1);
    expect(service.output()).toContain("JWT_SECRET must be set to at least 32 bytes");
  }, 30_000);

  it("tells who started it where to reach it and where its data goes, on the port the system gave", async () => {
    const service = startService({ DATABASE_URL: "" });
    const port = new URL(await service.base).port;
    await waitForHealth(await service.base);
    expect(service.output()).toContain("starting: opening the database and applying its migrations…\n");
    expect(service.output()).toContain(
      `ready: REST http://localhost:${port}/api/docs, GraphQL http://localhost:${port}/graphql; ` +
        `database: PGlite in ${dataDir}/pglite; e-mails: .eml files in ${dataDir}/mail; images: ${dataDir}/uploads\n`,
    );
    service.child.kill("SIGTERM");
    expect(await service.exited).toBe(0);
  }, 90_000);

  it("stops with one line when its port is already taken", async () => {
    const holder = createServer().listen(0, "127.0.0.1");
    await once(holder, "listening");
    const { port } = holder.address() as AddressInfo;
    try {
      const service = startService({ DATABASE_URL: "", PORT: String(port) });
      expect(await service.exited).toBe(1);
      expect(service.errors()).toBe(`Port ${port} is already in use: stop the process that holds it, or choose another port with PORT=…\n`);
    } finally {
      holder.close();
    }
  }, 90_000);
});

/** GET /healthz through a kept-alive connection of `agent`. */
function healthOver(agent: Agent, port: number): Promise<{ connection?: string }> {
  return new Promise((resolve, reject) => {
    const asked = request({ host: "127.0.0.1", port, path: "/healthz", agent }, (answer) => {
      answer.resume();
      answer.on("end", () => resolve({ connection: answer.headers.connection }));
      answer.on("error", reject);
    });
    asked.on("error", reject);
    asked.end();
  });
}

/**
 * One kept-alive connection driven by hand: its next request can be written at any moment, even as the server closes
 * the connection, the way a client's request crosses the server's close on the wire.
 */
class HandDrivenConnection {
  private received = "";
  private ended = false;
  private readonly socket: Socket;
  private onChange = () => {};

  constructor(port: number) {
    this.socket = connect(port, "127.0.0.1");
    this.socket.setEncoding("latin1");
    this.socket.on("data", (chunk: string) => {
      this.received += chunk;
      this.onChange();
    });
    this.socket.on("error", () => undefined);
    this.socket.on("close", () => {
      this.ended = true;
      this.onChange();
    });
  }

  /** Sends GET /healthz and resolves with the answer's head, or rejects when the connection ends without one. */
  ask(): Promise<string> {
    this.received = "";
    this.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    return new Promise((resolve, reject) => {
      this.onChange = () => {
        const end = this.received.indexOf("\r\n\r\n");
        const length = /content-length: (\d+)/i.exec(this.received)?.[1];
        if (end >= 0 && length && this.received.length >= end + 4 + Number(length)) resolve(this.received.slice(0, end).toLowerCase());
        else if (this.ended) reject(new Error(`the connection ended without an answer (${JSON.stringify(this.received)})`));
      };
      this.onChange();
    });
  }

  close() {
    this.socket.destroy();
  }
}

describe("the service process on SIGTERM (contract §16)", { skip: onPostgres }, () => {
  it("answers every request sent on its kept-alive connections, each with Connection: close, resets none, and exits", async () => {
    const service = startService({ DATABASE_URL: "" });
    const port = Number(new URL(await service.base).port);
    await waitForHealth(await service.base);

    // Idle kept-alive connections whose next request is written just after the shutdown began.
    const idle = [1, 2, 3, 4].map(() => new HandDrivenConnection(port));
    for (const connection of idle) expect(await connection.ask()).toContain("connection: keep-alive");

    // Clients asking one request after another on their kept-alive connections, until the service refuses a new
    // connection (which a client retries elsewhere). The signal goes once they have had 100 answers in all. Each client
    // has a connection of its own: with a shared pool, a client's next request could go out on a new connection
    // (refused) while its last answer's connection, kept alive, went on serving another client.
    const agents: Agent[] = [];
    let answered = 0;
    const client = async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      const connectionHeaders: (string | undefined)[] = [];
      for (let i = 0; i < 2_000; i++) {
        try {
          connectionHeaders.push((await healthOver(agent, port)).connection);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          return { connectionHeaders, error: code === "ECONNREFUSED" ? undefined : (code ?? String(error)) };
        }
        if (++answered === 100) service.child.kill("SIGTERM");
      }
      return { connectionHeaders, error: "never refused" };
    };
    const clients = Promise.all(Array.from({ length: 8 }, client));

    await service.said('"msg":"shutting down"');
    const lateAnswers = await Promise.allSettled(idle.map((connection) => connection.ask()));
    const clientRuns = await clients;
    for (const agent of agents) agent.destroy();
    for (const connection of idle) connection.close();

    expect(lateAnswers.map((answer) => (answer.status === "fulfilled" ? /connection: close/.test(answer.value) : String(answer.reason)))).toEqual(
      idle.map(() => true),
    );
    // No request failed, and each client's connection was closed by an answer saying so, never under its next request.
    expect(clientRuns.map((run) => [run.error, run.connectionHeaders.at(-1)])).toEqual(clientRuns.map(() => [undefined, "close"]));
    expect(await service.exited).toBe(0);
    expect(service.output()).not.toContain("grace period over");
  }, 90_000);
});
