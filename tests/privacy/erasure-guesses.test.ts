import { describe, expect, it } from "vitest";
import { makeStudent } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp({ LOGIN_FAILURES_PER_EMAIL: "2" });

describe("DELETE /api/users/me with wrong passwords", () => {
  it("answers 429 with Retry-After past the login's failure limit, even to the right password, until the window ends", async () => {
    const ana = await makeStudent(t);
    for (let i = 0; i < 2; i++) expect((await t.delete("/api/users/me", { token: ana.token, body: { password: `errada-${i}` } })).status).toBe(400);

    const locked = await t.delete("/api/users/me", { token: ana.token, body: { password: ana.password } });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ message: "Muitas requisições. Tente novamente mais tarde.", success: false });
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);

    t.clock.advance(15 * 60_000 + 1000);
    expect((await t.delete("/api/users/me", { token: ana.token, body: { password: ana.password } })).status).toBe(204);
  });
});
