import { describe, expect, it } from "vitest";
import { useTestApp, type GraphqlError } from "../helpers/test-app.js";
import { createExercise, createPlan, createTraining, linkTrainerAndStudent } from "../factories/content.js";
import { logTrainingExecution, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, makeUser, type MadeUser } from "../factories/users.js";

/*
 * A trainer's dashboard: `myStudents` reads the page of links, the students come through the userById loader and
 * their pages of executions through the executionsOfUser loader, each in one batch for the whole page: the
 * statements do not grow with the students. Every document runs twice: graphql-js runs it first, graphql-jit's plan
 * from the second run.
 */
const ADMIN_EMAIL = "admin.dashboard@example.com";
const t = useTestApp({ ADMIN_EMAILS: ADMIN_EMAIL, FREE_TRAINER_MAX_STUDENTS: "30" });

type GqlBody = { data?: any; errors?: GraphqlError[] };

const USER = `id name email userType profilePicture phone birthDate gender height weight subscriptionType subscriptionExpirationDate emailConfirmed createdAt updatedAt`;
const EXECUTION_FIELDS = ["id", "trainingId", "trainingName", "userId", "startTime", "endTime", "duration", "completed", "notes", "clientId"] as const;
const PAGE = `totalElements totalPages number size content { ${EXECUTION_FIELDS.join(" ")} }`;

/** The trainer's page of students, each with its profile and its page of executions for `$filter` and `$page`. */
const DASHBOARD = `query ($status: LinkStatus, $size: Int, $filter: ExecutionFilter, $page: PageInput) {
  myStudents(filter: { status: $status }, page: { size: $size }) { content { studentId student { ${USER} executions(filter: $filter, page: $page) { ${PAGE} } } } }
}`;

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
function byStudent(body: GqlBody) {
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  const content = body.data.myStudents.content as { studentId: number; student: any }[];
  return Object.fromEntries(content.map(({ studentId, student }) => [studentId, student]));
}

type Execution = Record<(typeof EXECUTION_FIELDS)[number], unknown> & { startTime: string; duration: number; completed: boolean; id: number };
type Student = MadeUser & { linkId: number; executions: Execution[] };
type PageArguments = { filter?: { completed?: boolean; startDate?: string; endDate?: string }; page?: { page?: number; size?: number; sort?: string[] } };

/**
 * `trainer`'s plan assigned to `count` students linked to it, each with its own profile and `executionsOf(i)`
 * executions (by default 0, 3, 6…), each as logging answered it.
 */
async function dashboard(trainer: MadeUser, count: number, executionsOf = (i: number) => 3 * i) {
  const exercise = await createExercise(t, trainer.token, { name: "Agachamento" });
  const training = await createTraining(t, trainer.token, [exercise.id], { name: "Treino B" });
  const plan = await createPlan(t, trainer.token, [training.id], { name: "Plano B" });
  const students: Student[] = [];
  for (let i = 0; i < count; i += 1) {
    const student = await makeStudent(t, { name: `Aluna ${i}` });
    const profile = await t.put("/api/users/profile", {
      token: student.token,
      body: { phone: `+55 11 9000-000${i}`, birthDate: "1990-05-17", gender: "FEMININO", height: 165.5 + i, weight: 60.25 + i },
    });
    expect(profile.status).toBe(200);
    const linkId = await linkTrainerAndStudent(t, trainer, student);
    expect((await t.post(`/api/training-plans/${plan.id}/assign`, { token: trainer.token, body: { studentId: student.id } })).status).toBe(201);
    const executions: Execution[] = [];
    for (let k = 0; k < executionsOf(i); k += 1) {
      const body = trainingExecutionBody(new Date(Date.UTC(2026, 1, 1 + k, 7, 30, 0, 123 * k)), 1200 + k, [
        { exerciseId: exercise.id, sets: [{ repetitions: 8, weight: 40, completed: true }] },
      ]);
      const logged = await logTrainingExecution(t, student.token, training.id, {
        ...body,
        completed: k % 3 !== 1,
        ...(k % 2 === 0 ? { notes: `sessão ${k}` } : {}),
      });
      executions.push(Object.fromEntries(EXECUTION_FIELDS.map((field) => [field, logged[field] ?? null])) as Execution);
    }
    students.push({ ...student, linkId, executions });
  }
  return { students };
}

