import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { revokedTokens } from "../../src/tables/user.table.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";
import { decodeJwt } from "../helpers/jwt.js";
import { linkIn } from "../helpers/smtp-server.js";
import { makeUser, type MadeUser } from "../factories/users.js";

// Each instance keeps the sessions it read for a while (src/modules/users/session-cache.ts); these tests hold it to
// what authenticate() promises without it: a session ended anywhere is refused everywhere from the next request on.
const t = useTestApp();
const other = useSecondInstance(t);

const INVALID = { message: "Token inválido ou expirado", success: false };
const profile = (app: TestApp, user: Pick<MadeUser, "token">) => app.get("/api/users/profile", { token: user.token });

/** The statements `app` sends while `run` runs. */
async function statementsDuring(app: TestApp, run: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const stop = app.database.observeQueries((statement) => statements.push(statement));
  try {
    await run();
  } finally {
    stop();
  }
  return statements;
}

describe("the sessions an instance keeps", () => {
  it("spare the session query on the next request with the same token", async () => {
    const ana = await makeUser(t);
    expect((await profile(other, ana)).status).toBe(200);
    const statements = await statementsDuring(other, async () => expect((await profile(other, ana)).status).toBe(200));
    // The profile itself is still read, so the statements were observed: the empty list below is not vacuous.
    expect(statements.some((statement) => statement.includes('from "users"'))).toBe(true);
    expect(statements.filter((statement) => statement.includes("revoked_tokens"))).toEqual([]);
  });

  it("are refused at once on every instance after a password reset on one of them", async () => {
    other.clock.set(t.clock.now());
    const ana = await makeUser(t, { email: "ana@example.com", password: "senha-antiga" });
    expect((await profile(t, ana)).status).toBe(200);
    expect((await profile(other, ana)).status).toBe(200);
    expect((await t.post("/api/users/forgot-password", { body: { email: ana.email } })).status).toBe(200);
    await t.deliverMail();
    const link = new URL(linkIn(t.smtp.to(ana.email)[0], "https://app.fitness.test/reset-password?token="));
    const reset = await t.post("/api/users/reset-password", { body: { token: link.searchParams.get("token"), password: "senha-nova" } });
    expect(reset.status).toBe(200);
    for (const app of [other, t]) {
      const res = await profile(app, ana);
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: INVALID });
    }
  });

  it("are refused at once on the other instance after a logout, over GraphQL too", async () => {
    const ana = await makeUser(t);
    const me = (app: TestApp) => app.graphql<{ me: { id: number } }>("{ me { id } }", {}, ana.token);
    expect((await me(t)).data?.me.id).toBe(ana.id);
    expect((await me(other)).data?.me.id).toBe(ana.id);
    expect((await other.post("/api/users/logout", { token: ana.token })).status).toBe(200);
    const answer = await me(t);
    expect(answer.errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });

  // PGlite lives inside this process: its notifications cannot be lost. On PostgreSQL the listening connection can.
  it.runIf(process.env.DATABASE_URL)("are forgotten when the instance stops hearing the others, and kept again once it listens again", async () => {
    const ana = await makeUser(t);
    expect((await profile(other, ana)).status).toBe(200);
    const interrupted = new Promise<void>((resolve) => other.app.bus.subscribe("sessions", { message: () => undefined, interrupted: resolve }));
    // Every instance's listening connection, cut as a restart of PostgreSQL or a network failure would.
    await t.db.execute(
      sql`select pg_terminate_backend(pid, 5000) from pg_stat_activity where datname = current_database() and application_name = 'instance_bus'`,
    );
    await interrupted;
    // A revocation nobody announced: only the database knows it now.
    const { jti, exp } = decodeJwt(ana.token).payload;
    await t.db.insert(revokedTokens).values({ jti, userId: ana.id, expiresAt: new Date(exp * 1000) });
    expect((await profile(other, ana)).status).toBe(401);

    await vi.waitFor(() => expect(other.app.bus.live && t.app.bus.live).toBe(true), { timeout: 10_000 });
    const bia = await makeUser(t);
    expect((await profile(other, bia)).status).toBe(200);
    expect((await t.post("/api/users/logout", { token: bia.token })).status).toBe(200);
    expect((await profile(other, bia)).status).toBe(401);
  });
});
