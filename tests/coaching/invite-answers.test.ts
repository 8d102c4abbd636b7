import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent, makeTrainer, relogin } from "../factories/users.js";
import {
  DAY_MS,
  FULL_LINK_KEYS,
  INVITE_TTL_MS,
  ISO,
  PAGE_KEYS,
  RECEIVED_INVITE_KEYS,
  SENT_INVITE_KEYS,
  inviteRows,
  invited,
  linkRows,
  mailsTo,
  sortedKeys,
} from "./support.js";

const t = useTestApp();

const CLOSED = { message: "Este convite já foi processado ou expirou", success: false };
const STUDENTS_ONLY = { message: "Apenas alunos podem acessar este recurso", success: false };
const TRAINERS_ONLY = { message: "Apenas personal trainers podem acessar este recurso", success: false };

const accept = (id: number | string, token: string) => t.post(`/api/students/invites/${id}/accept`, { token });
const reject = (id: number | string, token: string) => t.post(`/api/students/invites/${id}/reject`, { token });

async function scene() {
  const trainer = await makeTrainer(t, { name: "Bruno Lima" });
  const student = await makeStudent(t, { name: "Ana Souza" });
  const inviteId = await invited(t, trainer, student, "Bora treinar");
  await t.deliverMail();
  t.smtp.clear();
  return { trainer, student, inviteId };
}

