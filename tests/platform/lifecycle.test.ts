import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-main-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startService(port: number, env: Record<string, string> = {}): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/main.ts")], {
    cwd: root,
    // On the embedded database unless the run is on PostgreSQL: then against the same server the tests use.
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "info", NODE_ENV: "development", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  child.stdout?.on("data", (chunk) => (text += chunk));
  child.stderr?.on("data", (chunk) => (text += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => text, exited };
}

async function waitForHealth(base: string, deadlineMs = 45_000) {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("service did not become ready");
}

describe("the service process", () => {
  it("starts on the embedded database, applies migrations, serves, and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const service = startService(port, { DATABASE_URL: "" });
    const base = `http://127.0.0.1:${port}`;
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
    const port = await freePort();
    const service = startService(port, { DATABASE_URL: "" });
    const base = `http://127.0.0.1:${port}`;
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
    const service = startService(await freePort(), { NODE_ENV: "production", JWT_SECRET: "", DATABASE_URL: "" });
    expect(await service.exited).toBe(1);
    expect(service.output()).toContain("JWT_SECRET must be set to at least 32 bytes");
  }, 30_000);
});
