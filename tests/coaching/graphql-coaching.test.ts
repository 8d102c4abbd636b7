import { afterEach, describe, expect, it, vi } from "vitest";
import { useTestApp, type GraphqlError } from "../helpers/test-app.js";
import { makeStudent, makeTrainer, makeUser, type MadeUser, relogin } from "../factories/users.js";
import { INVITE_TTL_MS, inviteRows, invited, linkRows, mailsTo, statuses, subscribe } from "./support.js";
import { linkTrainerAndStudent } from "../factories/content.js";

const ADMIN_EMAIL = "admin.coaching@example.com";
const t = useTestApp({ ADMIN_EMAILS: ADMIN_EMAIL });

const INVITE_FIELDS = `id personalId personalName personalEmail personalProfilePicture studentEmail message status createdAt expiresAt updatedAt`;
const LINK_FIELDS = `id personalId personalName personalEmail personalProfilePicture studentId studentName studentEmail studentProfilePicture status createdAt updatedAt`;

const INVITE = `mutation ($email: String!, $message: String) { inviteStudent(studentEmail: $email, message: $message) { ${INVITE_FIELDS} } }`;
const SENT = `query ($status: InviteStatus, $page: PageInput) { sentInvites(status: $status, page: $page) { totalElements totalPages number size content { ${INVITE_FIELDS} } } }`;
const RECEIVED = `query ($status: InviteStatus) { receivedInvites(status: $status) { totalElements content { ${INVITE_FIELDS} personal { id name } } } }`;
const ACCEPT = `mutation ($id: Int!) { acceptInvite(id: $id) { ${LINK_FIELDS} } }`;
const REJECT = `mutation ($id: Int!) { rejectInvite(id: $id) { ${INVITE_FIELDS} } }`;
const MY_STUDENTS = `query ($filter: LinkFilter, $page: PageInput) { myStudents(filter: $filter, page: $page) { totalElements totalPages number size content { ${LINK_FIELDS} } } }`;
const MY_PERSONALS = `query ($filter: LinkFilter, $page: PageInput) { myPersonals(filter: $filter, page: $page) { totalElements content { ${LINK_FIELDS} } } }`;
const REMOVE_STUDENT = `mutation ($id: Int!) { removeStudent(linkId: $id) }`;
const REMOVE_PERSONAL = `mutation ($id: Int!) { removePersonal(linkId: $id) }`;

/** The one error of a GraphQL answer. */
function onlyError(body: { errors?: GraphqlError[] }): GraphqlError {
  expect(body.errors).toHaveLength(1);
  return body.errors![0];
}

/** The answer of an operation that must succeed. */
async function ok<T = any>(query: string, variables: Record<string, unknown>, user: MadeUser): Promise<T> {
  const body = await t.graphql(query, variables, user.token);
  expect(body.errors).toBeUndefined();
  return body.data as T;
}

/** The REST shape with the fields it leaves out as GraphQL's nulls. */
const withNulls = (rest: Record<string, unknown>, fields: string) => Object.fromEntries(fields.split(" ").map((field) => [field, rest[field] ?? null]));

