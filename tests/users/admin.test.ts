import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { userRepository } from "../../src/modules/users/user.repository.js";
import { users } from "../../src/tables/user.table.js";
import { openDatabase } from "../../src/platform/db/database.js";
import { useTestApp } from "../helpers/test-app.js";
import { serviceDatabaseEnv } from "../helpers/database.js";
import { decodeJwt } from "../helpers/jwt.js";
import { holdDataDirectory, startService, type ServiceProcess } from "../helpers/service-process.js";
import { makeTrainer, makeUser } from "../factories/users.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com, Chief@Example.com" });

const root = path.resolve(import.meta.dirname, "../..");
const DENIED = { message: "Acesso negado", success: false };

const isAdmin = async (id: number) => (await t.db.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, id)))[0].isAdmin;

describe("ADMIN_EMAILS at registration", () => {
  it("makes a listed e-mail an administrator, whatever its letter case", async () => {
    const boss = await makeUser(t, { email: "boss@example.com" });
    const chief = await makeUser(t, { email: "CHIEF@example.COM" });
    expect(decodeJwt(boss.token).payload.role).toBe("ADMIN");
    expect(decodeJwt(chief.token).payload.role).toBe("ADMIN");
    expect(await isAdmin(boss.id)).toBe(true);
    expect(await isAdmin(chief.id)).toBe(true);
    // The administrator flag is not part of the user shape of api-spec.md.
    expect(boss.user).not.toHaveProperty("isAdmin");
  });

  it("leaves an e-mail that is not listed a normal user", async () => {
    const ana = await makeUser(t, { email: "ana@example.com" });
    const almost = await makeUser(t, { email: "boss@example.com.br" });
    for (const user of [ana, almost]) {
      expect(decodeJwt(user.token).payload).not.toHaveProperty("role");
      expect(await isAdmin(user.id)).toBe(false);
    }
  });

  it("gives the administrator's later logins role ADMIN too", async () => {
    await makeUser(t, { email: "boss@example.com", password: "segredo1" });
    const res = await t.post("/api/users/login", { body: { email: "Boss@Example.com", password: "segredo1" } });
    expect(res.status).toBe(200);
    expect(decodeJwt(res.body.token).payload.role).toBe("ADMIN");
  });
});

