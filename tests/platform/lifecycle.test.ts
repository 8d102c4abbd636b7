import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-main-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * Starts the service on a port the system picks (PORT=0), read back from its "listening" log line: a port chosen here
 * and handed over could be taken by another worker's app meanwhile, and the test would then talk to that app.
 */
function startService(env: Record<string, string> = {}): {
  child: ChildProcess;
  output: () => string;
  errors: () => string;
  exited: Promise<number | null>;
  base: Promise<string>;
} {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/main.ts")], {
    cwd: root,
    // On the embedded database unless the run is on PostgreSQL: then against the same server the tests use.
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "info", NODE_ENV: "development", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const base = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk) => {
      text += chunk;
      const port = /"port":(\d+).*"msg":"listening"/.exec(text)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    void exited.then((code) => reject(new Error(`the service exited (${code}) before listening:\n${text}`)));
  });
  base.catch(() => undefined);
  let errors = "";
  child.stderr?.on("data", (chunk) => {
    text += chunk;
    errors += chunk;
  });
  return { child, output: () => text, errors: () => errors, exited, base };
}

async function waitForHealth(base: string, deadlineMs = 45_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if ((await fetch(`${base}/readyz`)).status === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("service did not become ready");
}

describe("the service process", () => {
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
