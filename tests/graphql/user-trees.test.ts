import { describe, expect, it } from "vitest";
import { useTestApp, type GraphqlError } from "../helpers/test-app.js";
import { createExercise, createPlan, createTraining, linkTrainerAndStudent } from "../factories/content.js";
import { logTrainingExecution, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, makeUser, type MadeUser } from "../factories/users.js";

/*
 * A user is read with the relations other modules embed in it (its page of executions) in the statement that reads
 * the user, whoever reads it (src/modules/users/user.tree.ts): `myStudents` in the page's one statement, `planAssignments`
 * through the userById loader's batch. Both must answer the same, visibility and errors included. Every document runs
 * twice: graphql-js runs it first, graphql-jit's plan from the second run.
 */
const ADMIN_EMAIL = "admin.dashboard@example.com";
const t = useTestApp({ ADMIN_EMAILS: ADMIN_EMAIL, FREE_TRAINER_MAX_STUDENTS: "30" });

type GqlBody = { data?: any; errors?: GraphqlError[] };

const USER = `id name email userType profilePicture phone birthDate gender height weight subscriptionType subscriptionExpirationDate emailConfirmed createdAt updatedAt`;
const PAGE = `totalElements totalPages number size content { id trainingId trainingName userId startTime endTime duration completed notes clientId }`;
const EXECUTIONS = `executions(filter: $filter, page: $page) { ${PAGE} }`;
const VARIABLES = `$filter: ExecutionFilter, $page: PageInput`;

/** The students read with the trainer's page of links. */
const AHEAD = `query ($status: LinkStatus, ${VARIABLES}) { myStudents(filter: { status: $status }, page: { size: 5 }) { content { studentId student { ${USER} ${EXECUTIONS} } } } }`;
/** The same users through the userById loader: the students of the plan's assignments. */
const LOADERS = `query ($planId: Int!, ${VARIABLES}) { planAssignments(filter: { planId: $planId }, page: { size: 5 }) { content { studentId student { ${USER} ${EXECUTIONS} } } } }`;

/** Runs `query` twice (graphql-js, then graphql-jit): both answers must be the same; the statements of each run. */
async function twice(query: string, variables: Record<string, unknown>, token: string) {
  const runs: { body: GqlBody; texts: string[] }[] = [];
  for (let run = 0; run < 2; run += 1) {
    const texts: string[] = [];
    const stop = t.database.observeQueries((statement) => void texts.push(statement));
    try {
      runs.push({ body: await t.graphql(query, variables, token), texts });
    } finally {
      stop();
    }
  }
  expect(runs[1].body).toEqual(runs[0].body);
  return { body: runs[0].body, statements: runs.map((r) => r.texts.length), texts: runs.flatMap((r) => r.texts) };
}

/** Each link's student, by student id. */
function byStudent(body: GqlBody, field: "myStudents" | "planAssignments") {
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  const content = body.data[field].content as { studentId: number; student: unknown }[];
  return Object.fromEntries(content.map(({ studentId, student }) => [studentId, student]));
}

/** `trainer`'s plan assigned to `count` students linked to it, each with its own profile and 0, 3, 6… executions. */
async function dashboard(trainer: MadeUser, count: number) {
  const exercise = await createExercise(t, trainer.token, { name: "Agachamento" });
  const training = await createTraining(t, trainer.token, [exercise.id], { name: "Treino B" });
  const plan = await createPlan(t, trainer.token, [training.id], { name: "Plano B" });
  const students: (MadeUser & { linkId: number })[] = [];
  for (let i = 0; i < count; i += 1) {
    const student = await makeStudent(t, { name: `Aluna ${i}` });
    const profile = await t.put("/api/users/profile", {
      token: student.token,
      body: { phone: `+55 11 9000-000${i}`, birthDate: "1990-05-17", gender: "FEMININO", height: 165.5 + i, weight: 60.25 + i },
    });
    expect(profile.status).toBe(200);
    const linkId = await linkTrainerAndStudent(t, trainer, student);
    expect((await t.post(`/api/training-plans/${plan.id}/assign`, { token: trainer.token, body: { studentId: student.id } })).status).toBe(201);
    for (let k = 0; k < 3 * i; k += 1) {
      const body = trainingExecutionBody(new Date(Date.UTC(2026, 1, 1 + k, 7, 30, 0, 123 * k)), 1200 + k, [
        { exerciseId: exercise.id, sets: [{ repetitions: 8, weight: 40, completed: true }] },
      ]);
      await logTrainingExecution(t, student.token, training.id, { ...body, completed: k % 3 !== 1, ...(k % 2 === 0 ? { notes: `sessão ${k}` } : {}) });
    }
    students.push({ ...student, linkId });
  }
  return { planId: plan.id, students };
}