describe("GraphQL inviteStudent", () => {
  it("invites like REST: the trainer's view of the PENDING invite, stored, e-mailed to the student", async () => {
    t.clock.set(new Date("2031-03-10T12:00:00.000Z"));
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const student = await makeStudent(t, { name: "Ana Souza" });

    const data = await ok(INVITE, { email: student.email.toUpperCase(), message: "Bora" }, trainer);
    expect(data.inviteStudent).toEqual({
      id: expect.any(Number),
      personalId: trainer.id,
      personalName: "Bruno Lima",
      personalEmail: null,
      personalProfilePicture: null,
      studentEmail: student.email,
      message: "Bora",
      status: "PENDING",
      createdAt: "2031-03-10T12:00:00.000Z",
      expiresAt: "2031-03-17T12:00:00.000Z",
      updatedAt: null,
    });
    expect((await inviteRows(t)).map((row) => [row.id, row.studentId, row.status])).toEqual([[data.inviteStudent.id, student.id, "PENDING"]]);
    const mails = await mailsTo(t, student.email);
    expect(mails.map((mail) => mail.subject)).toEqual(["Você recebeu um convite de personal trainer"]);

    const rest = await t.get("/api/personal/invites", { token: trainer.token });
    expect(data.inviteStudent).toEqual(withNulls(rest.body.content[0], INVITE_FIELDS));
  });

  it("answers the REST messages with their codes: 404, 409, 409 403, 401", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const linkedStudent = await makeStudent(t);
    await linkTrainerAndStudent(t, trainer, linkedStudent);

    const unknown = onlyError(await t.graphql(INVITE, { email: "ninguem@example.com" }, trainer.token));
    expect(unknown.message).toBe("Usuário não encontrado");
    expect(unknown.extensions).toEqual({ code: "NOT_FOUND", status: 404 });

    await ok(INVITE, { email: student.email }, trainer);
    const pending = onlyError(await t.graphql(INVITE, { email: student.email }, trainer.token));
    expect(pending.message).toBe("Já existe um convite pendente para este aluno");
    expect(pending.extensions).toEqual({ code: "CONFLICT", status: 409 });

    const already = onlyError(await t.graphql(INVITE, { email: linkedStudent.email }, trainer.token));
    expect(already.message).toBe("Aluno já vinculado a este personal");
    expect(already.extensions).toEqual({ code: "CONFLICT", status: 409 });

    const asStudent = onlyError(await t.graphql(INVITE, { email: linkedStudent.email }, student.token));
    expect(asStudent.message).toBe("Apenas personal trainers podem acessar este recurso");
    expect(asStudent.extensions).toEqual({ code: "FORBIDDEN", status: 403 });

    const anonymous = onlyError(await t.graphql(INVITE, { email: student.email }));
    expect(anonymous.message).toBe("Token inválido ou expirado");
    expect(anonymous.extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
    expect(await inviteRows(t)).toHaveLength(2);
  });

  it("answers BAD_USER_INPUT with the field errors for a bad e-mail, a long message or a trainer's e-mail", async () => {
    const trainer = await makeTrainer(t);
    const other = await makeTrainer(t);
    const student = await makeStudent(t);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ email: "not-an-email" }, ["studentEmail"]],
      [{ email: student.email, message: "x".repeat(501) }, ["message"]],
      [{ email: other.email }, ["studentEmail"]],
    ];
    for (const [variables, fields] of cases) {
      const error = onlyError(await t.graphql(INVITE, variables, trainer.token));
      expect(error.message).toBe("Validation failed");
      expect(error.extensions.code).toBe("BAD_USER_INPUT");
      expect(error.extensions.status).toBe(400);
      expect(error.extensions.errors.map((e: { field: string }) => e.field)).toEqual(fields);
    }
    expect(await inviteRows(t)).toHaveLength(0);
  });

  it("answers UNPROCESSABLE 422 past the student limit, also to simultaneous invites", async () => {
    const trainer = await makeTrainer(t);
    const list: MadeUser[] = [];
    for (let i = 0; i < 6; i += 1) list.push(await makeStudent(t));
    const results = await Promise.all(list.map((student) => t.graphql(INVITE, { email: student.email }, trainer.token)));
    const codes = results.map((body) => (body.errors ? body.errors[0].extensions.code : "OK")).sort();
    expect(codes).toEqual(["OK", "OK", "UNPROCESSABLE", "UNPROCESSABLE", "UNPROCESSABLE", "UNPROCESSABLE"]);
    const refused = results.find((body) => body.errors)!;
    expect(onlyError(refused)).toMatchObject({
      message: "Você atingiu o limite de alunos para seu plano atual",
      extensions: { code: "UNPROCESSABLE", status: 422 },
    });
    expect(await inviteRows(t)).toHaveLength(2);
  });

  it("follows the plan's limit like REST (Básico: 5)", async () => {
    const trainer = await makeTrainer(t);
    await subscribe(t, trainer, "Básico");
    const list: MadeUser[] = [];
    for (let i = 0; i < 6; i += 1) list.push(await makeStudent(t));
    const answers = [];
    for (const student of list) answers.push(await t.graphql(INVITE, { email: student.email }, trainer.token));
    expect(answers.map((body) => (body.errors ? body.errors[0].extensions.status : 201))).toEqual([201, 201, 201, 201, 201, 422]);
  });
});

