import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent, makeTrainer, relogin } from "../factories/users.js";
import { DAY_MS, INVITE_TTL_MS, SENT_INVITE_KEYS, inviteRows, invited, mailsTo, pendingCount, sendInvite, sortedKeys, statuses, subscribe } from "./support.js";
import { linkTrainerAndStudent } from "../factories/content.js";

const t = useTestApp();

const LIMIT_REACHED = { message: "Você atingiu o limite de alunos para seu plano atual", success: false };

describe("POST /api/personal/students/invite", () => {
  it("answers 201 with the trainer's view of the PENDING invite, expiring 7 days later, and stores it", async () => {
    t.clock.set(new Date("2031-03-10T12:34:56.789Z"));
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const student = await makeStudent(t, { name: "Ana Souza" });

    const res = await sendInvite(t, trainer, student.email.toUpperCase(), "  Vamos treinar juntos!  ");

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      personalId: trainer.id,
      personalName: "Bruno Lima",
      studentEmail: student.email,
      message: "Vamos treinar juntos!",
      status: "PENDING",
      createdAt: "2031-03-10T12:34:56.789Z",
      expiresAt: "2031-03-17T12:34:56.789Z",
    });
    expect(sortedKeys(res.body)).toEqual(SENT_INVITE_KEYS);
    expect(res.body).not.toHaveProperty("updatedAt");

    const rows = await inviteRows(t);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: res.body.id,
      personalId: trainer.id,
      studentId: student.id,
      studentEmail: student.email,
      status: "PENDING",
      updatedAt: null,
    });
    expect(rows[0].expiresAt.getTime() - rows[0].createdAt.getTime()).toBe(INVITE_TTL_MS);
  });

  it("answers message null when none is sent", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const res = await sendInvite(t, trainer, student.email);
    expect(res.status).toBe(201);
    expect(res.body.message).toBeNull();
    expect(new Date(res.body.expiresAt).getTime() - new Date(res.body.createdAt).getTime()).toBe(INVITE_TTL_MS);
  });

  it("sends the student an e-mail naming the trainer, the message and the answer deadline", async () => {
    t.clock.set(new Date("2031-03-10T12:00:00.000Z"));
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const student = await makeStudent(t, { name: "Ana Souza" });
    await sendInvite(t, trainer, student.email, "Bora treinar");

    const mails = await mailsTo(t, student.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Você recebeu um convite de personal trainer");
    expect(mails[0].text).toContain("Olá, Ana Souza!");
    expect(mails[0].text).toContain("Bruno Lima convidou você");
    expect(mails[0].text).toContain('Mensagem: "Bora treinar"');
    // With a web app configured, the link is its home page, as it always was.
    expect(mails[0].text).toContain("Responda até 17/03/2031: https://app.fitness.test\n");
    expect(t.smtp.to(trainer.email)).toHaveLength(0);
  });

  it.each([
    ["an invalid e-mail", { studentEmail: "not-an-email" }, ["studentEmail"]],
    ["a missing studentEmail", {}, ["studentEmail"]],
    ["a number as studentEmail", { studentEmail: 42 }, ["studentEmail"]],
    ["a message over 500 characters", { studentEmail: "ana@example.com", message: "x".repeat(501) }, ["message"]],
    ["both problems at once", { studentEmail: "nope", message: "x".repeat(501) }, ["message", "studentEmail"]],
  ])("refuses %s with 400 Validation failed on that field, inviting nobody", async (_label, body, fields) => {
    const trainer = await makeTrainer(t);
    await makeStudent(t, { email: "ana@example.com" });
    const res = await t.post("/api/personal/students/invite", { invalidRequest: true, token: trainer.token, body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.success).toBe(false);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(fields);
    for (const error of res.body.errors) expect(error.message).toEqual(expect.any(String));
    expect(await inviteRows(t)).toHaveLength(0);
    expect(await t.deliverMail()).toBe(0);
  });

  it("accepts a message of exactly 500 characters", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const res = await sendInvite(t, trainer, student.email, "x".repeat(500));
    expect(res.status).toBe(201);
    expect(res.body.message).toHaveLength(500);
  });

  it("answers 404 Usuário não encontrado for an e-mail nobody has", async () => {
    const trainer = await makeTrainer(t);
    const res = await sendInvite(t, trainer, "ninguem@example.com");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Usuário não encontrado", success: false });
    expect(await inviteRows(t)).toHaveLength(0);
  });

  it("answers 400 on studentEmail when the e-mail belongs to a trainer", async () => {
    const trainer = await makeTrainer(t);
    const other = await makeTrainer(t);
    const res = await sendInvite(t, trainer, other.email);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.success).toBe(false);
    expect(res.body.errors).toEqual([{ field: "studentEmail", message: expect.any(String) }]);
    expect(await inviteRows(t)).toHaveLength(0);

    const self = await sendInvite(t, trainer, trainer.email);
    expect(self.status).toBe(400);
    expect(self.body.errors.map((e: { field: string }) => e.field)).toEqual(["studentEmail"]);
  });

  it("answers 409 when a pending invite to that student exists, and keeps one invite and one e-mail", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    await invited(t, trainer, student);
    const res = await sendInvite(t, trainer, student.email, "de novo");
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "Já existe um convite pendente para este aluno", success: false });
    expect(await inviteRows(t)).toHaveLength(1);
    expect(await mailsTo(t, student.email)).toHaveLength(1);
  });

  it("lets another trainer invite a student who has a pending invite", async () => {
    const trainer = await makeTrainer(t);
    const other = await makeTrainer(t);
    const student = await makeStudent(t);
    await invited(t, trainer, student);
    expect((await sendInvite(t, other, student.email)).status).toBe(201);
    expect((await inviteRows(t)).map((row) => [row.personalId, row.studentId, row.status])).toEqual([
      [trainer.id, student.id, "PENDING"],
      [other.id, student.id, "PENDING"],
    ]);
  });

  it("answers 409 Aluno já vinculado a este personal once the student accepted", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    await linkTrainerAndStudent(t, trainer, student);
    const res = await sendInvite(t, trainer, student.email);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "Aluno já vinculado a este personal", success: false });
    expect((await inviteRows(t)).map((row) => row.status)).toEqual(["ACCEPTED"]);
  });

  it("never creates an invite for a student whose acceptance of the previous one runs at the same moment", async () => {
    for (let round = 0; round < 8; round += 1) {
      const trainer = await makeTrainer(t);
      const student = await makeStudent(t);
      const inviteId = await invited(t, trainer, student);
      const [accepted, again] = await Promise.all([
        t.post(`/api/students/invites/${inviteId}/accept`, { token: student.token }),
        sendInvite(t, trainer, student.email),
      ]);
      expect(accepted.status).toBe(200);
      expect(again.status).toBe(409);
      expect(["Aluno já vinculado a este personal", "Já existe um convite pendente para este aluno"]).toContain(again.body.message);
      expect(await pendingCount(t, trainer.id)).toBe(0);
    }
  });

  it("allows a new invite once the earlier one was rejected or expired", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const first = await invited(t, trainer, student);
    await t.post(`/api/students/invites/${first}/reject`, { token: student.token });
    expect((await sendInvite(t, trainer, student.email)).status).toBe(201);

    t.clock.advance(INVITE_TTL_MS + 1000);
    await relogin(t, trainer);
    const again = await sendInvite(t, trainer, student.email);
    expect(again.status).toBe(201);
    const listed = await t.get("/api/personal/invites?sort=id,asc", { token: trainer.token });
    expect(listed.body.content.map((invite: { status: string }) => invite.status)).toEqual(["REJECTED", "EXPIRED", "PENDING"]);
  });

  it("answers 403 to a student", async () => {
    const student = await makeStudent(t);
    const other = await makeStudent(t);
    const res = await sendInvite(t, student, other.email);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Apenas personal trainers podem acessar este recurso", success: false });
    expect(await inviteRows(t)).toHaveLength(0);
  });

  it("answers 403 to a student before looking at the body", async () => {
    const student = await makeStudent(t);
    const res = await t.post("/api/personal/students/invite", { invalidRequest: true, token: student.token, body: {} });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Apenas personal trainers podem acessar este recurso", success: false });
    expect(await inviteRows(t)).toHaveLength(0);
  });

  it("answers 401 without a token or with a bad one", async () => {
    const student = await makeStudent(t);
    for (const token of [undefined, "not-a-jwt"]) {
      const res = await t.post("/api/personal/students/invite", { token, body: { studentEmail: student.email } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
    }
    expect(await inviteRows(t)).toHaveLength(0);
  });
});