describe("GET /api/personal/invites and GET /api/students/invites", () => {
  it("gives the trainer a page of its sent invites, newest first, with studentEmail and no personalEmail", async () => {
    t.clock.set(new Date("2031-05-01T08:00:00.000Z"));
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const ana = await makeStudent(t, { name: "Ana" });
    const bia = await makeStudent(t, { name: "Bia" });
    const first = await invited(t, trainer, ana, "oi");
    t.clock.advance(60_000);
    const second = await invited(t, trainer, bia);

    const res = await t.get("/api/personal/invites", { token: trainer.token });
    expect(res.status).toBe(200);
    expect(sortedKeys(res.body)).toEqual(PAGE_KEYS);
    expect(res.body).toMatchObject({
      totalElements: 2,
      totalPages: 1,
      number: 0,
      size: 20,
      numberOfElements: 2,
      first: true,
      last: true,
      empty: false,
      pageable: { pageNumber: 0, pageSize: 20, offset: 0, paged: true, unpaged: false },
    });
    expect(res.body.content).toEqual([
      {
        id: second,
        personalId: trainer.id,
        personalName: "Bruno Lima",
        studentEmail: bia.email,
        message: null,
        status: "PENDING",
        createdAt: "2031-05-01T08:01:00.000Z",
        expiresAt: "2031-05-08T08:01:00.000Z",
      },
      {
        id: first,
        personalId: trainer.id,
        personalName: "Bruno Lima",
        studentEmail: ana.email,
        message: "oi",
        status: "PENDING",
        createdAt: "2031-05-01T08:00:00.000Z",
        expiresAt: "2031-05-08T08:00:00.000Z",
      },
    ]);
    for (const invite of res.body.content) expect(sortedKeys(invite)).toEqual(SENT_INVITE_KEYS);
  });

  it("gives the student its received invites with the trainer's e-mail and picture and no studentEmail", async () => {
    const { trainer, student, inviteId } = await scene();
    const other = await makeStudent(t);
    await invited(t, trainer, other);

    const res = await t.get("/api/students/invites", { token: student.token });
    expect(res.status).toBe(200);
    expect(sortedKeys(res.body)).toEqual(PAGE_KEYS);
    expect(res.body.totalElements).toBe(1);
    expect(res.body.content).toEqual([
      {
        id: inviteId,
        personalId: trainer.id,
        personalName: "Bruno Lima",
        personalEmail: trainer.email,
        personalProfilePicture: null,
        message: "Bora treinar",
        status: "PENDING",
        createdAt: expect.stringMatching(ISO),
        expiresAt: expect.stringMatching(ISO),
      },
    ]);
    expect(sortedKeys(res.body.content[0])).toEqual(RECEIVED_INVITE_KEYS);
  });

  it("filters by status, pages and sorts", async () => {
    const trainer = await makeTrainer(t);
    const people = [await makeStudent(t), await makeStudent(t), await makeStudent(t)];
    const ids = [await invited(t, trainer, people[0])];
    await accept(ids[0], people[0].token);
    ids.push(await invited(t, trainer, people[1]));
    await reject(ids[1], people[1].token);
    ids.push(await invited(t, trainer, people[2]));

    const byStatus = async (status: string) =>
      (await t.get(`/api/personal/invites?status=${status}`, { token: trainer.token })).body.content.map((i: { id: number }) => i.id);
    expect(await byStatus("PENDING")).toEqual([ids[2]]);
    expect(await byStatus("ACCEPTED")).toEqual([ids[0]]);
    expect(await byStatus("REJECTED")).toEqual([ids[1]]);
    expect(await byStatus("EXPIRED")).toEqual([]);

    const page = await t.get("/api/personal/invites?page=1&size=2&sort=id,asc", { token: trainer.token });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ totalElements: 3, totalPages: 2, number: 1, size: 2, numberOfElements: 1, first: false, last: true });
    expect(page.body.content.map((i: { id: number }) => i.id)).toEqual([ids[2]]);
    expect(page.body.sort).toEqual({ sorted: true, unsorted: false, empty: false });
  });

  it.each([
    ["/api/personal/invites?status=ACTIVE", "trainer", "Parâmetro inválido: status"],
    ["/api/students/invites?status=pending", "student", "Parâmetro inválido: status"],
    ["/api/personal/invites?sort=studentName,asc", "trainer", "Parâmetro inválido: sort"],
    ["/api/students/invites?page=-1", "student", "Parâmetro inválido: page"],
  ])("answers 400 to %s", async (url, who, message) => {
    const { trainer, student } = await scene();
    const res = await t.get(url, { invalidRequest: true, token: (who === "trainer" ? trainer : student).token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message, success: false });
  });

  it("keeps each listing to its role: 403 for the other one, 401 without a token", async () => {
    const { trainer, student } = await scene();
    const wrongTrainer = await t.get("/api/students/invites", { token: trainer.token });
    expect(wrongTrainer.status).toBe(403);
    expect(wrongTrainer.body).toEqual(STUDENTS_ONLY);
    const wrongStudent = await t.get("/api/personal/invites", { token: student.token });
    expect(wrongStudent.status).toBe(403);
    expect(wrongStudent.body).toEqual(TRAINERS_ONLY);
    for (const url of ["/api/students/invites", "/api/personal/invites"]) {
      const res = await t.get(url);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
    }
  });
});