describe("GraphQL sentInvites / receivedInvites", () => {
  it("lists with the REST views, the trainer as Invite.personal, and filters EXPIRED at once", async () => {
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const student = await makeStudent(t, { name: "Ana Souza" });
    const inviteId = await invited(t, trainer, student, "oi");

    const received = await ok(RECEIVED, {}, student);
    expect(received.receivedInvites.totalElements).toBe(1);
    const [invite] = received.receivedInvites.content;
    expect(invite).toMatchObject({
      id: inviteId,
      personalEmail: trainer.email,
      studentEmail: null,
      status: "PENDING",
      personal: { id: trainer.id, name: "Bruno Lima" },
    });
    const restReceived = await t.get("/api/students/invites", { token: student.token });
    expect(withNulls(invite, INVITE_FIELDS)).toEqual(withNulls(restReceived.body.content[0], INVITE_FIELDS));

    const sent = await ok(SENT, {}, trainer);
    expect(sent.sentInvites).toMatchObject({ totalElements: 1, totalPages: 1, number: 0, size: 20 });
    expect(sent.sentInvites.content[0]).toMatchObject({ id: inviteId, studentEmail: student.email, personalEmail: null });

    t.clock.advance(INVITE_TTL_MS + 1000);
    await relogin(t, trainer, student);
    expect((await ok(SENT, { status: "PENDING" }, trainer)).sentInvites.totalElements).toBe(0);
    const expired = await ok(RECEIVED, { status: "EXPIRED" }, student);
    expect(expired.receivedInvites.content.map((i: { id: number; status: string }) => [i.id, i.status])).toEqual([[inviteId, "EXPIRED"]]);

    const closed = onlyError(await t.graphql(ACCEPT, { id: inviteId }, student.token));
    expect(closed.message).toBe("Este convite já foi processado ou expirou");
    expect(closed.extensions).toEqual({ code: "CONFLICT", status: 409 });
  });

  it("keeps each list to its role and refuses an unknown status and a bad sort", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const wrong = onlyError(await t.graphql(RECEIVED, {}, trainer.token));
    expect(wrong).toMatchObject({ message: "Apenas alunos podem acessar este recurso", extensions: { code: "FORBIDDEN", status: 403 } });
    const wrongToo = onlyError(await t.graphql(SENT, {}, student.token));
    expect(wrongToo).toMatchObject({ message: "Apenas personal trainers podem acessar este recurso", extensions: { code: "FORBIDDEN", status: 403 } });
    const badEnum = onlyError(await t.graphql(SENT, { status: "ACTIVE" }, trainer.token));
    expect(badEnum.extensions.code).toBe("BAD_USER_INPUT");
    const badSort = onlyError(await t.graphql(SENT, { page: { sort: ["nope,asc"] } }, trainer.token));
    expect(badSort).toMatchObject({ message: "Parâmetro inválido: sort", extensions: { code: "BAD_USER_INPUT", status: 400 } });
  });

  it("reads a null status as no status filter, like an absent one", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const inviteId = await invited(t, trainer, student);
    const sent = await ok(SENT, { status: null }, trainer);
    expect(sent.sentInvites.totalElements).toBe(1);
    expect(sent.sentInvites.content.map((i: { id: number }) => i.id)).toEqual([inviteId]);
    const received = await ok(RECEIVED, { status: null }, student);
    expect(received.receivedInvites.content.map((i: { id: number; status: string }) => [i.id, i.status])).toEqual([[inviteId, "PENDING"]]);
  });
});

