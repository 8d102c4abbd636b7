import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { users } from "../../src/tables/user.table.js";
import { useTestApp, type GraphqlError } from "../helpers/test-app.js";
import { linkIn } from "../helpers/smtp-server.js";
import { rowsOf } from "../helpers/database.js";
import { makeUser } from "../factories/users.js";

const t = useTestApp();

const USER_FIELDS = `
  fragment UserFields on User {
    id name email userType profilePicture phone birthDate gender height weight
    subscriptionType subscriptionExpirationDate emailConfirmed createdAt updatedAt
  }`;

const REGISTER = `
  mutation Register($input: RegisterInput!) {
    register(input: $input) { user { ...UserFields } token userId success }
  }
  ${USER_FIELDS}`;
const LOGIN = `
  mutation Login($input: LoginInput!) {
    login(input: $input) { user { ...UserFields } token userId success }
  }
  ${USER_FIELDS}`;
const FIREBASE_LOGIN = `mutation ($firebaseToken: String!) { firebaseLogin(firebaseToken: $firebaseToken) { token userId success } }`;
const REFRESH = `mutation { refreshToken { token success } }`;
const LOGOUT = `mutation { logout { message success } }`;
const FORGOT = `mutation ($email: String!) { forgotPassword(email: $email) { message success } }`;
const RESET = `mutation ($token: String!, $password: String!) { resetPassword(token: $token, password: $password) { message success } }`;
const CONFIRM = `mutation ($token: String!) { confirmEmail(token: $token) { message success } }`;
const ME = `query { me { ...UserFields } } ${USER_FIELDS}`;
const USER = `query ($id: Int!) { user(id: $id) { ...UserFields } } ${USER_FIELDS}`;
const UPDATE_PROFILE = `mutation ($input: ProfileInput!) { updateProfile(input: $input) { ...UserFields } } ${USER_FIELDS}`;
const RENAME = `mutation ($id: Int!, $name: String!) { renameUser(id: $id, name: $name) { ...UserFields } } ${USER_FIELDS}`;
const UPDATE_PHOTO = `mutation ($userId: Int!, $file: Upload!) { updateProfilePhoto(userId: $userId, file: $file) { id profilePicture updatedAt } }`;

const registration = {
  name: "Bruno Lima",
  email: "Bruno.Lima@Example.com",
  password: "segredo1",
  userType: "PERSONAL",
  requestLocation: "WEB",
  confirmed: true,
};

// A complete 1×1 PNG: the type is judged from these bytes.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

/** The one error of a GraphQL answer. */
function onlyError(body: { errors?: GraphqlError[] }): GraphqlError {
  expect(body.errors).toHaveLength(1);
  return body.errors![0];
}

/** A GraphQL multipart request (graphql-multipart-request-spec): operations, map, then the file part. */
async function uploadPhoto(userId: number, bytes: Buffer, token?: string, filename = "foto.png", type = "image/png") {
  const form = new FormData();
  form.append("operations", JSON.stringify({ query: UPDATE_PHOTO, variables: { userId, file: null } }));
  form.append("map", JSON.stringify({ 0: ["variables.file"] }));
  form.append("0", new Blob([new Uint8Array(bytes)], { type }), filename);
  return t.post("/graphql", { raw: form, token });
}

async function restUpload(userId: number, bytes: Buffer, token: string) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "foto.png");
  return t.post(`/api/users/${userId}/update-profile-photo`, { raw: form, token });
}

async function pictureOf(userId: number) {
  const [row] = await t.db.select({ profilePicture: users.profilePicture }).from(users).where(eq(users.id, userId));
  return row.profilePicture;
}

function storedFiles(): string[] {
  return existsSync(t.uploadsDir) ? readdirSync(t.uploadsDir) : [];
}

