import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startService as startServiceProcess, waitForHealth } from "../helpers/service-process.js";

const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-main-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The service on this file's data directory (the embedded database unless the run is on PostgreSQL). */
const startService = (env: Record<string, string> = {}) => startServiceProcess({ DATA_DIR: dataDir, ...env });

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
});