describe("GraphQL acceptInvite / rejectInvite", () => {
  it("accepts: the full ACTIVE link, the invite ACCEPTED, the trainer e-mailed; a second answer is CONFLICT", async () => {
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const student = await makeStudent(t, { name: "Ana Souza" });
    const inviteId = await invited(t, trainer, student);
    await t.deliverMail();
    t.smtp.clear();

    const data = await ok(ACCEPT, { id: inviteId }, student);
    expect(data.acceptInvite).toEqual({
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
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    });
    expect((await inviteRows(t))[0].status).toBe("ACCEPTED");
    expect((await mailsTo(t, trainer.email)).map((mail) => mail.subject)).toEqual(["Convite aceito"]);

    for (const query of [ACCEPT, REJECT]) {
      const error = onlyError(await t.graphql(query, { id: inviteId }, student.token));
      expect(error.message).toBe("Este convite já foi processado ou expirou");
      expect(error.extensions).toEqual({ code: "CONFLICT", status: 409 });
    }
  });

  it("rejects: the REJECTED invite with updatedAt, the trainer e-mailed", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const inviteId = await invited(t, trainer, student);
    await t.deliverMail();
    t.clock.advance(1000);

    const data = await ok(REJECT, { id: inviteId }, student);
    expect(data.rejectInvite).toMatchObject({
      id: inviteId,
      status: "REJECTED",
      personalEmail: trainer.email,
      studentEmail: null,
      updatedAt: t.clock.now().toISOString(),
    });
    expect((await inviteRows(t))[0].status).toBe("REJECTED");
    expect((await mailsTo(t, trainer.email)).map((mail) => mail.subject)).toEqual(["Convite recusado"]);
  });

  it("answers FORBIDDEN to another student and to a trainer, NOT_FOUND to an unknown id", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const intruder = await makeStudent(t);
    const inviteId = await invited(t, trainer, student);

    for (const query of [ACCEPT, REJECT]) {
      const other = onlyError(await t.graphql(query, { id: inviteId }, intruder.token));
      expect(other.message).toBe("Acesso negado");
      expect(other.extensions).toEqual({ code: "FORBIDDEN", status: 403 });
      const role = onlyError(await t.graphql(query, { id: inviteId }, trainer.token));
      expect(role.message).toBe("Apenas alunos podem acessar este recurso");
      expect(role.extensions).toEqual({ code: "FORBIDDEN", status: 403 });
      const missing = onlyError(await t.graphql(query, { id: 999_999 }, student.token));
      expect(missing.message).toBe("Convite não encontrado");
      expect(missing.extensions).toEqual({ code: "NOT_FOUND", status: 404 });
    }
    expect((await inviteRows(t))[0].status).toBe("PENDING");
  });
});