async function userCount() {
  const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from users`));
  return row.n;
}

describe("GraphQL register", () => {
  it("creates the account and answers the same session shape as REST", async () => {
    const body = await t.graphql(REGISTER, { input: registration });
    expect(body.errors).toBeUndefined();
    const session = body.data.register;
    expect(session).toMatchObject({
      success: true,
      userId: expect.any(Number),
      token: expect.any(String),
      user: {
        name: "Bruno Lima",
        email: "bruno.lima@example.com",
        userType: "PERSONAL",
        profilePicture: null,
        subscriptionType: "FREEMIUM",
        emailConfirmed: true,
      },
    });
    expect(session.user.id).toBe(session.userId);
    expect(session.user.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const [row] = await t.db.select().from(users).where(eq(users.id, session.userId));
    expect(row.email).toBe("bruno.lima@example.com");
    expect(row.passwordHash).toMatch(/^\$2[aby]\$/);
  });

  it("answers CONFLICT 409 with the REST message when the e-mail is taken", async () => {
    await t.graphql(REGISTER, { input: registration });
    const body = await t.graphql(REGISTER, { input: { ...registration, email: "BRUNO.LIMA@example.com" } });
    expect(body.data).toBeNull();
    const error = onlyError(body);
    expect(error.message).toBe("Email já registrado");
    expect(error.extensions).toEqual({ code: "CONFLICT", status: 409 });
    expect(await userCount()).toBe(1);
  });

  it("sends an app sign-up the confirmation e-mail, and confirmEmail confirms the address once", async () => {
    const body = await t.graphql(REGISTER, { input: { ...registration, requestLocation: "APP", confirmed: false } });
    const { token: session } = body.data.register;
    expect(body.data.register.user.emailConfirmed).toBe(false);
    expect(await t.deliverMail()).toBe(1);
    const [mail] = t.smtp.to("bruno.lima@example.com");
    const token = new URL(linkIn(mail, "https://app.fitness.test/confirm-email?token=")).searchParams.get("token")!;

    const confirmed = await t.graphql(CONFIRM, { token });
    expect(confirmed).toEqual({ data: { confirmEmail: { message: "E-mail confirmado com sucesso", success: true } } });
    expect((await t.graphql(ME, {}, session)).data.me.emailConfirmed).toBe(true);

    const again = await t.graphql(CONFIRM, { token });
    const error = onlyError(again);
    expect(error.message).toBe("Token inválido ou expirado");
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400 });
  });
});

describe("GraphQL login and session", () => {
  it("logs in and answers the user, a working token and the user id", async () => {
    const made = await makeUser(t, { password: "segredo-123" });
    const body = await t.graphql(LOGIN, { input: { email: made.email.toUpperCase(), password: "segredo-123" } });
    expect(body.errors).toBeUndefined();
    expect(body.data.login).toMatchObject({ success: true, userId: made.id, user: { id: made.id, email: made.email } });
    const profile = await t.get("/api/users/profile", { token: body.data.login.token });
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(made.id);
  });

  it("answers BAD_USER_INPUT 400 Credenciais inválidas to a wrong password", async () => {
    const made = await makeUser(t);
    const error = onlyError(await t.graphql(LOGIN, { input: { email: made.email, password: "errada-123" } }));
    expect(error.message).toBe("Credenciais inválidas");
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400 });
  });

  it("answers NOT_FOUND 404 to an unknown e-mail", async () => {
    const error = onlyError(await t.graphql(LOGIN, { input: { email: "ninguem@example.com", password: "segredo1" } }));
    expect(error.message).toBe("Usuário não encontrado");
    expect(error.extensions).toEqual({ code: "NOT_FOUND", status: 404 });
  });

  it("answers BAD_USER_INPUT 400 to firebaseLogin when no identity provider is configured", async () => {
    await makeUser(t);
    const body = await t.graphql(FIREBASE_LOGIN, { firebaseToken: "eyJhbGciOiJSUzI1NiJ9.e30.c2ln" });
    expect(body.data).toBeNull();
    const error = onlyError(body);
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400 });
    const rest = await t.post("/api/users/firebase-login", { body: { firebaseToken: "eyJhbGciOiJSUzI1NiJ9.e30.c2ln" } });
    expect(rest.status).toBe(400);
    expect(error.message).toBe(rest.body.message);
  });

  it("refreshes the token: the new one works and the old one is revoked", async () => {
    const made = await makeUser(t);
    const body = await t.graphql(REFRESH, {}, made.token);
    expect(body.errors).toBeUndefined();
    expect(body.data.refreshToken).toEqual({ token: expect.any(String), success: true });
    const fresh = body.data.refreshToken.token;
    expect(fresh).not.toBe(made.token);
    expect((await t.graphql(ME, {}, fresh)).data.me.id).toBe(made.id);
    expect((await t.get("/api/users/profile", { token: made.token })).status).toBe(401);
    expect(onlyError(await t.graphql(ME, {}, made.token)).extensions.code).toBe("UNAUTHENTICATED");
  });

  it("answers UNAUTHENTICATED 401 to refreshToken and logout without a token", async () => {
    for (const operation of [REFRESH, LOGOUT]) {
      const error = onlyError(await t.graphql(operation));
      expect(error.message).toBe("Token inválido ou expirado");
      expect(error.extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
    }
  });

  it("logs out: the token stops working on both surfaces", async () => {
    const made = await makeUser(t);
    const body = await t.graphql(LOGOUT, {}, made.token);
    expect(body).toEqual({ data: { logout: { message: "Logout realizado com sucesso", success: true } } });
    expect(onlyError(await t.graphql(ME, {}, made.token)).extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
    expect((await t.get("/api/users/profile", { token: made.token })).status).toBe(401);
  });

  it("treats an invalid token as anonymous: login still works, me is UNAUTHENTICATED", async () => {
    const made = await makeUser(t);
    for (const token of ["not-a-jwt", `${made.token.slice(0, -4)}AAAA`]) {
      const login = await t.graphql(LOGIN, { input: { email: made.email, password: made.password } }, token);
      expect(login.errors).toBeUndefined();
      expect(login.data.login.userId).toBe(made.id);
      const me = onlyError(await t.graphql(ME, {}, token));
      expect(me.message).toBe("Token inválido ou expirado");
      expect(me.extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
    }
  });
});

describe("GraphQL password reset", () => {
  it("forgotPassword sends the reset e-mail over SMTP and resetPassword sets the new password once", async () => {
    const made = await makeUser(t, { password: "antiga-123" });
    const asked = await t.graphql(FORGOT, { email: made.email });
    expect(asked).toEqual({
      data: { forgotPassword: { message: "Enviamos um e-mail com o link para redefinir sua senha", success: true } },
    });
    expect(await t.deliverMail()).toBe(1);
    const [mail] = t.smtp.to(made.email);
    expect(mail.subject).toBe("Redefinição de senha");
    const token = new URL(linkIn(mail, "https://app.fitness.test/reset-password?token=")).searchParams.get("token")!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const reset = await t.graphql(RESET, { token, password: "nova-senha-9" });
    expect(reset).toEqual({ data: { resetPassword: { message: "Senha redefinida com sucesso", success: true } } });

    const withNew = await t.graphql(LOGIN, { input: { email: made.email, password: "nova-senha-9" } });
    expect(withNew.data.login.userId).toBe(made.id);
    const withOld = onlyError(await t.graphql(LOGIN, { input: { email: made.email, password: "antiga-123" } }));
    expect(withOld.message).toBe("Credenciais inválidas");
    // Every token issued before the reset is revoked.
    expect(onlyError(await t.graphql(ME, {}, made.token)).extensions.code).toBe("UNAUTHENTICATED");

    const again = onlyError(await t.graphql(RESET, { token, password: "outra-senha-9" }));
    expect(again.message).toBe("Token inválido ou expirado");
    expect(again.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400 });
  });

  it("answers NOT_FOUND 404 to forgotPassword for an unknown e-mail and sends nothing", async () => {
    const error = onlyError(await t.graphql(FORGOT, { email: "ninguem@example.com" }));
    expect(error.message).toBe("Usuário não encontrado");
    expect(error.extensions).toEqual({ code: "NOT_FOUND", status: 404 });
    expect(await t.deliverMail()).toBe(0);
  });

  it("keeps api-spec's own text for a short password, with the errors list", async () => {
    const made = await makeUser(t);
    await t.graphql(FORGOT, { email: made.email });
    await t.deliverMail();
    const token = new URL(linkIn(t.smtp.to(made.email)[0], "https://app.fitness.test/reset-password?token=")).searchParams.get("token")!;
    const error = onlyError(await t.graphql(RESET, { token, password: "123" }));
    expect(error.message).toBe("A senha deve ter pelo menos 6 caracteres");
    expect(error.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400 });
    expect(error.extensions.errors.map((e: { field: string }) => e.field)).toEqual(["password"]);
    // The token was not spent by the refused attempt.
    expect((await t.graphql(RESET, { token, password: "valida-123" })).data.resetPassword.success).toBe(true);
  });
});

describe("GraphQL profile", () => {
  it("me answers the signed-in user", async () => {
    const made = await makeUser(t, { name: "Carla Dias" });
    const body = await t.graphql(ME, {}, made.token);
    expect(body.errors).toBeUndefined();
    expect(body.data.me).toMatchObject({ id: made.id, name: "Carla Dias", email: made.email, userType: "ALUNO" });
  });

  it("me without a token is UNAUTHENTICATED 401", async () => {
    const body = await t.graphql(ME);
    expect(body.data).toEqual({ me: null });
    const error = onlyError(body);
    expect(error.message).toBe("Token inválido ou expirado");
    expect(error.extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
    expect(error.path).toEqual(["me"]);
  });

  it("user(id) answers oneself, FORBIDDEN 403 for an unlinked user and NOT_FOUND 404 for an unknown id", async () => {
    const me = await makeUser(t);
    const other = await makeUser(t);
    expect((await t.graphql(USER, { id: me.id }, me.token)).data.user.id).toBe(me.id);

    const denied = onlyError(await t.graphql(USER, { id: other.id }, me.token));
    expect(denied.message).toBe("Acesso negado");
    expect(denied.extensions).toEqual({ code: "FORBIDDEN", status: 403 });

    const missing = onlyError(await t.graphql(USER, { id: 999_999 }, me.token));
    expect(missing.message).toBe("Usuário não encontrado");
    expect(missing.extensions).toEqual({ code: "NOT_FOUND", status: 404 });

    expect(onlyError(await t.graphql(USER, { id: me.id })).extensions.code).toBe("UNAUTHENTICATED");
  });

  it("updateProfile changes the given fields, records the weight and leaves the rest", async () => {
    const made = await makeUser(t, { name: "Davi Rocha" });
    const body = await t.graphql(
      UPDATE_PROFILE,
      { input: { phone: " 11 99999-0000 ", birthDate: "1990-05-17", gender: "MASCULINO", height: 181.5, weight: 82.25 } },
      made.token,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.updateProfile).toMatchObject({
      id: made.id,
      name: "Davi Rocha",
      phone: "11 99999-0000",
      birthDate: "1990-05-17",
      gender: "MASCULINO",
      height: 181.5,
      weight: 82.25,
    });
    const history = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from weight_history where user_id = ${made.id}`));
    expect(history[0].n).toBe(1);
    const cleared = await t.graphql(UPDATE_PROFILE, { input: { phone: null } }, made.token);
    expect(cleared.data.updateProfile).toMatchObject({ phone: null, height: 181.5 });
  });

  it("updateProfile reports every invalid field as BAD_USER_INPUT with the errors list", async () => {
    const made = await makeUser(t);
    const error = onlyError(await t.graphql(UPDATE_PROFILE, { input: { name: "  ", height: 10, weight: 900 } }, made.token));
    expect(error.message).toBe("Validation failed");
    expect(error.extensions.code).toBe("BAD_USER_INPUT");
    expect(error.extensions.status).toBe(400);
    expect(error.extensions.errors.map((e: { field: string }) => e.field).sort()).toEqual(["height", "name", "weight"]);
    expect((await t.graphql(ME, {}, made.token)).data.me).toMatchObject({ name: made.user.name, height: null, weight: null });
    const history = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from weight_history where user_id = ${made.id}`));
    expect(history[0].n).toBe(0);
  });

  it("renameUser renames oneself, refuses a blank name and another user's account", async () => {
    const me = await makeUser(t);
    const other = await makeUser(t);
    const renamed = await t.graphql(RENAME, { id: me.id, name: "  Elisa Prado " }, me.token);
    expect(renamed.data.renameUser).toMatchObject({ id: me.id, name: "Elisa Prado" });

    const blank = onlyError(await t.graphql(RENAME, { id: me.id, name: "   " }, me.token));
    expect(blank.message).toBe("Nome não pode estar vazio");
    expect(blank.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400, errors: [{ field: "name", message: expect.any(String) }] });
    const [kept] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, me.id));
    expect(kept.name).toBe("Elisa Prado");

    const denied = onlyError(await t.graphql(RENAME, { id: other.id, name: "Intrusa" }, me.token));
    expect(denied.extensions).toEqual({ code: "FORBIDDEN", status: 403 });
    const [row] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, other.id));
    expect(row.name).toBe(other.user.name);

    const missing = onlyError(await t.graphql(RENAME, { id: 999_999, name: "Ninguém" }, me.token));
    expect(missing.extensions).toEqual({ code: "NOT_FOUND", status: 404 });
  });
});

describe("GraphQL updateProfilePhoto (multipart)", () => {
  // The upload directory lives as long as the app; each test starts with it empty.
  beforeEach(() => rmSync(t.uploadsDir, { recursive: true, force: true }));

  it("stores a PNG sent as a GraphQL multipart request and serves it from an absolute URL", async () => {
    const made = await makeUser(t);
    const res = await uploadPhoto(made.id, PNG, made.token, "qualquer-nome.txt", "text/plain");
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const url: string = res.body.data.updateProfilePhoto.profilePicture;
    expect(url).toMatch(new RegExp(`^${t.baseUrl}/uploads/[0-9a-f]{32}\\.png$`));

    const [row] = await t.db.select({ profilePicture: users.profilePicture }).from(users).where(eq(users.id, made.id));
    expect(row.profilePicture).toBe(url);
    const name = url.split("/").pop()!;
    expect(readFileSync(path.join(t.uploadsDir, name)).equals(PNG)).toBe(true);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("refuses a file over 5 MB with the REST message and keeps the old photo", async () => {
    const made = await makeUser(t);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const res = await uploadPhoto(made.id, big, made.token);
    const error = onlyError(res.body);
    expect(error.message).toBe("Tamanho máximo de arquivo excedido (5MB)");
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400 });
    const [row] = await t.db.select({ profilePicture: users.profilePicture }).from(users).where(eq(users.id, made.id));
    expect(row.profilePicture).toBeNull();
  });

  it("refuses bytes that are not an image, whatever the name and declared type", async () => {
    const made = await makeUser(t);
    const res = await uploadPhoto(made.id, Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), made.token, "foto.png", "image/png");
    const error = onlyError(res.body);
    expect(error.message).toBe("Arquivo inválido. Apenas imagens JPG, PNG ou GIF são permitidas");
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400 });
    expect(await pictureOf(made.id)).toBeNull();
    expect(storedFiles()).toEqual([]);
  });

  it("refuses another user's photo with FORBIDDEN and an anonymous caller with UNAUTHENTICATED", async () => {
    const me = await makeUser(t);
    const other = await makeUser(t);
    expect(onlyError((await uploadPhoto(other.id, PNG, me.token)).body).extensions).toEqual({ code: "FORBIDDEN", status: 403 });
    expect(onlyError((await uploadPhoto(me.id, PNG)).body).extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
    expect(await pictureOf(other.id)).toBeNull();
    expect(await pictureOf(me.id)).toBeNull();
    expect(storedFiles()).toEqual([]);
  });

  it.each([
    ["no boundary", "multipart/form-data", "abc"],
    [
      "operations that are not JSON",
      "multipart/form-data; boundary=x",
      '--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\nnot-json\r\n--x--\r\n',
    ],
    ["no map", "multipart/form-data; boundary=x", '--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":"{ me { id } }"}\r\n--x--\r\n'],
    ["a body cut off inside the part headers", "multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-da"],
    ["no parts at all", "multipart/form-data; boundary=x", "--x--\r\n"],
  ])("answers a malformed multipart request (%s) with 400 in the error shape, never 500", async (_label, contentType, body) => {
    const made = await makeUser(t);
    const res = await t.post("/graphql", { raw: body, token: made.token, headers: { "content-type": contentType } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Requisição multipart inválida", success: false });
    expect(await pictureOf(made.id)).toBeNull();
    expect(t.logLines.join("")).not.toContain("unhandled");
  });

  it("answers BAD_USER_INPUT 400 when the map names a file part the request never sends, storing nothing", async () => {
    const made = await makeUser(t);
    const form = new FormData();
    form.append("operations", JSON.stringify({ query: UPDATE_PHOTO, variables: { userId: made.id, file: null } }));
    form.append("map", JSON.stringify({ 0: ["variables.file"] }));
    const res = await t.post("/graphql", { raw: form, token: made.token });
    const error = onlyError(res.body);
    expect(error.message).toBe("Requisição multipart inválida");
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400 });
    expect(await pictureOf(made.id)).toBeNull();
    expect(storedFiles()).toEqual([]);
    expect(t.logLines.join("")).not.toContain("unhandled GraphQL error");
  });

  it("answers 413 Requisição muito grande when the map names more files than allowed", async () => {
    const made = await makeUser(t);
    const form = new FormData();
    form.append("operations", JSON.stringify({ query: UPDATE_PHOTO, variables: { userId: made.id, file: null } }));
    form.append("map", JSON.stringify({ 0: ["variables.file"], 1: ["variables.a"], 2: ["variables.b"] }));
    const res = await t.post("/graphql", { raw: form, token: made.token });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: "Requisição muito grande", success: false });
    expect(await pictureOf(made.id)).toBeNull();
  });
});

describe("REST and GraphQL parity", () => {
  it("gives the same user through GET /api/users/profile and me", async () => {
    const made = await makeUser(t);
    await t.put("/api/users/profile", { token: made.token, body: { phone: "11 5555-0000", height: 170, weight: 65.5, gender: "FEMININO" } });
    const rest = await t.get("/api/users/profile", { token: made.token });
    const gql = await t.graphql(ME, {}, made.token);
    expect(rest.status).toBe(200);
    expect(gql.data.me).toEqual(rest.body);
  });

  it("gives the same user from PUT /api/users/profile and updateProfile", async () => {
    const a = await makeUser(t, { name: "Fabio" });
    const b = await makeUser(t, { name: "Fabio" });
    const input = { name: "Fábio Souza", birthDate: "1988-12-01", height: 175.5, weight: 70 };
    const rest = await t.put("/api/users/profile", { token: a.token, body: input });
    const gql = await t.graphql(UPDATE_PROFILE, { input }, b.token);
    const strip = (u: Record<string, unknown>) => ({ ...u, id: 0, email: "", createdAt: "", updatedAt: "" });
    expect(strip(gql.data.updateProfile)).toEqual(strip(rest.body));
  });

  it("gives the same validation message and errors list for an invalid registration", async () => {
    const input = { name: "  ", email: "not-an-email", password: "12345", userType: "ALUNO", requestLocation: "APP", confirmed: false };
    const rest = await t.post("/api/users/register", { invalidRequest: true, body: input });
    const gql = await t.graphql(REGISTER, { input });
    expect(rest.status).toBe(400);
    const error = onlyError(gql);
    expect(error.message).toBe(rest.body.message);
    expect(error.extensions).toEqual({ code: "BAD_USER_INPUT", status: 400, errors: rest.body.errors });
    expect(await userCount()).toBe(0);
  });

  it("gives the same 403 message for another user's profile", async () => {
    const me = await makeUser(t);
    const other = await makeUser(t);
    const rest = await t.get(`/api/users/${other.id}`, { token: me.token });
    const error = onlyError(await t.graphql(USER, { id: other.id }, me.token));
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({ message: error.message, success: false });
    expect(error.extensions.status).toBe(rest.status);
  });

  it("gives the same 400 message for a wrong password and the same 404 for an unknown e-mail", async () => {
    const made = await makeUser(t);
    for (const input of [
      { email: made.email, password: "errada-999" },
      { email: "sem-conta@example.com", password: "errada-999" },
    ]) {
      const rest = await t.post("/api/users/login", { body: input });
      const error = onlyError(await t.graphql(LOGIN, { input }));
      expect(rest.body).toEqual({ message: error.message, success: false });
      expect(error.extensions.status).toBe(rest.status);
    }
  });

  it("gives the same message for a blank rename through PATCH /api/users/{id} and renameUser", async () => {
    const made = await makeUser(t);
    const rest = await t.patch(`/api/users/${made.id}`, { token: made.token, body: { name: " " } });
    const error = onlyError(await t.graphql(RENAME, { id: made.id, name: " " }, made.token));
    expect(rest.status).toBe(400);
    expect(error.message).toBe(rest.body.message);
    expect(error.extensions.errors).toEqual(rest.body.errors);
  });

  it("gives the same refusal for a non-image upload through REST multipart and GraphQL multipart", async () => {
    const made = await makeUser(t);
    const text = Buffer.from("apenas texto, nada de imagem");
    const rest = await restUpload(made.id, text, made.token);
    const error = onlyError((await uploadPhoto(made.id, text, made.token)).body);
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ message: error.message, success: false });
  });
});
