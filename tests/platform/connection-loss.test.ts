import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { useTemplateClone } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";

/*
 * A PostgreSQL backend lost mid-transaction (a restart, a failover, pg_terminate_backend) must fail only the work on
 * it: postgres.js 3.4.9 instead crashes the process (porsager/postgres#1208), which patches/postgres+3.4.9.patch fixes.
 */
const root = path.resolve(import.meta.dirname, "../..");
const databaseUrl = process.env.DATABASE_URL;
const template = databaseUrl ? inject("pgTemplate") : null;
/**
 * What a transaction whose backend was terminated may be rejected with: the connection's loss, nothing else (through
 * PgBouncer, its "server conn crashed?", 08P01).
 */
const LOST_CONNECTION = ["CONNECTION_CLOSED", "ECONNRESET", "EPIPE", "57P01", "08P01"];

/** Terminates, `rounds` times, every backend postgres.js has on `database` (the service's pools), but the caller's. */
async function terminateBackends(admin: postgres.Sql, database: string, rounds: number): Promise<number> {
  let terminated = 0;
  for (let round = 0; round < rounds; round++) {
    const rows = await admin`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = ${database} and application_name = 'postgres.js' and pid <> pg_backend_pid()`;
    terminated += rows.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return terminated;
}

describe("postgres.js as installed", () => {
  // The service loads the ESM build; the CommonJS one is what a require() of postgres would get.
  const builds = { esm: "postgres/src/connection.js", cjs: "postgres/cjs/src/connection.js" };
  it.each(Object.entries(builds))("carries the patch against writes to a closed socket in its %s build", (_, file) => {
    const source = readFileSync(path.join(root, "node_modules", file), "utf8");
    expect(source).toMatch(/function nextWrite\(fn\) \{\s+if \(!socket\) \{/);
  });
});

describe.skipIf(!template)("backends terminated under writes (PostgreSQL; PGlite runs in-process, has no backends)", () => {
  const clone = useTemplateClone("connection_loss");

  it("a process running transactions survives: the lost ones reject with the connection's error, later ones commit", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "tests/platform/connection-loss-writer.ts")], {
      cwd: root,
      env: { ...process.env, ...clone.env() },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", () => stdout.includes("writing") && resolve());
      void exited.then(() => reject(new Error(`the writer exited before writing: ${stderr}`)));
    });

    const terminated = await terminateBackends(clone.admin(), clone.name, 40);
    child.stdin.end("stop\n");

    expect({ code: await exited, stderr }).toEqual({ code: 0, stderr: "" });
    const report = JSON.parse(stdout.trim().split("\n").at(-1)!) as { committed: number; failures: string[]; committedAfter: number };
    expect(terminated).toBeGreaterThan(0);
    expect(report.failures.length).toBeGreaterThan(0);
    expect(report.failures.filter((code) => !LOST_CONNECTION.includes(code))).toEqual([]);
    expect(report.committedAfter).toBe(10);
  });

  describe("through the HTTP app", () => {
    const t = useTestApp();

    it("answers only 2xx or 503 Serviço temporariamente indisponível while its backends are terminated under writes, and serves after", async () => {
      const [{ database }] = (await t.database.db.execute(sql`select current_database() as database`)) as unknown as Array<{ database: string }>;
      let stopped = false;
      let sequence = 0;
      const register = () =>
        t.post("/api/users/register", {
          body: {
            name: "Escritor",
            email: `writer${++sequence}@example.com`,
            password: "senha-forte-1",
            userType: "ALUNO",
            requestLocation: "WEB",
            confirmed: true,
          },
        });
      const answers: Array<{ status: number; text: string; retryAfter: string | null }> = [];
      const writers = Array.from({ length: 8 }, async () => {
        while (!stopped) {
          const answer = await register();
          answers.push({ status: answer.status, text: answer.text, retryAfter: answer.headers.get("retry-after") });
        }
      });
      const terminated = await terminateBackends(clone.admin(), database, 40);
      stopped = true;
      await Promise.all(writers);

      expect(terminated).toBeGreaterThan(0);
      // Every refusal is the database's loss: a 503 to retry after, never a 500.
      const unclean = answers.filter(
        ({ status, text, retryAfter }) =>
          !(status >= 200 && status < 300) &&
          !(status === 503 && text === '{"message":"Serviço temporariamente indisponível","success":false}' && retryAfter === "5"),
      );
      if (unclean.length)
        console.log(
          t.logLines
            .filter((line) => line.includes('"level":50'))
            .join("\n")
            .slice(0, 8000),
        );
      expect(unclean).toEqual([]);
      expect(answers).toContainEqual({ status: 503, text: '{"message":"Serviço temporariamente indisponível","success":false}', retryAfter: "5" });
      expect((await register()).status).toBe(201);
    });
  });
});