describe("GraphQL myStudents / myPersonals / removeStudent / removePersonal", () => {
  it("lists the trainer's ACTIVE students with name filter and paging, as REST does", async () => {
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const ana = await makeStudent(t, { name: "Ana Souza" });
    const mariana = await makeStudent(t, { name: "Mariana Costa" });
    const anaLink = await linkTrainerAndStudent(t, trainer, ana);
    const marianaLink = await linkTrainerAndStudent(t, trainer, mariana);

    const all = await ok(MY_STUDENTS, { page: { sort: ["studentName,asc"] } }, trainer);
    expect(all.myStudents).toMatchObject({ totalElements: 2, totalPages: 1, number: 0, size: 20 });
    const rest = await t.get("/api/personal/students?sort=studentName,asc", { token: trainer.token });
    expect(all.myStudents.content).toEqual(rest.body.content.map((link: Record<string, unknown>) => withNulls(link, LINK_FIELDS)));
    expect(all.myStudents.content[0]).toMatchObject({ personalEmail: null, studentEmail: ana.email });

    const filtered = await ok(MY_STUDENTS, { filter: { name: "ANA" }, page: { sort: ["id,asc"] } }, trainer);
    expect(filtered.myStudents.content.map((l: { id: number }) => l.id)).toEqual([anaLink, marianaLink]);
    const paged = await ok(MY_STUDENTS, { page: { size: 1, page: 1, sort: ["studentName,asc"] } }, trainer);
    expect(paged.myStudents).toMatchObject({ totalElements: 2, totalPages: 2, number: 1, size: 1 });
    expect(paged.myStudents.content.map((l: { studentName: string }) => l.studentName)).toEqual(["Mariana Costa"]);

    const wrong = onlyError(await t.graphql(MY_STUDENTS, {}, ana.token));
    expect(wrong).toMatchObject({ message: "Apenas personal trainers podem acessar este recurso", extensions: { code: "FORBIDDEN", status: 403 } });
  });

  it("reads null filter fields as not given: ACTIVE links, any name", async () => {
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const ana = await makeStudent(t, { name: "Ana Souza" });
    const anaLink = await linkTrainerAndStudent(t, trainer, ana);
    const students = await ok(MY_STUDENTS, { filter: { name: null, status: null } }, trainer);
    expect(students.myStudents.content.map((l: { id: number; status: string }) => [l.id, l.status])).toEqual([[anaLink, "ACTIVE"]]);
    const personals = await ok(MY_PERSONALS, { filter: { name: null, status: null } }, ana);
    expect(personals.myPersonals.content.map((l: { id: number; status: string }) => [l.id, l.status])).toEqual([[anaLink, "ACTIVE"]]);
  });

  it("lists the student's trainers without the student's e-mail", async () => {
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const student = await makeStudent(t, { name: "Ana Souza" });
    const linkId = await linkTrainerAndStudent(t, trainer, student);
    const data = await ok(MY_PERSONALS, {}, student);
    expect(data.myPersonals.totalElements).toBe(1);
    expect(data.myPersonals.content[0]).toMatchObject({ id: linkId, personalEmail: trainer.email, studentEmail: null, studentProfilePicture: null });
    const wrong = onlyError(await t.graphql(MY_PERSONALS, {}, trainer.token));
    expect(wrong).toMatchObject({ message: "Apenas alunos podem acessar este recurso", extensions: { code: "FORBIDDEN", status: 403 } });
  });

  it("removeStudent ends the link (INACTIVE, e-mail to the student); again NOT_FOUND; another trainer FORBIDDEN", async () => {
    const trainer = await makeTrainer(t);
    const stranger = await makeTrainer(t);
    const student = await makeStudent(t);
    const linkId = await linkTrainerAndStudent(t, trainer, student);
    await t.deliverMail();
    t.smtp.clear();

    const foreign = onlyError(await t.graphql(REMOVE_STUDENT, { id: linkId }, stranger.token));
    expect(foreign.message).toBe("Acesso negado");
    expect(foreign.extensions).toEqual({ code: "FORBIDDEN", status: 403 });

    expect(await ok(REMOVE_STUDENT, { id: linkId }, trainer)).toEqual({ removeStudent: true });
    expect((await linkRows(t)).map((row) => row.status)).toEqual(["INACTIVE"]);
    expect((await mailsTo(t, student.email)).map((mail) => mail.subject)).toEqual(["Vínculo encerrado"]);
    const inactive = await ok(MY_STUDENTS, { filter: { status: "INACTIVE" } }, trainer);
    expect(inactive.myStudents.content.map((l: { id: number }) => l.id)).toEqual([linkId]);
    expect((await ok(MY_STUDENTS, {}, trainer)).myStudents.totalElements).toBe(0);

    const again = onlyError(await t.graphql(REMOVE_STUDENT, { id: linkId }, trainer.token));
    expect(again.message).toBe("Relacionamento não encontrado");
    expect(again.extensions).toEqual({ code: "NOT_FOUND", status: 404 });
  });

  it("removePersonal ends the link and tells the trainer; the role is checked", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const linkId = await linkTrainerAndStudent(t, trainer, student);
    await t.deliverMail();
    t.smtp.clear();

    const role = onlyError(await t.graphql(REMOVE_PERSONAL, { id: linkId }, trainer.token));
    expect(role).toMatchObject({ message: "Apenas alunos podem acessar este recurso", extensions: { code: "FORBIDDEN", status: 403 } });
    expect(await ok(REMOVE_PERSONAL, { id: linkId }, student)).toEqual({ removePersonal: true });
    expect((await linkRows(t)).map((row) => row.status)).toEqual(["INACTIVE"]);
    expect((await mailsTo(t, trainer.email)).map((mail) => mail.subject)).toEqual(["Vínculo encerrado"]);
  });

  it("re-activates the same link through a later invite and accept", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const linkId = await linkTrainerAndStudent(t, trainer, student);
    await ok(REMOVE_STUDENT, { id: linkId }, trainer);
    const invite = await ok(INVITE, { email: student.email }, trainer);
    const accepted = await ok(ACCEPT, { id: invite.inviteStudent.id }, student);
    expect(accepted.acceptInvite).toMatchObject({ id: linkId, status: "ACTIVE" });
    expect(await linkRows(t)).toHaveLength(1);
  });

  it("answers the same outcome to simultaneous removals: one true, the others NOT_FOUND", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const linkId = await linkTrainerAndStudent(t, trainer, student);
    await t.deliverMail();
    const results = await Promise.all([t.graphql(REMOVE_STUDENT, { id: linkId }, trainer.token), t.graphql(REMOVE_PERSONAL, { id: linkId }, student.token)]);
    const codes = results.map((body) => (body.errors ? body.errors[0].extensions.code : "OK")).sort();
    expect(codes).toEqual(["NOT_FOUND", "OK"]);
    expect(await t.deliverMail()).toBe(1);
  });
});