describe("student limit of the invite rule", () => {
  async function students(n: number) {
    const out = [];
    for (let i = 0; i < n; i += 1) out.push(await makeStudent(t));
    return out;
  }

  it("lets a trainer without a subscription have 2 students: the 3rd invite gets 422 and is not stored", async () => {
    const trainer = await makeTrainer(t);
    const [a, b, c] = await students(3);
    await invited(t, trainer, a);
    await invited(t, trainer, b);
    const res = await sendInvite(t, trainer, c.email);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(LIMIT_REACHED);
    expect(await pendingCount(t, trainer.id)).toBe(2);
    expect(await mailsTo(t, c.email)).toHaveLength(0);
  });

  it("counts ACTIVE links as well as pending invites", async () => {
    const trainer = await makeTrainer(t);
    const [a, b, c] = await students(3);
    await linkTrainerAndStudent(t, trainer, a);
    await invited(t, trainer, b);
    expect((await sendInvite(t, trainer, c.email)).body).toEqual(LIMIT_REACHED);
  });

  it("frees the slot of a rejected invite and of a removed link", async () => {
    const trainer = await makeTrainer(t);
    const [a, b, c, d] = await students(4);
    const linkId = await linkTrainerAndStudent(t, trainer, a);
    const inviteId = await invited(t, trainer, b);
    expect((await sendInvite(t, trainer, c.email)).status).toBe(422);

    await t.post(`/api/students/invites/${inviteId}/reject`, { token: b.token });
    expect((await sendInvite(t, trainer, c.email)).status).toBe(201);
    expect((await sendInvite(t, trainer, d.email)).status).toBe(422);

    expect((await t.delete(`/api/personal/students/${linkId}`, { token: trainer.token })).status).toBe(204);
    expect((await sendInvite(t, trainer, d.email)).status).toBe(201);
  });

  it("frees the slot of an expired invite", async () => {
    const trainer = await makeTrainer(t);
    const [a, b, c] = await students(3);
    await invited(t, trainer, a);
    t.clock.advance(DAY_MS / 2);
    await invited(t, trainer, b);
    expect((await sendInvite(t, trainer, c.email)).status).toBe(422);

    // 7 days after the first invite: it reads EXPIRED (not yet swept) and no longer counts.
    t.clock.advance(INVITE_TTL_MS - DAY_MS / 2);
    await relogin(t, trainer);
    const res = await sendInvite(t, trainer, c.email);
    expect(res.status).toBe(201);
    const listed = await t.get("/api/personal/invites?sort=id,asc", { token: trainer.token });
    expect(listed.body.content.map((invite: { status: string }) => invite.status)).toEqual(["EXPIRED", "PENDING", "PENDING"]);
    // Two live invites again: a fourth one is refused.
    const [d] = await students(1);
    expect((await sendInvite(t, trainer, d.email)).status).toBe(422);
  });

  it("lets a trainer with an ACTIVE Básico subscription have 5 students", async () => {
    const trainer = await makeTrainer(t);
    await subscribe(t, trainer, "Básico");
    const list = await students(6);
    for (const student of list.slice(0, 5)) expect((await sendInvite(t, trainer, student.email)).status).toBe(201);
    const res = await sendInvite(t, trainer, list[5].email);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(LIMIT_REACHED);
    expect(await pendingCount(t, trainer.id)).toBe(5);
  });

  it("sets no limit for a trainer with an ACTIVE Ilimitado subscription", async () => {
    const trainer = await makeTrainer(t);
    await subscribe(t, trainer, "Ilimitado");
    for (const student of await students(8)) expect((await sendInvite(t, trainer, student.email)).status).toBe(201);
    expect(await pendingCount(t, trainer.id)).toBe(8);
  });

  it("lets exactly 2 of 10 simultaneous invites through, never passing the limit", async () => {
    const trainer = await makeTrainer(t);
    const list = await students(10);
    const results = await Promise.all(list.map((student) => sendInvite(t, trainer, student.email)));
    expect(statuses(results)).toEqual([201, 201, 422, 422, 422, 422, 422, 422, 422, 422]);
    for (const res of results.filter((r) => r.status === 422)) expect(res.body).toEqual(LIMIT_REACHED);
    expect(await pendingCount(t, trainer.id)).toBe(2);
    expect(await inviteRows(t)).toHaveLength(2);
    expect(await t.deliverMail()).toBe(2);
  });

  it("keeps one invite when the same student is invited 5 times at once", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => sendInvite(t, trainer, student.email)));
    expect(statuses(results)).toEqual([201, 409, 409, 409, 409]);
    for (const res of results.filter((r) => r.status === 409)) {
      expect(res.body).toEqual({ message: "Já existe um convite pendente para este aluno", success: false });
    }
    expect(await inviteRows(t)).toHaveLength(1);
    expect(await mailsTo(t, student.email)).toHaveLength(1);
  });
});