/** The page of `executions` the listing's contract gives for `args`: inclusive UTC days, latest started first by default. */
function expectedPage(executions: Execution[], { filter = {}, page = {} }: PageArguments) {
  const from = filter.startDate && `${filter.startDate}T00:00:00.000Z`;
  const until = filter.endDate && new Date(Date.parse(`${filter.endDate}T00:00:00.000Z`) + 86_400_000).toISOString();
  const kept = executions.filter(
    (e) => (filter.completed === undefined || e.completed === filter.completed) && (!from || e.startTime >= from) && (!until || e.startTime < until),
  );
  const [field, direction] = (page.sort?.[0] ?? "startTime,desc").split(",") as ["startTime" | "duration", "asc" | "desc"];
  const sign = direction === "asc" ? 1 : -1;
  const sorted = [...kept].sort((a, b) => sign * (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : a.id - b.id));
  const [number, size] = [page.page ?? 0, page.size ?? 20];
  return {
    totalElements: kept.length,
    totalPages: Math.ceil(kept.length / size),
    number,
    size,
    content: sorted.slice(number * size, (number + 1) * size),
  };
}

describe("a trainer's students and their executions", () => {
  it("answers each student's profile and page of executions, for every page, filter and order", async () => {
    const coach = await makeTrainer(t, { name: "Treinadora" });
    const { students } = await dashboard(coach, 4);
    const cases: PageArguments[] = [
      {},
      { page: { size: 2 } },
      { page: { page: 1, size: 4 }, filter: { completed: true } },
      { page: { size: 5, sort: ["startTime,asc"] } },
      { page: { size: 3, sort: ["duration,desc"] }, filter: { startDate: "2026-02-02", endDate: "2026-02-06" } },
    ];
    for (const variables of cases) {
      const { body, statements } = await twice(DASHBOARD, { size: 5, ...variables }, coach.token);
      const read = byStudent(body);
      expect(Object.keys(read)).toHaveLength(students.length);
      for (const [i, student] of students.entries()) {
        expect(read[student.id], JSON.stringify(variables)).toMatchObject({ id: student.id, name: `Aluna ${i}`, userType: "ALUNO" });
        expect(read[student.id].executions, JSON.stringify(variables)).toEqual(expectedPage(student.executions, variables));
      }
      // The links, the students, their pages: one statement each.
      expect(statements, JSON.stringify(variables)).toEqual([3, 3]);
    }
    // Not vacuous: the profile's numbers and day, and executions with instants to the millisecond.
    const last = byStudent((await twice(DASHBOARD, { page: { size: 2 } }, coach.token)).body)[students[3].id];
    expect(last).toMatchObject({ name: "Aluna 3", height: 168.5, weight: 63.25, birthDate: "1990-05-17", gender: "FEMININO" });
    expect(last.executions.totalElements).toBe(9);
    expect(last.executions.content.map((e: any) => e.startTime)).toEqual(["2026-02-09T07:30:00.984Z", "2026-02-08T07:30:00.861Z"]);
  });

  it("reads in as many statements for a page of 20 students as for a page of 5", async () => {
    const coach = await makeTrainer(t, { name: "Treinadora Cheia" });
    const { students } = await dashboard(coach, 20, (i) => i % 4);
    const variables = { page: { size: 2 } };
    const [five, twenty] = [await twice(DASHBOARD, { size: 5, ...variables }, coach.token), await twice(DASHBOARD, { size: 20, ...variables }, coach.token)];
    const read = byStudent(twenty.body);
    expect(Object.keys(read)).toHaveLength(20);
    expect(Object.keys(byStudent(five.body))).toHaveLength(5);
    for (const student of students) expect(read[student.id].executions).toEqual(expectedPage(student.executions, variables));
    expect(five.statements).toEqual([3, 3]);
    expect(twenty.statements).toEqual(five.statements);
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

  it("a student whose link was removed is null to the trainer; to an administrator it is not", async () => {
    const coach = await makeTrainer(t);
    const { students } = await dashboard(coach, 2);
    expect((await t.delete(`/api/personal/students/${students[1].linkId}`, { token: coach.token })).status).toBe(204);
    const variables = { status: "INACTIVE", page: { size: 2 } };
    const removed = await twice(DASHBOARD, variables, coach.token);
    // A stranger now: no profile, and its executions are not asked for (the links, the student: two statements).
    expect(byStudent(removed.body)).toEqual({ [students[1].id]: null });
    expect(removed.statements).toEqual([2, 2]);

    const admin = await makeUser(t, { email: ADMIN_EMAIL, userType: "PERSONAL" });
    const own = await dashboard(admin, 3);
    expect((await t.delete(`/api/personal/students/${own.students[2].linkId}`, { token: admin.token })).status).toBe(204);
    const asAdmin = await twice(DASHBOARD, variables, admin.token);
    // An administrator reads every user and every user's activity: the unlinked student and its 6 executions.
    const read = byStudent(asAdmin.body);
    expect(Object.keys(read)).toEqual([String(own.students[2].id)]);
    expect(read[own.students[2].id]).toMatchObject({ name: "Aluna 2", executions: expectedPage(own.students[2].executions, variables) });
    expect(read[own.students[2].id].executions.totalElements).toBe(6);
    expect(asAdmin.statements).toEqual([3, 3]);
  });

  it("answers each alias its own arguments' page: one batch per distinct arguments", async () => {
    const coach = await makeTrainer(t);
    const { students } = await dashboard(coach, 3);
    const pageOf = (size: number) => `executions(page: { size: ${size} }) { ${PAGE} }`;

    // Aliases, a fragment and variables that all come to the same arguments: one batch.
    const same = await twice(
      `query ($size: Int) { myStudents { content { studentId student { id a: ${pageOf(2)} ...More } } } }
      fragment More on User { b: executions(page: { size: $size }) { ${PAGE} } }`,
      { size: 2 },
      coach.token,
    );
    expect(same.statements).toEqual([3, 3]);
    const sameRead = byStudent(same.body);
    for (const student of students) {
      expect(sameRead[student.id].a).toEqual(expectedPage(student.executions, { page: { size: 2 } }));
      expect(sameRead[student.id].b).toEqual(sameRead[student.id].a);
    }

    // Different arguments: each alias its own page, one batch each.
    const different = await twice(
      `query ($size: Int) { myStudents { content { studentId student { id a: ${pageOf(2)} b: executions(page: { size: $size }) { ${PAGE} } } } } }`,
      { size: 5 },
      coach.token,
    );
    expect(different.statements).toEqual([4, 4]);
    const differentRead = byStudent(different.body);
    for (const student of students) {
      expect(differentRead[student.id].a).toEqual(expectedPage(student.executions, { page: { size: 2 } }));
      expect(differentRead[student.id].b).toEqual(expectedPage(student.executions, { page: { size: 5 } }));
    }
    expect(differentRead[students[2].id].b.content).toHaveLength(5);
  });

  it("arguments the listing refuses: its refusal on each student's executions, the students still answered", async () => {
    const coach = await makeTrainer(t);
    const { students } = await dashboard(coach, 2);
    const { body } = await twice(DASHBOARD, { page: { size: 0 } }, coach.token);
    expect(body.errors).toHaveLength(2);
    for (const error of body.errors!) {
      expect(error).toMatchObject({ message: "Parâmetro inválido: size", extensions: { code: "BAD_USER_INPUT", status: 400 } });
      expect(error.path!.slice(-2)).toEqual(["student", "executions"]);
    }
    expect(body.errors![0].path).toEqual(["myStudents", "content", 0, "student", "executions"]);
    // The page is not nullable: each student turns null, its link still there.
    expect(body.data.myStudents.content).toEqual(students.map((student) => ({ studentId: student.id, student: null })).reverse());
  });
});
