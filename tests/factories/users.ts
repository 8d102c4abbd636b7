import type { TestApp } from "../helpers/test-app.js";

let sequence = 0;

export interface MadeUser {
  id: number;
  email: string;
  password: string;
  token: string;
  user: Record<string, any>;
}

/** Registers a user through the real endpoint (web sign-up: already confirmed, no e-mail). */
export async function makeUser(
  t: TestApp,
  overrides: Partial<{ name: string; email: string; password: string; userType: "ALUNO" | "PERSONAL" }> = {},
): Promise<MadeUser> {
  sequence += 1;
  const body = {
    name: overrides.name ?? `Usuário ${sequence}`,
    email: overrides.email ?? `user${sequence}-${Date.now()}@example.com`,
    password: overrides.password ?? "senha-forte-1",
    userType: overrides.userType ?? "ALUNO",
    requestLocation: "WEB",
    confirmed: true,
  };
  const res = await t.post("/api/users/register", { body });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { id: res.body.userId, email: body.email.toLowerCase(), password: body.password, token: res.body.token, user: res.body.user };
}

export const makeStudent = (t: TestApp, overrides: Parameters<typeof makeUser>[1] = {}) => makeUser(t, { ...overrides, userType: "ALUNO" });
export const makeTrainer = (t: TestApp, overrides: Parameters<typeof makeUser>[1] = {}) => makeUser(t, { ...overrides, userType: "PERSONAL" });

/** Fresh tokens at the current test clock (tokens live 24 hours of that clock), written back into each user. */
export async function relogin(t: TestApp, ...people: Array<Pick<MadeUser, "email" | "password" | "token">>): Promise<void> {
  for (const user of people) {
    const res = await t.post("/api/users/login", { body: { email: user.email, password: user.password } });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
    user.token = res.body.token;
  }
}
