import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import { ISO, PAGE_KEYS, STUDENT_LINK_KEYS, TRAINER_LINK_KEYS, invited, linkRows, mailsTo, sortedKeys } from "./support.js";
import { linkTrainerAndStudent } from "../factories/content.js";

// Room for more students than a page holds; the limit itself is tested in invites.test.ts.
const t = useTestApp({ FREE_TRAINER_MAX_STUDENTS: "50" });

const ACCESS_DENIED = { message: "Acesso negado", success: false };
const LINK_NOT_FOUND = { message: "Relacionamento não encontrado", success: false };

const ids = (res: { body: { content: Array<{ id: number }> } }) => res.body.content.map((link) => link.id);
const names = (res: { body: { content: Array<{ studentName?: string; personalName?: string }> } }, key: "studentName" | "personalName") =>
  res.body.content.map((link) => link[key]);

async function trainerWithStudents(studentNames: string[], trainerName = "Bruno Lima") {
  const trainer = await makeTrainer(t, { name: trainerName });
  const students: MadeUser[] = [];
  const links: number[] = [];
  for (const name of studentNames) {
    const student = await makeStudent(t, { name });
    students.push(student);
    links.push(await linkTrainerAndStudent(t, trainer, student));
  }
  await t.deliverMail();
  t.smtp.clear();
  return { trainer, students, links };
}

