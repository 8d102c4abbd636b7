import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users, weightHistory } from "../../src/tables/user.table.js";
import { decodeJwt } from "../helpers/jwt.js";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";

const t = useTestApp();

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function profileOf(user: MadeUser) {
  const res = await t.get("/api/users/profile", { token: user.token });
  expect(res.status).toBe(200);
  return res.body;
}

async function weightRows(userId: number) {
  return t.db.select().from(weightHistory).where(eq(weightHistory.userId, userId)).orderBy(weightHistory.id);
}

async function makeAdmin(user: MadeUser) {
  await t.db.update(users).set({ isAdmin: true }).where(eq(users.id, user.id));
}

/** A user whose every optional field is filled, so that clearing and refusals have something to keep. */
async function filledStudent() {
  const student = await makeStudent(t, { name: "Bruna Lima" });
  const res = await t.put("/api/users/profile", {
    token: student.token,
    body: { phone: "+55 11 98765-4321", birthDate: "1990-05-17", gender: "FEMININO", height: 165.5, weight: 60.25 },
  });
  expect(res.status).toBe(200);
  return student;
}

describe("GET /api/users/profile", () => {
  it("answers 200 with the caller's full UserDTO", async () => {
    const student = await makeStudent(t, { name: "Carla Dias", email: "Carla.Dias@Example.com" });
    const res = await t.get("/api/users/profile", { token: student.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: student.id,
      name: "Carla Dias",
      email: "carla.dias@example.com",
      userType: "ALUNO",
      profilePicture: null,
      phone: null,
      birthDate: null,
      gender: null,
      height: null,
      weight: null,
      subscriptionType: "FREEMIUM",
      subscriptionExpirationDate: null,
      emailConfirmed: true,
      createdAt: expect.stringMatching(ISO_INSTANT),
      updatedAt: expect.stringMatching(ISO_INSTANT),
    });
    expect(res.body).toEqual(student.user);
  });

  it("shows a trainer as PERSONAL", async () => {
    const trainer = await makeTrainer(t);
    expect((await profileOf(trainer)).userType).toBe("PERSONAL");
  });

  it("answers 401 without a token, with a malformed header or with a forged token", async () => {
    const student = await makeStudent(t);
    const unauthorized = { message: "Token inválido ou expirado", success: false };
    const none = await t.get("/api/users/profile");
    expect(none.status).toBe(401);
    expect(none.body).toEqual(unauthorized);
    const basic = await t.get("/api/users/profile", { headers: { authorization: "Basic abc" } });
    expect(basic.status).toBe(401);
    expect(basic.body).toEqual(unauthorized);
    const [head, payload] = student.token.split(".");
    const forged = await t.get("/api/users/profile", { token: `${head}.${payload}.AAAA` });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual(unauthorized);
  });

  it("answers 401 once the 24-hour token has expired", async () => {
    const student = await makeStudent(t);
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const res = await t.get("/api/users/profile", { token: student.token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });

  it("answers 401 from the expiry second of a token it accepted until then (a checked token is not trusted past it)", async () => {
    const student = await makeStudent(t);
    const { exp } = decodeJwt(student.token).payload as { exp: number };
    t.clock.set(new Date((exp - 1) * 1000));
    expect((await t.get("/api/users/profile", { token: student.token })).status).toBe(200);
    expect((await t.graphql("{ me { id } }", undefined, student.token)).data).toEqual({ me: { id: student.id } });

    t.clock.set(new Date(exp * 1000));
    const res = await t.get("/api/users/profile", { token: student.token });
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { message: "Token inválido ou expirado", success: false } });
    expect((await t.graphql("{ me { id } }", undefined, student.token)).errors?.[0].extensions.code).toBe("UNAUTHENTICATED");
  });
});