describe("GraphQL User.students / User.personals", () => {
  it("gives me my students and their users, and a student its trainers", async () => {
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const ana = await makeStudent(t, { name: "Ana Souza" });
    const pedro = await makeStudent(t, { name: "Pedro Alves" });
    const anaLink = await linkTrainerAndStudent(t, trainer, ana);
    const pedroLink = await linkTrainerAndStudent(t, trainer, pedro);
    await ok(REMOVE_STUDENT, { id: pedroLink }, trainer);

    const mine = await ok(`query { me { students { id studentName student { id name } } } }`, {}, trainer);
    expect(mine.me.students).toEqual([{ id: anaLink, studentName: "Ana Souza", student: { id: ana.id, name: "Ana Souza" } }]);

    const hers = await ok(`query { me { personals { personal { name } } } }`, {}, ana);
    expect(hers.me.personals).toEqual([{ personal: { name: "Bruno Lima" } }]);
    expect((await ok(`query { me { personals { id } } }`, {}, pedro)).me.personals).toEqual([]);

    const received = await ok(`query { receivedInvites { content { personal { name } } } }`, {}, ana);
    expect(received.receivedInvites.content).toEqual([{ personal: { name: "Bruno Lima" } }]);
  });

  it("refuses another user's students or trainers with FORBIDDEN, except to an administrator", async () => {
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const student = await makeStudent(t, { name: "Ana Souza" });
    await linkTrainerAndStudent(t, trainer, student);

    // The student may read the trainer (an ACTIVE link), but not the trainer's students.
    const body = await t.graphql(`query ($id: Int!) { user(id: $id) { name students { id } } }`, { id: trainer.id }, student.token);
    const error = onlyError(body);
    expect(error.message).toBe("Acesso negado");
    expect(error.extensions).toEqual({ code: "FORBIDDEN", status: 403 });
    expect(error.path).toEqual(["user", "students"]);

    const personals = onlyError(await t.graphql(`query ($id: Int!) { user(id: $id) { personals { id } } }`, { id: student.id }, trainer.token));
    expect(personals.extensions).toEqual({ code: "FORBIDDEN", status: 403 });

    const admin = await makeUser(t, { email: ADMIN_EMAIL, userType: "PERSONAL" });
    const asAdmin = await ok(`query ($id: Int!) { user(id: $id) { students { studentName student { name } } } }`, { id: trainer.id }, admin);
    expect(asAdmin.user.students).toEqual([{ studentName: "Ana Souza", student: { name: "Ana Souza" } }]);
  });
});