describe("POST /api/students/invites/{id}/accept", () => {
  it("answers 200 with the full ACTIVE link, marks the invite ACCEPTED and tells the trainer", async () => {
    t.clock.set(new Date("2031-06-01T10:00:00.000Z"));
    const { trainer, student, inviteId } = await scene();
    t.clock.advance(3_600_000);

    const res = await accept(inviteId, student.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      personalId: trainer.id,
      personalName: "Bruno Lima",
      personalEmail: trainer.email,
      personalProfilePicture: null,
      studentId: student.id,
      studentName: "Ana Souza",
      studentEmail: student.email,
      studentProfilePicture: null,
      status: "ACTIVE",
      createdAt: "2031-06-01T11:00:00.000Z",
      updatedAt: "2031-06-01T11:00:00.000Z",
    });
    expect(sortedKeys(res.body)).toEqual(FULL_LINK_KEYS);

    const [invite] = await inviteRows(t);
    expect(invite.status).toBe("ACCEPTED");
    expect(invite.updatedAt?.toISOString()).toBe("2031-06-01T11:00:00.000Z");
    const links = await linkRows(t);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ id: res.body.id, personalId: trainer.id, studentId: student.id, status: "ACTIVE" });

    const mails = await mailsTo(t, trainer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Convite aceito");
    expect(mails[0].text).toContain("Ana Souza aceitou seu convite");
    expect(t.smtp.to(student.email)).toHaveLength(0);

    const listed = await t.get("/api/students/invites", { token: student.token });
    expect(listed.body.content[0]).toMatchObject({ id: inviteId, status: "ACCEPTED", updatedAt: "2031-06-01T11:00:00.000Z" });
  });

  it("answers 409 to a second accept or a reject afterwards, and changes nothing", async () => {
    const { trainer, student, inviteId } = await scene();
    await accept(inviteId, student.token);
    await t.deliverMail();
    for (const res of [await accept(inviteId, student.token), await reject(inviteId, student.token)]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual(CLOSED);
    }
    expect((await inviteRows(t)).map((row) => row.status)).toEqual(["ACCEPTED"]);
    expect(await linkRows(t)).toHaveLength(1);
    expect(t.smtp.to(trainer.email)).toHaveLength(1);
    expect(await t.deliverMail()).toBe(0);
  });

  it("creates one link when the same invite is accepted twice at once", async () => {
    const { student, inviteId } = await scene();
    const results = await Promise.all([accept(inviteId, student.token), accept(inviteId, student.token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await linkRows(t)).toHaveLength(1);
    expect(await t.deliverMail()).toBe(1);
  });
});

describe("POST /api/students/invites/{id}/reject", () => {
  it("answers 200 with the REJECTED invite (updatedAt present) and tells the trainer", async () => {
    t.clock.set(new Date("2031-06-01T10:00:00.000Z"));
    const { trainer, student, inviteId } = await scene();
    t.clock.advance(60_000);

    const res = await reject(inviteId, student.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: inviteId,
      personalId: trainer.id,
      personalName: "Bruno Lima",
      personalEmail: trainer.email,
      personalProfilePicture: null,
      message: "Bora treinar",
      status: "REJECTED",
      createdAt: "2031-06-01T10:00:00.000Z",
      expiresAt: "2031-06-08T10:00:00.000Z",
      updatedAt: "2031-06-01T10:01:00.000Z",
    });
    const [row] = await inviteRows(t);
    expect(row.status).toBe("REJECTED");
    expect(await linkRows(t)).toHaveLength(0);

    const mails = await mailsTo(t, trainer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Convite recusado");
    expect(mails[0].text).toContain("Ana Souza recusou seu convite");

    const sent = await t.get("/api/personal/invites", { token: trainer.token });
    expect(sent.body.content[0]).toMatchObject({ id: inviteId, status: "REJECTED", updatedAt: "2031-06-01T10:01:00.000Z" });
    expect(sortedKeys(sent.body.content[0])).toEqual([...SENT_INVITE_KEYS, "updatedAt"].sort());
  });

  it("answers 409 to an accept or a second reject afterwards", async () => {
    const { student, inviteId } = await scene();
    await reject(inviteId, student.token);
    expect((await accept(inviteId, student.token)).body).toEqual(CLOSED);
    const again = await reject(inviteId, student.token);
    expect(again.status).toBe(409);
    expect(again.body).toEqual(CLOSED);
    expect(await linkRows(t)).toHaveLength(0);
  });
});

