import type { TestApp } from "../helpers/test-app.js";
import type { MadeUser } from "../factories/users.js";

/** A personal access token of `user` with these scopes, created through the API. */
export async function personalToken(t: TestApp, user: Pick<MadeUser, "token">, scopes: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await t.post("/api/users/me/tokens", { token: user.token, body: { name: `ferramenta ${scopes.join(" ")}`, scopes, ...extra } });
  if (res.status !== 201) throw new Error(`token not created: ${res.status} ${res.text}`);
  return res.body.token;
}