describe("a user and its executions read in the statement that reads the user", () => {
  it("answers what the assignments' users answer, for every page, filter and order, in one statement under both executors", async () => {
    const coach = await makeTrainer(t, { name: "Treinadora" });
    const { planId, students } = await dashboard(coach, 4);
    const cases: Record<string, unknown>[] = [
      {},
      { page: { size: 2 } },
      { page: { page: 1, size: 4 }, filter: { completed: true } },
      { page: { size: 5, sort: ["startTime,asc"] } },
      { page: { size: 3, sort: ["duration,desc"] }, filter: { startDate: "2026-02-02", endDate: "2026-02-06" } },
    ];
    for (const variables of cases) {
      const ahead = await twice(AHEAD, variables, coach.token);
      expect(ahead.statements, JSON.stringify([variables, ahead.body.errors])).toEqual([1, 1]);
      const loaders = await twice(LOADERS, { planId, ...variables }, coach.token);
      expect(loaders.statements[0]).toBeGreaterThan(1);
      const [read, loaded] = [byStudent(ahead.body, "myStudents"), byStudent(loaders.body, "planAssignments")];
      expect(read, JSON.stringify(variables)).toEqual(loaded);
      expect(Object.keys(read)).toHaveLength(students.length);
    }
    // Not vacuous: the profile's numbers and day, and executions with instants to the millisecond.
    const { body } = await twice(AHEAD, { page: { size: 2 } }, coach.token);
    const last = byStudent(body, "myStudents")[students[3].id] as any;
    expect(last).toMatchObject({ name: "Aluna 3", height: 168.5, weight: 63.25, birthDate: "1990-05-17", gender: "FEMININO" });
    expect(last.executions.totalElements).toBe(9);
    expect(last.executions.content.map((e: any) => e.startTime)).toEqual(["2026-02-09T07:30:00.984Z", "2026-02-08T07:30:00.861Z"]);
  });

  it("builds only the keys a selection reads of each student and execution, and answers what the assignments' users answer", async () => {
    const coach = await makeTrainer(t);
    const { planId } = await dashboard(coach, 3);
    const selections = [
      `name`,
      `__typename`,
      `n: name h: height weight subscriptionExpirationDate birthDate`,
      `id executions(page: $page) { content { duration trainingName } }`,
      `executions(page: $page) { content { __typename startTime d: duration userName exerciseExecutions { __typename } newRecords { __typename } } }`,
      `... on User { email executions(page: $page) { totalPages content { ...Execution } } }`,
      // Resolved by other modules through loaders by the user's id: the whole row is read.
      `name personalRecords { __typename }`,
    ];
    const FRAGMENT = ` fragment Execution on TrainingExecution { id trainingId userId endTime completed notes clientId }`;
    for (const selection of selections) {
      const fragment = selection.includes("...Execution") ? FRAGMENT : "";
      const paged = selection.includes("$page") ? ", $page: PageInput" : "";
      const ahead = await twice(
        `query ($status: LinkStatus${paged}) { myStudents(filter: { status: $status }) { content { studentId student { ${selection} } } } }${fragment}`,
        { page: { size: 2 } },
        coach.token,
      );
      const loaders = await twice(
        `query ($planId: Int!${paged}) { planAssignments(filter: { planId: $planId }) { content { studentId student { ${selection} } } } }${fragment}`,
        { planId, page: { size: 2 } },
        coach.token,
      );
      expect(byStudent(ahead.body, "myStudents"), selection).toEqual(byStudent(loaders.body, "planAssignments"));
    }
    const texts: string[] = [];
    const stop = t.database.observeQueries((statement) => void texts.push(statement));
    await t.graphql(`{ myStudents { content { student { name executions(page: { size: 2 }) { content { duration } } } } } }`, {}, coach.token);
    stop();
    expect(texts[0]).toMatch(/'name'.*'durationSeconds'/s);
    expect(texts[0]).not.toMatch(/'(email|height|createdAt|notes|startTime)'/);
  });

  it("reads of each link only the fields its selection asks, with the same values as the whole link, filtered by name or not", async () => {
    const coach = await makeTrainer(t, { name: "Treinadora Parcial" });
    await dashboard(coach, 3);
    const LINK = `id personalId personalName personalEmail personalProfilePicture studentId studentName studentEmail studentProfilePicture status createdAt updatedAt`;
    const selections = [
      `studentId`,
      `personalName createdAt`,
      `id studentName status student { name }`,
      `studentEmail updatedAt personal { name }`,
      `__typename id`,
    ];
    for (const filter of [`{ status: ACTIVE }`, `{ name: "luna 1" }`]) {
      const whole = await twice(`{ myStudents(filter: ${filter}) { content { ${LINK} student { name } personal { name } } } }`, {}, coach.token);
      const links = whole.body.data.myStudents.content as Record<string, unknown>[];
      expect(links.length).toBe(filter.includes("name") ? 1 : 3);
      expect(links[0]).toMatchObject({ personalName: "Treinadora Parcial", personalId: coach.id, status: "ACTIVE", personal: { name: "Treinadora Parcial" } });
      for (const selection of selections) {
        const part = await twice(`{ myStudents(filter: ${filter}) { content { ${selection} } } }`, {}, coach.token);
        expect(part.body.errors, selection).toBeUndefined();
        const fields = [...selection.replace(/\{[^}]*\}/g, "").matchAll(/\w+/g)].map(([field]) => field).filter((field) => field !== "__typename");
        const expected = links.map((link) => ({
          ...Object.fromEntries(fields.map((field) => [field, link[field]])),
          ...(selection.includes("__typename") ? { __typename: "Link" } : {}),
        }));
        expect(part.body.data.myStudents.content, `${filter} ${selection}`).toEqual(expected);
      }
    }
    // No trainer's field read and no trainer's name searched: the trainer's row is not joined.
    const texts: string[] = [];
    const stop = t.database.observeQueries((statement) => void texts.push(statement));
    await t.graphql(`{ myStudents { content { id student { name } } } }`, {}, coach.token);
    stop();
    expect(texts[0]).not.toMatch(/"trainer"/);
    expect(texts[0]).not.toMatch(/"created_at", "personal_student_links"."updated_at"/);
  });

  it("orders by a party's name it does not read: the party's row is joined for the order alone", async () => {
    const coach = await makeTrainer(t, { name: "Treinadora Ordem" });
    const { students } = await dashboard(coach, 3);
    const ids = students.map((student) => student.id);
    for (const direction of ["asc", "desc"]) {
      const page = await twice(`{ myStudents(page: { sort: ["studentName,${direction}"] }) { content { studentId } } }`, {}, coach.token);
      expect(page.body.errors).toBeUndefined();
      expect(page.body.data.myStudents.content.map((link: { studentId: number }) => link.studentId)).toEqual(direction === "asc" ? ids : [...ids].reverse());
    }
  });

  it("a student whose link was removed is null, as the assignments' users answer it; to an administrator it is not", async () => {
    const coach = await makeTrainer(t);
    const { planId, students } = await dashboard(coach, 2);
    expect((await t.delete(`/api/personal/students/${students[1].linkId}`, { token: coach.token })).status).toBe(204);
    const variables = { status: "INACTIVE", page: { size: 2 } };
    const ahead = await twice(AHEAD, variables, coach.token);
    expect(ahead.statements).toEqual([1, 1]);
    // A stranger now: no profile, and its executions are not asked for.
    expect(byStudent(ahead.body, "myStudents")).toEqual({ [students[1].id]: null });
    expect(byStudent((await twice(LOADERS, { planId, ...variables }, coach.token)).body, "planAssignments")[students[1].id]).toBeNull();

    const admin = await makeUser(t, { email: ADMIN_EMAIL, userType: "PERSONAL" });
    const own = await dashboard(admin, 3);
    expect((await t.delete(`/api/personal/students/${own.students[2].linkId}`, { token: admin.token })).status).toBe(204);
    const asAdmin = await twice(AHEAD, variables, admin.token);
    expect(asAdmin.statements).toEqual([1, 1]);
    const read = byStudent(asAdmin.body, "myStudents");
    // An administrator reads every user and every user's activity: the unlinked student and its 6 executions.
    expect(read[own.students[2].id]).toMatchObject({ name: "Aluna 2", executions: { totalElements: 6 } });
    const loaded = byStudent((await twice(LOADERS, { planId: own.planId, ...variables }, admin.token)).body, "planAssignments");
    expect(read[own.students[2].id]).toEqual(loaded[own.students[2].id]);
  });

  it("reads one page per distinct arguments asked, aliases and fragments included, all in the page's statement", async () => {
    const coach = await makeTrainer(t);
    const { students } = await dashboard(coach, 3);
    const pageOf = (size: number) => `executions(page: { size: ${size} }) { ${PAGE} }`;
    const expected = async (size: number) => {
      const { body, statements } = await twice(`query { myStudents { content { studentId student { id ${pageOf(size)} } } } }`, {}, coach.token);
      expect(statements).toEqual([1, 1]);
      return Object.fromEntries(Object.entries(byStudent(body, "myStudents")).map(([id, s]: [string, any]) => [id, s.executions]));
    };
    const [two, five] = [await expected(2), await expected(5)];
    expect(two[students[2].id].content).toHaveLength(2);

    // Aliases, a fragment and variables that all come to the same arguments: still one statement.
    const same = await twice(
      `query ($size: Int) { myStudents { content { studentId student { id a: ${pageOf(2)} ...More } } } }
      fragment More on User { b: executions(page: { size: $size }) { ${PAGE} } }`,
      { size: 2 },
      coach.token,
    );
    expect(same.statements).toEqual([1, 1]);
    for (const [id, student] of Object.entries(byStudent(same.body, "myStudents")) as [string, any][]) {
      expect(student.a).toEqual(two[id]);
      expect(student.b).toEqual(two[id]);
    }

    // Different arguments: a page for each, still in the one statement.
    const different = await twice(
      `query ($size: Int) { myStudents { content { studentId student { id a: ${pageOf(2)} b: executions(page: { size: $size }) { ${PAGE} } } } } }`,
      { size: 5 },
      coach.token,
    );
    expect(different.statements).toEqual([1, 1]);
    for (const [id, student] of Object.entries(byStudent(different.body, "myStudents")) as [string, any][]) {
      expect(student.a).toEqual(two[id]);
      expect(student.b).toEqual(five[id]);
    }
  });

  it("counts each student's executions only when the selection shows a total, and answers the assignments' page either way", async () => {
    const coach = await makeTrainer(t);
    const { planId } = await dashboard(coach, 3);
    const CONTENT = `number size content { id startTime }`;
    const selections = [
      CONTENT,
      `totalElements ${CONTENT}`,
      `totalPages ${CONTENT}`,
      `${CONTENT} ...Total`,
      // A total under one alias only: the merged selection shows it, so the page counts.
      `${CONTENT} } other: executions(page: $page) { totalElements`,
    ];
    for (const selection of selections) {
      const fields = `student { id executions(page: $page) { ${selection} } }`;
      const fragment = selection.includes("...Total") ? " fragment Total on TrainingExecutionPage { totalPages }" : "";
      const ahead = await twice(`query ($page: PageInput) { myStudents { content { studentId ${fields} } } }${fragment}`, { page: { size: 2 } }, coach.token);
      expect(ahead.statements, selection).toEqual([1, 1]);
      // The executions are counted in the statement exactly when the selection shows a total.
      const counts = ahead.texts.some((text) => text.includes('count(*) from "training_executions"'));
      expect(counts, selection).toBe(selection !== CONTENT);
      const loaders = await twice(
        `query ($planId: Int!, $page: PageInput) { planAssignments(filter: { planId: $planId }) { content { studentId ${fields} } } }${fragment}`,
        { planId, page: { size: 2 } },
        coach.token,
      );
      expect(byStudent(ahead.body, "myStudents"), selection).toEqual(byStudent(loaders.body, "planAssignments"));
    }
  });

  it("arguments the listing refuses: the listing's very refusal, on each student's executions", async () => {
    const coach = await makeTrainer(t);
    const { planId } = await dashboard(coach, 2);
    const variables = { page: { size: 0 } };
    const ahead = await twice(AHEAD, variables, coach.token);
    const loaders = await twice(LOADERS, { planId, ...variables }, coach.token);
    const refusals = (body: GqlBody) => body.errors!.map(({ message, extensions, path }) => ({ message, extensions, at: path!.slice(-2) }));
    expect(ahead.body.errors).toHaveLength(2);
    expect(refusals(ahead.body)).toEqual(refusals(loaders.body));
    expect(ahead.body.errors![0]).toMatchObject({ message: "Parâmetro inválido: size", path: ["myStudents", "content", 0, "student", "executions"] });
  });
});