describe("invite expiry", () => {
  it("still lets the student answer just before the 7 days are over", async () => {
    const { student, inviteId } = await scene();
    t.clock.advance(INVITE_TTL_MS - 1000);
    await relogin(t, student);
    expect((await accept(inviteId, student.token)).status).toBe(200);
  });

  it("reads EXPIRED everywhere at once after 7 days, refuses accept and reject with 409, and the sweep persists it", async () => {
    const { trainer, student, inviteId } = await scene();
    t.clock.advance(INVITE_TTL_MS + 1000);
    await relogin(t, trainer, student);

    for (const res of [await accept(inviteId, student.token), await reject(inviteId, student.token)]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual(CLOSED);
    }
    expect(await linkRows(t)).toHaveLength(0);
    expect(await t.deliverMail()).toBe(0);

    const received = await t.get("/api/students/invites?status=EXPIRED", { token: student.token });
    expect(received.body.content.map((i: { id: number; status: string }) => [i.id, i.status])).toEqual([[inviteId, "EXPIRED"]]);
    const pending = await t.get("/api/personal/invites?status=PENDING", { token: trainer.token });
    expect(pending.body).toMatchObject({ totalElements: 0, content: [], empty: true });
    const sent = await t.get("/api/personal/invites", { token: trainer.token });
    expect(sent.body.content[0].status).toBe("EXPIRED");

    const swept = await t.app.services.invites.expireInvites();
    expect(swept).toBe(1);
    const [row] = await inviteRows(t);
    expect(row.status).toBe("EXPIRED");
    expect(row.updatedAt?.getTime()).toBe(t.clock.now().getTime());
    expect(await t.app.services.invites.expireInvites()).toBe(0);

    const after = await t.get("/api/personal/invites?status=EXPIRED", { token: trainer.token });
    expect(after.body.content.map((i: { id: number }) => i.id)).toEqual([inviteId]);
    expect((await accept(inviteId, student.token)).body).toEqual(CLOSED);
  });

  it("leaves live invites alone in the sweep", async () => {
    const { trainer, inviteId } = await scene();
    const later = await makeStudent(t);
    t.clock.advance(DAY_MS);
    await relogin(t, trainer);
    const laterId = await invited(t, trainer, later);
    t.clock.advance(INVITE_TTL_MS - DAY_MS);
    expect(await t.app.services.invites.expireInvites()).toBe(1);
    expect((await inviteRows(t)).map((row) => [row.id, row.status])).toEqual([
      [inviteId, "EXPIRED"],
      [laterId, "PENDING"],
    ]);
  });
});

describe("who may answer an invite", () => {
  it("answers 403 Acesso negado to another student, for accept and reject", async () => {
    const { inviteId } = await scene();
    const intruder = await makeStudent(t);
    for (const res of [await accept(inviteId, intruder.token), await reject(inviteId, intruder.token)]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "Acesso negado", success: false });
    }
    expect((await inviteRows(t)).map((row) => row.status)).toEqual(["PENDING"]);
  });

  it("answers 404 Convite não encontrado to an unknown id", async () => {
    const { student } = await scene();
    for (const res of [await accept(999_999, student.token), await reject(999_999, student.token)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Convite não encontrado", success: false });
    }
  });

  it("answers 403 Apenas alunos podem acessar este recurso to a trainer, even its own invite", async () => {
    const { trainer, inviteId } = await scene();
    for (const res of [await accept(inviteId, trainer.token), await reject(inviteId, trainer.token), await accept(999_999, trainer.token)]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(STUDENTS_ONLY);
    }
    expect((await inviteRows(t)).map((row) => row.status)).toEqual(["PENDING"]);
  });

  it("checks the role before the id: 403 to a trainer, 400 Parâmetro inválido: id to a student", async () => {
    const { trainer, student } = await scene();
    for (const path of ["abc/accept", "abc/reject"]) {
      const asTrainer = await t.post(`/api/students/invites/${path}`, { invalidRequest: true, token: trainer.token });
      expect(asTrainer.status).toBe(403);
      expect(asTrainer.body).toEqual(STUDENTS_ONLY);
      const asStudent = await t.post(`/api/students/invites/${path}`, { invalidRequest: true, token: student.token });
      expect(asStudent.status).toBe(400);
      expect(asStudent.body).toEqual({ message: "Parâmetro inválido: id", success: false });
    }
  });

  it("answers 401 without a token", async () => {
    const { inviteId } = await scene();
    const res = await t.post(`/api/students/invites/${inviteId}/accept`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });
});