describe("PUT /api/users/profile", () => {
  it("updates every optional field at once and answers the updated user", async () => {
    const student = await makeStudent(t, { name: "Davi Rocha" });
    t.clock.advance(60_000);
    const res = await t.put("/api/users/profile", {
      token: student.token,
      body: {
        name: "  Davi R. Rocha  ",
        phone: "  (11) 4002-8922 ",
        birthDate: "1988-02-29",
        gender: "MASCULINO",
        height: 181.5,
        weight: 82.35,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...student.user,
      name: "Davi R. Rocha",
      phone: "(11) 4002-8922",
      birthDate: "1988-02-29",
      gender: "MASCULINO",
      height: 181.5,
      weight: 82.35,
      updatedAt: t.clock.now().toISOString(),
    });
    expect(await profileOf(student)).toEqual(res.body);

    const [row] = await t.db.select().from(users).where(eq(users.id, student.id));
    expect(row).toMatchObject({ name: "Davi R. Rocha", phone: "(11) 4002-8922", birthDate: "1988-02-29", heightCm: 181.5, weightKg: 82.35 });
  });

  it.each([
    ["name", { name: "Elisa Prado" }, { name: "Elisa Prado" }],
    ["phone", { phone: "+55 21 99999-0000" }, { phone: "+55 21 99999-0000" }],
    ["birthDate", { birthDate: "2000-12-31" }, { birthDate: "2000-12-31" }],
    ["gender MASCULINO", { gender: "MASCULINO" }, { gender: "MASCULINO" }],
    ["gender FEMININO", { gender: "FEMININO" }, { gender: "FEMININO" }],
    ["gender OUTRO", { gender: "OUTRO" }, { gender: "OUTRO" }],
    ["height at the 30 cm minimum", { height: 30 }, { height: 30 }],
    ["height at the 300 cm maximum", { height: 300 }, { height: 300 }],
    ["height with one decimal", { height: 172.4 }, { height: 172.4 }],
    ["weight at the 1 kg minimum", { weight: 1 }, { weight: 1 }],
    ["weight at the 700 kg maximum", { weight: 700 }, { weight: 700 }],
    ["weight with two decimals", { weight: 68.55 }, { weight: 68.55 }],
  ])("updates %s alone and leaves the other fields as they were", async (_label, change, expected) => {
    const student = await makeStudent(t);
    const before = await profileOf(student);
    const res = await t.put("/api/users/profile", { token: student.token, body: change });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, ...expected, updatedAt: expect.stringMatching(ISO_INSTANT) });
    expect(await profileOf(student)).toEqual(res.body);
  });

  it("clears the optional fields sent as null and keeps the ones not sent", async () => {
    const student = await filledStudent();
    const res = await t.put("/api/users/profile", {
      token: student.token,
      body: { phone: null, birthDate: null, gender: null, height: null, weight: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Bruna Lima", phone: null, birthDate: null, gender: null, height: null, weight: null });
    expect(await profileOf(student)).toEqual(res.body);
  });

  it("clears the phone when it is sent blank", async () => {
    const student = await filledStudent();
    const res = await t.put("/api/users/profile", { token: student.token, body: { phone: "   " } });
    expect(res.status).toBe(200);
    expect(res.body.phone).toBeNull();
    expect(res.body.height).toBe(165.5);
  });

  it("changes nothing but updatedAt for an empty body", async () => {
    const student = await filledStudent();
    const before = await profileOf(student);
    t.clock.advance(5_000);
    const res = await t.put("/api/users/profile", { token: student.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, updatedAt: t.clock.now().toISOString() });
  });

  it("records a weight-history entry, at the clock's time, each time weight is set", async () => {
    const student = await makeStudent(t);
    const first = t.clock.now();
    await t.put("/api/users/profile", { token: student.token, body: { weight: 80.5 } });
    t.clock.advance(60 * 60 * 1000);
    const second = t.clock.now();
    const res = await t.put("/api/users/profile", { token: student.token, body: { weight: 79.75, height: 180 } });
    expect(res.status).toBe(200);
    expect(res.body.weight).toBe(79.75);

    const rows = await weightRows(student.id);
    expect(rows.map((row) => ({ weightKg: row.weightKg, recordedAt: row.recordedAt.toISOString() }))).toEqual([
      { weightKg: 80.5, recordedAt: first.toISOString() },
      { weightKg: 79.75, recordedAt: second.toISOString() },
    ]);
  });

  it("records no weight-history entry when weight is not sent or is cleared", async () => {
    const student = await makeStudent(t);
    const named = await t.put("/api/users/profile", { token: student.token, body: { name: "Sem Peso", height: 170 } });
    expect(named.status).toBe(200);
    expect(named.body).toMatchObject({ name: "Sem Peso", height: 170, weight: null });
    const cleared = await t.put("/api/users/profile", { token: student.token, body: { weight: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.weight).toBeNull();
    expect(await weightRows(student.id)).toEqual([]);
  });

  it("records weight history only for the caller", async () => {
    const student = await makeStudent(t);
    const other = await makeStudent(t);
    const res = await t.put("/api/users/profile", { token: student.token, body: { weight: 55 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: student.id, weight: 55 });
    expect(await weightRows(student.id)).toHaveLength(1);
    expect(await weightRows(other.id)).toEqual([]);
  });

  it.each([
    ["height 0", { height: 0 }, "height"],
    ["height 29.9", { height: 29.9 }, "height"],
    ["height 301", { height: 301 }, "height"],
    ["height as text", { height: "abc" }, "height"],
    ["height as a numeric string", { height: "170" }, "height"],
    ["height with two decimals", { height: 170.25 }, "height"],
    ["weight 0", { weight: 0 }, "weight"],
    ["weight 701", { weight: 701 }, "weight"],
    ["negative weight", { weight: -70 }, "weight"],
    ["weight with three decimals", { weight: 70.125 }, "weight"],
    ["birthDate on a day that does not exist", { birthDate: "2024-02-30" }, "birthDate"],
    ["birthDate in DD/MM/YYYY", { birthDate: "31/12/2000" }, "birthDate"],
    ["birthDate with a time", { birthDate: "2000-12-31T00:00:00Z" }, "birthDate"],
    ["birthDate in year 0000, which PostgreSQL has not", { birthDate: "0000-01-01" }, "birthDate"],
    ["birthDate before 1900", { birthDate: "1899-12-31" }, "birthDate"],
    ["unknown gender", { gender: "X" }, "gender"],
    ["lower-case gender", { gender: "feminino" }, "gender"],
    ["31-character phone", { phone: "1".repeat(31) }, "phone"],
    ["phone as a number", { phone: 11987654321 }, "phone"],
    ["blank name", { name: "   " }, "name"],
    ["null name", { name: null }, "name"],
    ["121-character name", { name: "n".repeat(121) }, "name"],
  ])("refuses %s with 400 Validation failed on that field and changes nothing", async (_label, change, field) => {
    const student = await filledStudent();
    const before = await profileOf(student);
    const historyBefore = await weightRows(student.id);
    const res = await t.put("/api/users/profile", { invalidRequest: true, token: student.token, body: change });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: "Validation failed",
      success: false,
      errors: [{ field, message: expect.any(String) }],
    });
    expect(await profileOf(student)).toEqual(before);
    expect(await weightRows(student.id)).toEqual(historyBefore);
  });

  it("accepts the 30-character phone and the 120-character name at the limits", async () => {
    const student = await makeStudent(t);
    const res = await t.put("/api/users/profile", { token: student.token, body: { phone: "9".repeat(30), name: "n".repeat(120) } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ phone: "9".repeat(30), name: "n".repeat(120) });
  });

  it("reports every invalid field together and applies none of the valid ones", async () => {
    const student = await filledStudent();
    const before = await profileOf(student);
    const res = await t.put("/api/users/profile", {
      invalidRequest: true,
      token: student.token,
      body: { name: "Nome Válido", height: 0, weight: 701, gender: "X", birthDate: "31/12/2000" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.success).toBe(false);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["birthDate", "gender", "height", "weight"]);
    expect(await profileOf(student)).toEqual(before);
    expect(await weightRows(student.id)).toHaveLength(1);
  });

  it("ignores fields a profile cannot change (e-mail, type, subscription, picture)", async () => {
    const student = await makeStudent(t);
    const res = await t.put("/api/users/profile", {
      token: student.token,
      body: {
        email: "hijack@example.com",
        userType: "PERSONAL",
        subscriptionType: "PREMIUM_ANUAL",
        profilePicture: "https://evil.example/x.png",
        emailConfirmed: false,
        id: 999,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...student.user, updatedAt: expect.stringMatching(ISO_INSTANT) });
    const [row] = await t.db.select().from(users).where(eq(users.id, student.id));
    expect(row).toMatchObject({ email: student.email, userType: "ALUNO", subscriptionType: "FREEMIUM", profilePicture: null, isAdmin: false });
  });

  it("answers 400 JSON inválido to a malformed body", async () => {
    const student = await makeStudent(t);
    const res = await t.put("/api/users/profile", {
      invalidRequest: true,
      token: student.token,
      raw: '{"name":',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "JSON inválido", success: false });
  });

  it("answers 401 without a token and changes nothing", async () => {
    const student = await makeStudent(t);
    const res = await t.put("/api/users/profile", { body: { name: "Intruso", weight: 90 } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
    expect((await profileOf(student)).name).toBe(student.user.name);
    expect(await weightRows(student.id)).toEqual([]);
  });
});

describe("GET /api/users/{id}", () => {
  it("answers 200 with the caller's own user", async () => {
    const student = await makeStudent(t);
    const res = await t.get(`/api/users/${student.id}`, { token: student.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await profileOf(student));
  });

  it("answers 403 Acesso negado for another user", async () => {
    const student = await makeStudent(t);
    const trainer = await makeTrainer(t);
    const res = await t.get(`/api/users/${student.id}`, { token: trainer.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Acesso negado", success: false });
    const back = await t.get(`/api/users/${trainer.id}`, { token: student.token });
    expect(back.status).toBe(403);
    expect(back.body).toEqual({ message: "Acesso negado", success: false });
  });

  it("lets an administrator read any user", async () => {
    const admin = await makeTrainer(t);
    const student = await makeStudent(t);
    await makeAdmin(admin);
    const res = await t.get(`/api/users/${student.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await profileOf(student));
  });

  it("answers 404 Usuário não encontrado for an id nobody has", async () => {
    const student = await makeStudent(t);
    const res = await t.get(`/api/users/${student.id + 1000}`, { token: student.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Usuário não encontrado", success: false });
  });

  it.each([["abc"], ["0"], ["-1"], ["1.5"], ["1e3"], ["99999999999"], ["2147483648"]])("answers 400 Parâmetro inválido: id for the id %s", async (id) => {
    const student = await makeStudent(t);
    const res = await t.get(`/api/users/${id}`, { invalidRequest: true, token: student.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Parâmetro inválido: id", success: false });
  });

  it("answers 400 Parâmetro inválido: id, renaming nobody, for an id whose percent-encoding is broken", async () => {
    const student = await makeStudent(t);
    const read = await t.get("/api/users/%E0%A4%A", { invalidRequest: true, token: student.token });
    expect(read.status).toBe(400);
    expect(read.body).toEqual({ message: "Parâmetro inválido: id", success: false });
    const rename = await t.patch("/api/users/%E0%A4%A", { invalidRequest: true, token: student.token, body: { name: "Renomeado" } });
    expect(rename.status).toBe(400);
    expect(rename.body).toEqual({ message: "Parâmetro inválido: id", success: false });
    expect((await profileOf(student)).name).toBe(student.user.name);
  });

  it("answers 401 without a token", async () => {
    const student = await makeStudent(t);
    const res = await t.get(`/api/users/${student.id}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });
});

describe("PATCH /api/users/{id}", () => {
  it("renames the caller, trimmed, and answers the updated user", async () => {
    const student = await filledStudent();
    const before = await profileOf(student);
    t.clock.advance(1_000);
    const res = await t.patch(`/api/users/${student.id}`, { token: student.token, body: { name: "  Bruna L. Lima " } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, name: "Bruna L. Lima", updatedAt: t.clock.now().toISOString() });
    const [row] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, student.id));
    expect(row.name).toBe("Bruna L. Lima");
  });

  it("changes only the name, whatever else the body carries", async () => {
    const student = await filledStudent();
    const before = await profileOf(student);
    const res = await t.patch(`/api/users/${student.id}`, {
      token: student.token,
      body: { name: "Só o Nome", email: "other@example.com", weight: 99, userType: "PERSONAL" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, name: "Só o Nome", updatedAt: expect.stringMatching(ISO_INSTANT) });
    expect(await weightRows(student.id)).toHaveLength(1);
  });

  it.each([
    ["a blank name", { name: "   " }],
    ["an empty name", { name: "" }],
    ["no name", {}],
    ["a null name", { name: null }],
  ])("refuses %s with 400 Nome não pode estar vazio and an errors list", async (_label, body) => {
    const student = await makeStudent(t);
    const res = await t.patch(`/api/users/${student.id}`, { invalidRequest: true, token: student.token, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: "Nome não pode estar vazio",
      success: false,
      errors: [{ field: "name", message: "Nome não pode estar vazio" }],
    });
    expect((await profileOf(student)).name).toBe(student.user.name);
  });

  it("refuses a 121-character name with 400 Validation failed (not the blank-name text)", async () => {
    const student = await makeStudent(t);
    const res = await t.patch(`/api/users/${student.id}`, { invalidRequest: true, token: student.token, body: { name: "n".repeat(121) } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Validation failed", success: false, errors: [{ field: "name", message: expect.any(String) }] });
    expect((await profileOf(student)).name).toBe(student.user.name);
  });

  it("accepts a 120-character name", async () => {
    const student = await makeStudent(t);
    const res = await t.patch(`/api/users/${student.id}`, { token: student.token, body: { name: "n".repeat(120) } });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("n".repeat(120));
  });

  it("answers 403 Acesso negado for another user's id and renames nobody", async () => {
    const student = await makeStudent(t, { name: "Vítima" });
    const other = await makeStudent(t);
    const res = await t.patch(`/api/users/${student.id}`, { token: other.token, body: { name: "Renomeado" } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Acesso negado", success: false });
    expect((await profileOf(student)).name).toBe("Vítima");
    expect((await profileOf(other)).name).toBe(other.user.name);
  });

  it("lets an administrator rename another user", async () => {
    const admin = await makeStudent(t);
    const student = await makeStudent(t);
    await makeAdmin(admin);
    const res = await t.patch(`/api/users/${student.id}`, { token: admin.token, body: { name: "Nome Corrigido" } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(student.id);
    expect((await profileOf(student)).name).toBe("Nome Corrigido");
  });

  it("answers 404 Usuário não encontrado for an id nobody has", async () => {
    const student = await makeStudent(t);
    const res = await t.patch(`/api/users/${student.id + 1000}`, { token: student.token, body: { name: "Fantasma" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Usuário não encontrado", success: false });
  });

  it("answers 400 Parâmetro inválido: id for a non-numeric id", async () => {
    const student = await makeStudent(t);
    const res = await t.patch("/api/users/abc", { invalidRequest: true, token: student.token, body: { name: "Nome" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Parâmetro inválido: id", success: false });
  });

  it("answers 401 without a token and renames nobody", async () => {
    const student = await makeStudent(t);
    const res = await t.patch(`/api/users/${student.id}`, { body: { name: "Anônimo" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
    expect((await profileOf(student)).name).toBe(student.user.name);
  });
});

describe("unknown routes", () => {
  it.each([
    ["GET", "/api/nope"],
    ["POST", "/api/users"],
    // DELETE /api/users/{id} is the administrators' erasure (contract §15); no DELETE has the bare collection.
    ["DELETE", "/api/users"],
    ["GET", "/nope"],
  ])("answers %s %s with 404 Recurso não encontrado", async (method, url) => {
    const res = await t.request(method, url, { invalidRequest: true });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Recurso não encontrado", success: false });
  });
});