describe("GraphQL loaders", () => {
  const QUERY = `query { myStudents(page: { size: 20 }) { content { student { id } personal { id } } } }`;

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A trainer with `n` ACTIVE students (the free limit does not apply to an Ilimitado subscriber). */
  async function trainerWith(n: number) {
    const trainer = await makeTrainer(t);
    await subscribe(t, trainer, "Ilimitado");
    for (let i = 0; i < n; i += 1) await linkTrainerAndStudent(t, trainer, await makeStudent(t));
    return trainer;
  }

  /** Resolves QUERY once: rows, calls of the userById loader's batch function, SQL statements run. */
  async function measure(trainer: MadeUser) {
    const userBatches = vi.spyOn(t.app.services.users, "findTreesByIds");
    // Every statement the database runs, prepared or not.
    let statements = 0;
    const stop = t.database.observeQueries(() => void (statements += 1));
    const body = await t.graphql(QUERY, {}, trainer.token).finally(stop);
    expect(body.errors).toBeUndefined();
    const result = {
      rows: body.data.myStudents.content.length,
      userBatches: userBatches.mock.calls.length,
      statements,
    };
    vi.restoreAllMocks();
    return result;
  }

  it("reads the parties of every link in the page's statement: the statement count does not grow with the links", async () => {
    const few = await measure(await trainerWith(3));
    const many = await measure(await trainerWith(12));

    // Both parties come in the page's statement (Link.student and Link.personal are embedded): no loader reads users.
    expect(few).toMatchObject({ rows: 3, userBatches: 0 });
    expect(many).toMatchObject({ rows: 12, userBatches: 0 });
    expect(few.statements).toBeGreaterThan(0);
    expect(many.statements).toBe(few.statements);
  });

  it("reads User.students of `me` and their parties in one call too", async () => {
    const trainer = await trainerWith(5);
    const userBatches = vi.spyOn(t.app.services.users, "findTreesByIds");
    const linkBatches = vi.spyOn(t.app.services.links, "listActiveLinksByUserIds");
    const data = await ok(`query { me { students { student { name } personal { name } } } }`, {}, trainer);
    expect(data.me.students).toHaveLength(5);
    expect(linkBatches).toHaveBeenCalledTimes(1);
    expect(userBatches).not.toHaveBeenCalled();
  });
});

describe("GraphQL and REST together", () => {
  it("share the same limit: invites over both surfaces at once never pass it", async () => {
    const trainer = await makeTrainer(t);
    const list: MadeUser[] = [];
    for (let i = 0; i < 6; i += 1) list.push(await makeStudent(t));
    const answers = await Promise.all(
      list.map((student, i) =>
        i % 2 === 0
          ? t.post("/api/personal/students/invite", { token: trainer.token, body: { studentEmail: student.email } })
          : t.graphql(INVITE, { email: student.email }, trainer.token).then((body) => ({ status: body.errors ? body.errors[0].extensions.status : 201 })),
      ),
    );
    expect(statuses(answers)).toEqual([201, 201, 422, 422, 422, 422]);
    expect(await inviteRows(t)).toHaveLength(2);
  });
});