describe("what an administrator may do", () => {
  it("reads any user, while a normal user gets 403 Acesso negado", async () => {
    const boss = await makeUser(t, { email: "boss@example.com" });
    const ana = await makeUser(t, { name: "Ana", email: "ana@example.com" });
    const bia = await makeTrainer(t, { name: "Bia", email: "bia@example.com" });

    const read = await t.get(`/api/users/${ana.id}`, { token: boss.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(ana.user);

    const denied = await t.get(`/api/users/${ana.id}`, { token: bia.token });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(DENIED);
    const deniedToo = await t.get(`/api/users/${boss.id}`, { token: ana.token });
    expect(deniedToo.status).toBe(403);
    expect(deniedToo.body).toEqual(DENIED);
  });

  it("renames any user, while a normal user gets 403 and nothing changes", async () => {
    const boss = await makeUser(t, { email: "boss@example.com" });
    const ana = await makeUser(t, { name: "Ana", email: "ana@example.com" });
    const bia = await makeUser(t, { name: "Bia", email: "bia@example.com" });

    const denied = await t.patch(`/api/users/${ana.id}`, { token: bia.token, body: { name: "Hacked" } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual(DENIED);
    expect((await userRepository.findById(t.db, ana.id))!.name).toBe("Ana");

    const renamed = await t.patch(`/api/users/${ana.id}`, { token: boss.token, body: { name: "Ana Souza" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: ana.id, name: "Ana Souza", email: "ana@example.com" });
    expect((await userRepository.findById(t.db, ana.id))!.name).toBe("Ana Souza");
    expect((await t.get("/api/users/profile", { token: ana.token })).body.name).toBe("Ana Souza");
  });

  it("gets 404 Usuário não encontrado for a user that does not exist", async () => {
    const boss = await makeUser(t, { email: "boss@example.com" });
    for (const res of [
      await t.get("/api/users/999999", { token: boss.token }),
      await t.patch("/api/users/999999", { token: boss.token, body: { name: "Ninguém" } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Usuário não encontrado", success: false });
    }
  });

  it("gets the same 400 as anyone for a blank name", async () => {
    const boss = await makeUser(t, { email: "boss@example.com" });
    const ana = await makeUser(t, { name: "Ana", email: "ana@example.com" });
    const res = await t.patch(`/api/users/${ana.id}`, { token: boss.token, body: { name: "   " } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: "Nome não pode estar vazio", success: false });
    expect((await userRepository.findById(t.db, ana.id))!.name).toBe("Ana");
  });

  it("keeps its rights only while its token is valid", async () => {
    const boss = await makeUser(t, { email: "boss@example.com" });
    const ana = await makeUser(t, { email: "ana@example.com" });
    await t.post("/api/users/logout", { token: boss.token });
    const res = await t.get(`/api/users/${ana.id}`, { token: boss.token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });
});

// ---------------------------------------------------------------------------------------------------------
// The process side: `npm run admin -- grant <email>` and ADMIN_EMAILS applied when the service starts.

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

// The tests below run concurrently (each has its own directory and processes, mostly waiting on them): what they
// leave is removed once they are all done.
const scratchDirs: string[] = [];
afterAll(() => {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh data directory (embedded database) for a process of the service. */
function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fitness-admin-"));
  scratchDirs.push(dir);
  return dir;
}

/**
 * A migrated embedded database with these accounts (password "segredo1"), made once for the file: each test gets a
 * copy. A new PGlite directory costs seconds of CPU (initdb, then the migrations); copying its files costs nothing.
 */
const SEEDED = ["ana@example.com", "bia@example.com", "boss@example.com"];
let seeded: string;
beforeAll(async () => {
  seeded = mkdtempSync(path.join(tmpdir(), "fitness-admin-seeded-"));
  const database = await openDatabase({ dataDir: seeded });
  try {
    await database.migrate();
    const passwordHash = bcrypt.hashSync("segredo1", 4);
    for (const email of SEEDED) {
      await userRepository.insert(database.db, { name: email.split("@")[0], email, passwordHash, userType: "ALUNO", emailConfirmed: true });
    }
  } finally {
    await database.close();
  }
}, 60_000);
afterAll(() => rmSync(seeded, { recursive: true, force: true }));

function seededDir(): string {
  const dir = scratchDir();
  cpSync(seeded, dir, { recursive: true });
  return dir;
}

/** `npm run admin -- <args>` with its own environment; by default on the embedded database under `dataDir`. */
function adminCli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "admin", "--", ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: "development", DATABASE_URL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function adminFlags(dataDir: string): Promise<Record<string, boolean>> {
  const database = await openDatabase({ dataDir });
  try {
    const rows = await database.db.select({ email: users.email, isAdmin: users.isAdmin }).from(users);
    return Object.fromEntries(rows.map((row) => [row.email, row.isAdmin]));
  } finally {
    await database.close();
  }
}

const NO_ADMIN = Object.fromEntries(SEEDED.map((email) => [email, false]));

// Not concurrent: it uses the test app's database, which each test's start resets.
describe("npm run admin -- grant <email> on PostgreSQL", () => {
  // On PostgreSQL the CLI can reach the very database the running test app uses (this worker's clone).
  it.runIf(process.env.DATABASE_URL)(
    "grants on the service's database: the user's next token is an administrator's",
    async () => {
      const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
      const bia = await makeUser(t, { email: "bia@example.com" });
      expect((await t.get(`/api/users/${bia.id}`, { token: ana.token })).status).toBe(403);

      const workerDb = inject("pgTemplate")!.replace(/_tpl$/, `_w${process.env.VITEST_POOL_ID ?? "0"}`);
      const run = await adminCli(["grant", "ana@example.com"], serviceDatabaseEnv(workerDb));
      expect(run.code).toBe(0);
      expect(await isAdmin(ana.id)).toBe(true);

      // The flag is read from the database on every call, so even the token issued before works as an administrator's.
      expect((await t.get(`/api/users/${bia.id}`, { token: ana.token })).status).toBe(200);
      const login = await t.post("/api/users/login", { body: { email: "ana@example.com", password: "segredo1" } });
      expect(decodeJwt(login.body.token).payload.role).toBe("ADMIN");
    },
    60_000,
  );
});

/**
 * The CLI and the service below run on the embedded database whatever the suite's database: the runs on PostgreSQL
 * (and through PgBouncer) would repeat them as they are, for minutes of CPU.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

// These run together, a dozen processes on shared cores: a test may wait as long as all of them take.
describe("npm run admin -- grant <email>", { concurrent: true, skip: onPostgres, timeout: 180_000 }, () => {
  it.each([
    ["no arguments", []],
    ["an unknown command", ["revoke", "ana@example.com"]],
    ["grant without an e-mail", ["grant"]],
  ])("exits with 2 and the usage for %s, touching no database", async (_label, args) => {
    const dataDir = scratchDir();
    const run = await adminCli(args, { DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("usage: npm run admin -- grant <email>");
    expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
  });

  it("exits with 1 and says so for an e-mail without an account", async () => {
    const dataDir = seededDir();
    const run = await adminCli(["grant", "ghost@example.com"], { DATA_DIR: dataDir });
    expect(run).toMatchObject({ code: 1, stderr: expect.stringContaining("no account with e-mail ghost@example.com") });
    expect(await adminFlags(dataDir)).toEqual(NO_ADMIN);
  });

  it("makes the account an administrator, whatever the letter case and spaces given, and only that account", async () => {
    const dataDir = seededDir();
    const run = await adminCli(["grant", "  Ana@Example.COM "], { DATA_DIR: dataDir });
    expect(run).toMatchObject({ code: 0, stdout: "ana@example.com is an administrator\n" });
    expect(await adminFlags(dataDir)).toEqual({ ...NO_ADMIN, "ana@example.com": true });
  });

  it("refuses in one line, saying what to do, when the process that holds the directory does not answer", async () => {
    const dataDir = seededDir();
    const holder = await holdDataDirectory(path.join(dataDir, "pglite"));
    try {
      // Its socket gone: as a process that has just taken the directory and not listened yet, or one that hangs.
      rmSync(path.join(dataDir, "admin.sock"));
      const run = await adminCli(["grant", "ana@example.com"], { DATA_DIR: dataDir });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `the database directory ${path.join(dataDir, "pglite")} is in use by process ${holder.child.pid} on ${hostname()}, ` +
          "whose admin socket does not answer: run this again once it has started, or stop it first\n",
      );
    } finally {
      holder.child.kill("SIGKILL");
      await holder.exited;
    }
    expect(await adminFlags(dataDir)).toEqual(NO_ADMIN);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The service as a process on the embedded database: it owns the directory, so the CLI goes through it.

/** Logs in over HTTP (password "segredo1"): the account's id and token. */
async function login(base: string, email: string): Promise<{ id: number; token: string }> {
  const res = await fetch(`${base}/api/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "segredo1" }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { token: string; user: { id: number } };
  return { id: body.user.id, token: body.token };
}

/** An administrator-only request: reading another account. */
async function readUser(base: string, id: number, token: string): Promise<number> {
  return (await fetch(`${base}/api/users/${id}`, { headers: { authorization: `Bearer ${token}` } })).status;
}

async function stop(service: ServiceProcess) {
  service.child.kill("SIGTERM");
  expect(await service.exited).toBe(0);
}

/** Every service process a test started: none outlives the file, even one whose test failed half-way. */
const services: ServiceProcess[] = [];
afterAll(() => {
  for (const service of services.splice(0)) if (service.child.exitCode === null) service.child.kill("SIGKILL");
});
function startServiceOn(env: Record<string, string>): ServiceProcess {
  const service = startService(env);
  services.push(service);
  return service;
}

describe("the service on the embedded database", { concurrent: true, skip: onPostgres, timeout: 180_000 }, () => {
  // One service's life, start to restart: each start costs seconds of CPU.
  it("applies ADMIN_EMAILS at start, refuses a second service on its directory, applies npm run admin's grant at once and keeps it across a restart", async () => {
    const dataDir = seededDir();
    const env = { DATABASE_URL: "", DATA_DIR: dataDir, ADMIN_EMAILS: "BOSS@example.com,nobody-yet@example.com" };
    let service = startServiceOn(env);
    try {
      let base = await service.base;
      // ADMIN_EMAILS: listed accounts that already exist are administrators from the start, others are not.
      expect(decodeJwt((await login(base, "boss@example.com")).token).payload.role).toBe("ADMIN");
      const ana = await login(base, "ana@example.com");
      const bia = await login(base, "bia@example.com");
      expect(decodeJwt(ana.token).payload).not.toHaveProperty("role");
      expect(await readUser(base, bia.id, ana.token)).toBe(403);

      // A second service on the same files would lose the first one's writes: it is refused, and says why.
      const second = startServiceOn(env);
      const refused = await Promise.race([second.exited, second.base.then(() => "listening")]);
      if (refused === "listening") second.child.kill("SIGKILL");
      expect(refused).toBe(1);
      expect(second.output()).toContain(`the database directory ${path.join(dataDir, "pglite")} is in use by process ${service.child.pid}`);
      expect(second.output()).toContain("stop that process first");

      // The grant goes through the running service: the token issued before it works as an administrator's at once.
      const run = await adminCli(["grant", "Ana@Example.com"], { DATA_DIR: dataDir });
      expect(run).toMatchObject({ code: 0, stdout: "ana@example.com is an administrator\n" });
      expect(await readUser(base, bia.id, ana.token)).toBe(200);
      // Granting again changes nothing and still succeeds.
      expect(await adminCli(["grant", "ana@example.com"], { DATA_DIR: dataDir })).toMatchObject({ code: 0 });

      const ghost = await adminCli(["grant", "ghost@example.com"], { DATA_DIR: dataDir });
      expect(ghost.code).toBe(1);
      expect(ghost.stderr).toContain("no account with e-mail ghost@example.com");

      await stop(service);
      service = startServiceOn(env);
      base = await service.base;
      expect(await readUser(base, bia.id, ana.token)).toBe(200);
      expect(decodeJwt((await login(base, "ana@example.com")).token).payload.role).toBe("ADMIN");
      // Only that account.
      expect(await readUser(base, ana.id, bia.token)).toBe(403);
    } finally {
      await stop(service);
    }
  });
});