describe("every answer of a user reads the relations embedded in it", () => {
  const PAGES = `a: executions(page: { size: 1 }) { totalElements content { id startTime } } b: executions(page: { size: 3 }) { totalElements content { id } }`;

  it("user(id) and me read each page asked with the user, as the trainer's page of students reads them", async () => {
    const coach = await makeTrainer(t);
    const { students } = await dashboard(coach, 2);
    const student = students[1];
    const links = await twice(`query { myStudents { content { studentId student { id ${PAGES} } } } }`, {}, coach.token);
    const expected = byStudent(links.body, "myStudents")[student.id] as any;
    expect(expected.a).toMatchObject({ totalElements: 3, content: [expect.any(Object)] });
    expect(expected.b.content).toHaveLength(3);

    const byId = await twice(`query ($id: Int!) { user(id: $id) { id ${PAGES} } }`, { id: student.id }, coach.token);
    expect(byId.body).toEqual({ data: { user: expected } });
    // The user's own rule (404, 403), then the user with both pages: whatever the number of pages.
    expect(byId.statements).toEqual([2, 2]);
    expect((await twice(`query { me { id ${PAGES} } }`, {}, student.token)).body).toEqual({ data: { me: expected } });
  });

  it("a link read back after accepting an invite carries its parties, each page as its rule allows", async () => {
    const coach = await makeTrainer(t, { name: "Treinadora Ana" });
    const student = await makeStudent(t, { name: "Aluna Bia" });
    const invite = await t.post("/api/personal/students/invite", { token: coach.token, body: { studentEmail: student.email } });
    expect(invite.status).toBe(201);

    const body = await t.graphql(
      `mutation ($id: Int!) { acceptInvite(id: $id) { status student { name executions { totalElements } } personal { name executions { totalElements } } } }`,
      { id: invite.body.id },
      student.token,
    );

    // A student reads its own executions, not its trainer's (contract §7).
    expect(body.errors!.map(({ extensions, path }) => [extensions.code, path])).toEqual([["FORBIDDEN", ["acceptInvite", "personal", "executions"]]]);
    expect(body.data).toEqual({
      acceptInvite: {
        status: "ACTIVE",
        student: { name: "Aluna Bia", executions: { totalElements: 0 } },
        personal: { name: "Treinadora Ana", executions: null },
      },
    });
  });

  it("a session's user answers its executions with the refusal an anonymous caller gets, the session still opened", async () => {
    const student = await makeStudent(t);
    const body = await t.graphql(`mutation ($input: LoginInput!) { login(input: $input) { userId user { id executions { totalElements } } } }`, {
      input: { email: student.email, password: student.password },
    });
    expect(body.errors!.map(({ extensions, path }) => [extensions.code, path])).toEqual([["UNAUTHENTICATED", ["login", "user", "executions"]]]);
  });
});
