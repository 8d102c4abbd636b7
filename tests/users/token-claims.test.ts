import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { decodeJwt } from "../helpers/jwt.js";
import { makeUser } from "../factories/users.js";

const t = useTestApp();

const INVALID = { message: "Token inválido ou expirado", success: false };

/** A token signed with the service's own secret, carrying claims it never issues. */
function signed(claims: Record<string, unknown>): string {
  const encoded = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString("base64url")}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${encoded}.${createHmac("sha256", t.config.jwtSecret).update(encoded).digest("base64url")}`;
}

describe("a correctly signed token with claims the service never issues", () => {
  it.each([
    ["a subject past the id column's range", { sub: "2147483648" }],
    ["a subject of 20 digits", { sub: "99999999999999999999" }],
    ["a subject with leading zeros", { sub: "0001" }],
    ["a token id holding U+0000", { jti: "a\u0000b" }],
    ["a token id of 10,000 characters", { jti: "j".repeat(10_000) }],
    ["an expiry past any date", { exp: 1e20 }],
  ])("is refused with 401 Token inválido ou expirado: %s", async (_label, changes) => {
    const user = await makeUser(t);
    const token = signed({ ...decodeJwt(user.token).payload, ...changes });

    for (const [method, url] of [
      ["GET", "/api/users/profile"],
      ["POST", "/api/users/logout"],
    ]) {
      const rest = await t.request(method, url, { token });
      expect({ url, status: rest.status, body: rest.body }).toEqual({ url, status: 401, body: INVALID });
    }

    const graphql = await t.graphql("{ me { id } }", undefined, token);
    expect(graphql.errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });
});
