import { describe, expect, it, vi } from "vitest";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { adherenceOf, gymOf, link, statementsOf, trainerWithFourStudents, trainerWithStudents } from "./support.js";

const t = useTestApp();

const ADHERENCE_FIELDS = `userId window from to scheduled completed adherence previousAdherence lastTrainingAt needsAttention reasons
  weeks { weekStart scheduled completed } assignments { assignmentId planId planName scheduled completed adherence }`;

describe("GraphQL User.adherence", () => {
  it("answers what REST answers, for every student of a list in one batch", async () => {
    const { trainer, students } = await trainerWithFourStudents(t);
    const batches = vi.spyOn(t.app.services.adherence, "ofUsers");
    const body = await t.graphql(
      `{ myStudents(page: { sort: ["studentName,asc"] }) { content { student { id adherence(window: 7) { ${ADHERENCE_FIELDS} } } } } }`,
      {},
      trainer.token,
    );
    expect(body.errors).toBeUndefined();
    expect(batches).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
    const answers = body.data.myStudents.content.map((row: { student: { adherence: unknown } }) => row.student.adherence);
    const rest = [];
    for (const student of [students.ana, students.bruno, students.carla, students.diego]) rest.push(await adherenceOf(t, trainer, student.id, 7));
    expect(answers).toEqual(rest);
  });

  it("costs as many SQL statements for 20 students as for 5", async () => {
    const QUERY = `{ myStudents(page: { size: 100 }) { content { student { adherence { scheduled completed adherence reasons weeks { weekStart } } } } } }`;
    const measure = async (count: number) => {
      const trainer = await trainerWithStudents(t, count);
      return statementsOf(t, async () => {
        const body = await t.graphql(QUERY, {}, trainer.token);
        expect(body.errors).toBeUndefined();
        expect(body.data.myStudents.content).toHaveLength(count);
      });
    };
    const few = await measure(5);
    await t.reset();
    expect(await measure(20)).toBe(few);
  });

  it("reads each window asked once; refuses a user the caller may not read and a window not offered, in place", async () => {
    t.clock.set(new Date("2025-01-19T18:00:00Z"));
    const student = await makeStudent(t);
    const gym = await gymOf(t, await makeTrainer(t), ["A"]);
    await link(t, gym, student);
    const body = await t.graphql(
      `{ me { week: adherence(window: 7) { window from } month: adherence { window from } nullWindow: adherence(window: null) { window }
         personals { personal { id adherence { window } } } } }`,
      {},
      student.token,
    );
    expect(body.data.me).toMatchObject({ week: { window: 7, from: "2025-01-13" }, month: { window: 30, from: "2024-12-21" }, nullWindow: { window: 30 } });
    // The student's trainer is a user it may read, but not its adherence.
    expect(body.data.me.personals).toEqual([{ personal: { id: expect.any(Number), adherence: null } }]);
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]).toMatchObject({
      message: "Acesso negado",
      path: ["me", "personals", 0, "personal", "adherence"],
      extensions: { code: "FORBIDDEN" },
    });

    const refused = await t.graphql("{ me { id adherence(window: 14) { window } } }", {}, student.token);
    expect(refused.errors![0]).toMatchObject({ message: "Parâmetro inválido: window", path: ["me", "adherence"], extensions: { code: "BAD_USER_INPUT" } });
  });
});

describe("GraphQL trainerDashboard and studentsAdherence", () => {
  it("answer what REST answers", async () => {
    const { trainer } = await trainerWithFourStudents(t);
    const dashboard = await t.graphql(
      `{ trainerDashboard { students { active limit pendingInvites } assignments { pending active } adherence30d sessionsThisWeek { scheduled completed }
         needsAttention { studentId studentName reasons } recentRecords { studentId studentName exerciseId exerciseName kind value unit achievedAt }
         subscription { planName status endDate } } }`,
      {},
      trainer.token,
    );
    expect(dashboard.errors).toBeUndefined();
    expect(dashboard.data.trainerDashboard).toEqual((await t.get("/api/personal/dashboard", { token: trainer.token })).body);

    const page = await t.graphql(
      `{ studentsAdherence(window: 7, page: { size: 3, sort: ["lastTrainingAt,desc"] }) { totalElements totalPages number size
         content { userId studentName window from to scheduled completed adherence previousAdherence lastTrainingAt needsAttention reasons } } }`,
      {},
      trainer.token,
    );
    expect(page.errors).toBeUndefined();
    const rest = (await t.get("/api/personal/students/adherence?window=7&size=3&sort=lastTrainingAt,desc", { token: trainer.token })).body;
    expect(page.data.studentsAdherence).toEqual({ totalElements: 4, totalPages: 2, number: 0, size: 3, content: rest.content });
  });

  it("are for trainers", async () => {
    const student = await makeStudent(t);
    for (const query of ["{ trainerDashboard { adherence30d } }", "{ studentsAdherence { totalElements } }"]) {
      expect((await t.graphql(query)).errors![0].extensions.code, query).toBe("UNAUTHENTICATED");
      expect((await t.graphql(query, {}, student.token)).errors![0].extensions.code, query).toBe("FORBIDDEN");
    }
  });
});