describe("GET /api/personal/students", () => {
  it("lists the trainer's ACTIVE links without the trainer's own e-mail and picture", async () => {
    const { trainer, students, links } = await trainerWithStudents(["Ana Souza"]);
    // Someone else's student and a pending invite are not listed.
    await trainerWithStudents(["Carla Dias"], "Outro Personal");
    await invited(t, trainer, await makeStudent(t, { name: "Pendente" }));

    const res = await t.get("/api/personal/students", { token: trainer.token });
    expect(res.status).toBe(200);
    expect(sortedKeys(res.body)).toEqual(PAGE_KEYS);
    expect(res.body).toMatchObject({ totalElements: 1, totalPages: 1, number: 0, size: 20, numberOfElements: 1, first: true, last: true, empty: false });
    expect(res.body.content).toEqual([
      {
        id: links[0],
        personalId: trainer.id,
        personalName: "Bruno Lima",
        studentId: students[0].id,
        studentName: "Ana Souza",
        studentEmail: students[0].email,
        studentProfilePicture: null,
        status: "ACTIVE",
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    ]);
    expect(sortedKeys(res.body.content[0])).toEqual(TRAINER_LINK_KEYS);
  });

  it("filters by partial student name, ignoring letter case, and never by the trainer's own name", async () => {
    const { trainer, links } = await trainerWithStudents(["Ana Souza", "Mariana Costa", "Pedro Alves"], "Ana Personal");
    const search = (name: string) => t.get(`/api/personal/students?name=${encodeURIComponent(name)}&sort=id,asc`, { token: trainer.token });

    expect(ids(await search("ana"))).toEqual([links[0], links[1]]);
    expect(ids(await search("COSTA"))).toEqual([links[1]]);
    expect(ids(await search("personal"))).toEqual([]);
    expect(ids(await search("%"))).toEqual([]);
    expect((await search("ana")).body.totalElements).toBe(2);
  });

  it("pages and sorts when there are more students than a page", async () => {
    const { trainer, links } = await trainerWithStudents(["Eva", "Caio", "Ana", "Duda", "Bia"]);
    const page = (query: string) => t.get(`/api/personal/students?${query}`, { token: trainer.token });

    const first = await page("size=2&sort=studentName,asc");
    expect(first.status).toBe(200);
    expect(names(first, "studentName")).toEqual(["Ana", "Bia"]);
    expect(first.body).toMatchObject({ totalElements: 5, totalPages: 3, number: 0, size: 2, numberOfElements: 2, first: true, last: false });
    expect(first.body.pageable).toEqual({
      sort: { sorted: true, unsorted: false, empty: false },
      pageNumber: 0,
      pageSize: 2,
      offset: 0,
      paged: true,
      unpaged: false,
    });
    expect(names(await page("page=1&size=2&sort=studentName,asc"), "studentName")).toEqual(["Caio", "Duda"]);
    const last = await page("page=2&size=2&sort=studentName,asc");
    expect(names(last, "studentName")).toEqual(["Eva"]);
    expect(last.body).toMatchObject({ numberOfElements: 1, first: false, last: true });
    expect(names(await page("size=3&sort=studentName,desc"), "studentName")).toEqual(["Eva", "Duda", "Caio"]);
    expect(ids(await page("sort=id,desc"))).toEqual([...links].reverse());

    const beyond = await page("page=9&size=2");
    expect(beyond.body).toMatchObject({ content: [], empty: true, totalElements: 5, numberOfElements: 0 });
  });

  it.each([
    ["status=REMOVED", "Parâmetro inválido: status"],
    ["sort=email,asc", "Parâmetro inválido: sort"],
    ["size=0", "Parâmetro inválido: size"],
  ])("answers 400 to ?%s", async (query, message) => {
    const { trainer } = await trainerWithStudents([]);
    const res = await t.get(`/api/personal/students?${query}`, { invalidRequest: true, token: trainer.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message, success: false });
  });

  it("answers 403 to a student and 401 without a token", async () => {
    const student = await makeStudent(t);
    const res = await t.get("/api/personal/students", { token: student.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Apenas personal trainers podem acessar este recurso", success: false });
    expect((await t.get("/api/personal/students")).status).toBe(401);
  });
});

describe("GET /api/students/personals", () => {
  it("lists the student's ACTIVE links without the student's own e-mail and picture, filtered by trainer name", async () => {
    const student = await makeStudent(t, { name: "Ana Souza" });
    const trainers = [
      await makeTrainer(t, { name: "Bruno Lima" }),
      await makeTrainer(t, { name: "Carla Brunetti" }),
      await makeTrainer(t, { name: "Davi Rocha" }),
    ];
    const links = [];
    for (const trainer of trainers) links.push(await linkTrainerAndStudent(t, trainer, student));

    const res = await t.get("/api/students/personals?sort=id,asc", { token: student.token });
    expect(res.status).toBe(200);
    expect(sortedKeys(res.body)).toEqual(PAGE_KEYS);
    expect(res.body.totalElements).toBe(3);
    expect(res.body.content[0]).toEqual({
      id: links[0],
      personalId: trainers[0].id,
      personalName: "Bruno Lima",
      personalEmail: trainers[0].email,
      personalProfilePicture: null,
      studentId: student.id,
      studentName: "Ana Souza",
      status: "ACTIVE",
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    for (const link of res.body.content) expect(sortedKeys(link)).toEqual(STUDENT_LINK_KEYS);

    const bruno = await t.get("/api/students/personals?name=BRUN&sort=id,asc", { token: student.token });
    expect(ids(bruno)).toEqual([links[0], links[1]]);
    expect(ids(await t.get("/api/students/personals?name=souza", { token: student.token }))).toEqual([]);

    const paged = await t.get("/api/students/personals?size=2&page=1&sort=personalName,desc", { token: student.token });
    expect(names(paged, "personalName")).toEqual(["Bruno Lima"]);
    expect(paged.body).toMatchObject({ totalElements: 3, totalPages: 2, number: 1, last: true });
  });

  it("answers 403 to a trainer", async () => {
    const trainer = await makeTrainer(t);
    const res = await t.get("/api/students/personals", { token: trainer.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Apenas alunos podem acessar este recurso", success: false });
  });

  it.each([
    ["page=-1", "page"],
    ["sort=password,asc", "sort"],
  ])("refuses %s with 400 naming the parameter", async (query, param) => {
    const student = await makeStudent(t);
    const res = await t.get(`/api/students/personals?${query}`, { invalidRequest: true, token: student.token });
    expect(res).toMatchObject({ status: 400, body: { message: `Parâmetro inválido: ${param}`, success: false } });
  });
});

describe("DELETE /api/personal/students/{linkId}", () => {
  it("answers 204, keeps the link as INACTIVE history and tells the student", async () => {
    const { trainer, students, links } = await trainerWithStudents(["Ana Souza", "Pedro Alves"]);
    t.clock.advance(60_000);

    const res = await t.delete(`/api/personal/students/${links[0]}`, { token: trainer.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");

    const rows = await linkRows(t);
    expect(rows.map((row) => [row.id, row.status])).toEqual([
      [links[0], "INACTIVE"],
      [links[1], "ACTIVE"],
    ]);
    expect(rows[0].updatedAt.getTime()).toBe(t.clock.now().getTime());

    expect(ids(await t.get("/api/personal/students", { token: trainer.token }))).toEqual([links[1]]);
    const inactive = await t.get("/api/personal/students?status=INACTIVE", { token: trainer.token });
    expect(inactive.body.content).toEqual([expect.objectContaining({ id: links[0], status: "INACTIVE", studentName: "Ana Souza" })]);
    expect(ids(await t.get("/api/personal/students?status=ACTIVE", { token: trainer.token }))).toEqual([links[1]]);
    expect(ids(await t.get("/api/students/personals", { token: students[0].token }))).toEqual([]);
    expect(ids(await t.get("/api/students/personals?status=INACTIVE", { token: students[0].token }))).toEqual([links[0]]);

    const mails = await mailsTo(t, students[0].email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Vínculo encerrado");
    expect(mails[0].text).toContain("Olá, Ana Souza!");
    expect(mails[0].text).toContain("Bruno Lima");
    expect(t.smtp.to(trainer.email)).toHaveLength(0);
  });

  it("answers 404 for an unknown link and for one already removed, sending nothing", async () => {
    const { trainer, links } = await trainerWithStudents(["Ana Souza"]);
    await t.delete(`/api/personal/students/${links[0]}`, { token: trainer.token });
    await t.deliverMail();
    for (const id of [links[0], 999_999]) {
      const res = await t.delete(`/api/personal/students/${id}`, { token: trainer.token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(LINK_NOT_FOUND);
    }
    expect(await t.deliverMail()).toBe(0);
  });

  it("answers 403 Acesso negado for another trainer's link and leaves it ACTIVE", async () => {
    const { links } = await trainerWithStudents(["Ana Souza"]);
    const stranger = await makeTrainer(t);
    const res = await t.delete(`/api/personal/students/${links[0]}`, { token: stranger.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(ACCESS_DENIED);
    expect((await linkRows(t))[0].status).toBe("ACTIVE");
  });

  it("checks the role first: 403 to a student, then 400 Parâmetro inválido: id to a trainer", async () => {
    const { trainer, students, links } = await trainerWithStudents(["Ana Souza"]);
    const asStudent = await t.delete(`/api/personal/students/${links[0]}`, { token: students[0].token });
    expect(asStudent.status).toBe(403);
    expect(asStudent.body).toEqual({ message: "Apenas personal trainers podem acessar este recurso", success: false });
    expect((await t.delete("/api/personal/students/abc", { invalidRequest: true, token: students[0].token })).status).toBe(403);
    const bad = await t.delete("/api/personal/students/abc", { invalidRequest: true, token: trainer.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: "Parâmetro inválido: id", success: false });
    expect((await t.delete(`/api/personal/students/${links[0]}`)).status).toBe(401);
    expect((await linkRows(t))[0].status).toBe("ACTIVE");
  });

  it("ends a link once when both parties remove it at the same moment: one 204, one 404, one e-mail", async () => {
    const { trainer, students, links } = await trainerWithStudents(["Ana Souza"]);
    const results = await Promise.all([
      t.delete(`/api/personal/students/${links[0]}`, { token: trainer.token }),
      t.delete(`/api/students/personals/${links[0]}`, { token: students[0].token }),
      t.delete(`/api/personal/students/${links[0]}`, { token: trainer.token }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([204, 404, 404]);
    for (const res of results.filter((r) => r.status === 404)) expect(res.body).toEqual(LINK_NOT_FOUND);
    expect((await linkRows(t))[0].status).toBe("INACTIVE");
    expect(await t.deliverMail()).toBe(1);
  });

  it("re-activates the same link when a later invite is accepted", async () => {
    const { trainer, students, links } = await trainerWithStudents(["Ana Souza"]);
    const [before] = await linkRows(t);
    await t.delete(`/api/personal/students/${links[0]}`, { token: trainer.token });
    t.clock.advance(60_000);

    const inviteId = await invited(t, trainer, students[0]);
    const accepted = await t.post(`/api/students/invites/${inviteId}/accept`, { token: students[0].token });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: links[0], status: "ACTIVE", createdAt: before.createdAt.toISOString() });
    expect(accepted.body.updatedAt).toBe(t.clock.now().toISOString());

    const rows = await linkRows(t);
    expect(rows.map((row) => [row.id, row.status])).toEqual([[links[0], "ACTIVE"]]);
    expect(ids(await t.get("/api/personal/students", { token: trainer.token }))).toEqual([links[0]]);
    expect(ids(await t.get("/api/personal/students?status=INACTIVE", { token: trainer.token }))).toEqual([]);
  });
});

describe("DELETE /api/students/personals/{linkId}", () => {
  it("answers 204, sets the link INACTIVE and tells the trainer", async () => {
    const { trainer, students, links } = await trainerWithStudents(["Ana Souza"]);
    const res = await t.delete(`/api/students/personals/${links[0]}`, { token: students[0].token });
    expect(res.status).toBe(204);
    expect((await linkRows(t))[0].status).toBe("INACTIVE");

    const mails = await mailsTo(t, trainer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Vínculo encerrado");
    expect(mails[0].text).toContain("Olá, Bruno Lima!");
    expect(mails[0].text).toContain("Ana Souza");
    expect(t.smtp.to(students[0].email)).toHaveLength(0);

    const again = await t.delete(`/api/students/personals/${links[0]}`, { token: students[0].token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(LINK_NOT_FOUND);
  });

  it("answers 403 Acesso negado for another student's link, 404 for an unknown one, 403 to a trainer", async () => {
    const { trainer, links } = await trainerWithStudents(["Ana Souza"]);
    const stranger = await makeStudent(t);
    const res = await t.delete(`/api/students/personals/${links[0]}`, { token: stranger.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(ACCESS_DENIED);
    const unknown = await t.delete("/api/students/personals/999999", { token: stranger.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(LINK_NOT_FOUND);
    const asTrainer = await t.delete(`/api/students/personals/${links[0]}`, { token: trainer.token });
    expect(asTrainer.status).toBe(403);
    expect(asTrainer.body).toEqual({ message: "Apenas alunos podem acessar este recurso", success: false });
    const malformed = await t.delete("/api/students/personals/abc", { invalidRequest: true, token: stranger.token });
    expect(malformed).toMatchObject({ status: 400, body: { message: "Parâmetro inválido: id", success: false } });
    expect((await linkRows(t))[0].status).toBe("ACTIVE");
  });
});

describe("GET /api/users/{id} between linked users", () => {
  it("lets a trainer read its linked student's profile and the student read the trainer's", async () => {
    const { trainer, students } = await trainerWithStudents(["Ana Souza"]);
    const student = students[0];
    const studentProfile = await t.get(`/api/users/${student.id}`, { token: trainer.token });
    expect(studentProfile.status).toBe(200);
    expect(studentProfile.body).toMatchObject({ id: student.id, name: "Ana Souza", email: student.email, userType: "ALUNO" });
    const trainerProfile = await t.get(`/api/users/${trainer.id}`, { token: student.token });
    expect(trainerProfile.status).toBe(200);
    expect(trainerProfile.body).toMatchObject({ id: trainer.id, name: "Bruno Lima", userType: "PERSONAL" });
  });

  it("answers 403 to a stranger trainer, to a trainer with only a pending invite, and between a trainer's students", async () => {
    const { trainer, students } = await trainerWithStudents(["Ana Souza", "Pedro Alves"]);
    const stranger = await makeTrainer(t);
    const res = await t.get(`/api/users/${students[0].id}`, { token: stranger.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(ACCESS_DENIED);
    expect((await t.get(`/api/users/${trainer.id}`, { token: stranger.token })).status).toBe(403);
    expect((await t.get(`/api/users/${students[1].id}`, { token: students[0].token })).status).toBe(403);

    const invitee = await makeStudent(t);
    await invited(t, trainer, invitee);
    expect((await t.get(`/api/users/${invitee.id}`, { token: trainer.token })).status).toBe(403);
    expect((await t.get(`/api/users/${trainer.id}`, { token: invitee.token })).status).toBe(403);
  });

  it("stops access the moment the link is removed, from either side", async () => {
    const { trainer, students, links } = await trainerWithStudents(["Ana Souza", "Pedro Alves"]);
    expect((await t.get(`/api/users/${students[0].id}`, { token: trainer.token })).status).toBe(200);
    await t.delete(`/api/personal/students/${links[0]}`, { token: trainer.token });
    const after = await t.get(`/api/users/${students[0].id}`, { token: trainer.token });
    expect(after.status).toBe(403);
    expect(after.body).toEqual(ACCESS_DENIED);
    expect((await t.get(`/api/users/${trainer.id}`, { token: students[0].token })).status).toBe(403);

    expect((await t.get(`/api/users/${trainer.id}`, { token: students[1].token })).status).toBe(200);
    await t.delete(`/api/students/personals/${links[1]}`, { token: students[1].token });
    expect((await t.get(`/api/users/${trainer.id}`, { token: students[1].token })).status).toBe(403);
    expect((await t.get(`/api/users/${students[1].id}`, { token: trainer.token })).status).toBe(403);
  });
});
