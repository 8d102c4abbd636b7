import { describe, expect, it } from "vitest";
import { subscribe } from "../coaching/support.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import {
  assigned,
  gymOf,
  invalidParameter,
  link,
  statementsOf,
  SUMMARY_KEYS,
  TRAINERS_ONLY,
  trained,
  trainerWithFourStudents,
  trainerWithStudents,
  UNAUTHORIZED,
  weeklyPlan,
} from "./support.js";

const t = useTestApp();

type Row = { studentName: string; adherence: number | null; reasons: string[] };
const names = (page: { content: Row[] }) => page.content.map((row) => row.studentName);

describe("GET /personal/students/adherence", () => {
  it("lists the trainer's ACTIVE students with their 30-day figures, the lowest adherence first and nulls last", async () => {
    const { trainer, students } = await trainerWithFourStudents(t);
    const res = await t.get("/api/personal/students/adherence", { token: trainer.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalElements: 4, totalPages: 1, number: 0, size: 20, first: true, last: true });
    const base = { window: 30, from: "2024-12-21", to: "2025-01-19", scheduled: 4, previousAdherence: null };
    expect(res.body.content).toEqual([
      {
        ...base,
        userId: students.bruno.id,
        studentName: "Bruno",
        completed: 1,
        adherence: 0.25,
        lastTrainingAt: "2025-01-06T07:00:00.000Z",
        needsAttention: true,
        reasons: ["LOW_ADHERENCE", "INACTIVE_7_DAYS"],
      },
      {
        ...base,
        userId: students.diego.id,
        studentName: "Diego",
        completed: 2,
        adherence: 0.5,
        lastTrainingAt: "2025-01-08T07:00:00.000Z",
        needsAttention: true,
        reasons: ["INACTIVE_7_DAYS"],
      },
      {
        ...base,
        userId: students.carla.id,
        studentName: "Carla",
        completed: 4,
        adherence: 1,
        lastTrainingAt: "2025-01-16T07:00:00.000Z",
        needsAttention: false,
        reasons: [],
      },
      {
        ...base,
        userId: students.ana.id,
        studentName: "Ana",
        scheduled: 0,
        completed: 0,
        adherence: null,
        lastTrainingAt: null,
        needsAttention: false,
        reasons: [],
      },
    ]);
    expect(Object.keys(res.body.content[0]).sort()).toEqual([...SUMMARY_KEYS, "studentName"].sort());
  });

  it("sorts by adherence, studentName or lastTrainingAt either way, nulls last, and pages", async () => {
    const { trainer } = await trainerWithFourStudents(t);
    const page = async (query: string) => {
      const res = await t.get(`/api/personal/students/adherence?${query}`, { token: trainer.token });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    expect(names(await page("sort=adherence,desc"))).toEqual(["Carla", "Diego", "Bruno", "Ana"]);
    expect(names(await page("sort=studentName,asc"))).toEqual(["Ana", "Bruno", "Carla", "Diego"]);
    expect(names(await page("sort=studentName,desc"))).toEqual(["Diego", "Carla", "Bruno", "Ana"]);
    expect(names(await page("sort=lastTrainingAt,desc"))).toEqual(["Carla", "Diego", "Bruno", "Ana"]);
    expect(names(await page("sort=lastTrainingAt,asc"))).toEqual(["Bruno", "Diego", "Carla", "Ana"]);
    const second = await page("size=2&page=1");
    expect(names(second)).toEqual(["Carla", "Ana"]);
    expect(second).toMatchObject({ totalElements: 4, totalPages: 2, number: 1, size: 2, first: false, last: true, numberOfElements: 2 });
    expect(await page("page=3")).toMatchObject({ content: [], totalElements: 4 });

    // Over 7 days (01-13 … 01-19, both sessions of that week): Bruno and Diego did neither, after a week of 1/2 and
    // 2/2; equal adherences go by name.
    const week = await page("window=7");
    expect(week.content.map((row: Row) => [row.studentName, row.adherence, row.reasons])).toEqual([
      ["Bruno", 0, ["LOW_ADHERENCE", "DROPPING", "INACTIVE_7_DAYS"]],
      ["Diego", 0, ["LOW_ADHERENCE", "DROPPING", "INACTIVE_7_DAYS"]],
      ["Carla", 1, []],
      ["Ana", null, []],
    ]);
    expect(week.content[0]).toMatchObject({ window: 7, from: "2025-01-13", to: "2025-01-19", scheduled: 2, completed: 0, previousAdherence: 0.5 });
  });

  it("is for trainers; refuses a window or a sort it does not know", async () => {
    t.clock.set(new Date("2025-01-19T18:00:00Z"));
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    expect(await t.get("/api/personal/students/adherence")).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await t.get("/api/personal/students/adherence?window=14", { invalidRequest: true, token: student.token })).toMatchObject({
      status: 403,
      body: TRAINERS_ONLY,
    });
    expect(await t.get("/api/personal/students/adherence?window=14", { invalidRequest: true, token: trainer.token })).toMatchObject({
      status: 400,
      body: invalidParameter("window"),
    });
    expect(await t.get("/api/personal/students/adherence?sort=scheduled,asc", { invalidRequest: true, token: trainer.token })).toMatchObject({
      status: 400,
      body: invalidParameter("sort"),
    });
    expect(await t.get("/api/personal/students/adherence?sort=adherence,up", { invalidRequest: true, token: trainer.token })).toMatchObject({
      status: 400,
      body: invalidParameter("sort"),
    });
    expect((await t.get("/api/personal/students/adherence", { token: trainer.token })).body).toMatchObject({ content: [], totalElements: 0 });
  });
});

describe("GET /personal/dashboard", () => {
  it("shows seats against the plan's limit, assignments, mean adherence, this week's sessions, who needs attention and the subscription", async () => {
    const { trainer, students } = await trainerWithFourStudents(t);
    const subscription = await t.get("/api/subscriptions/my-subscription", { token: trainer.token });
    const res = await t.get("/api/personal/dashboard", { token: trainer.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      // Ana, Bruno, Carla and Diego; Elisa invited (Fábio's link was removed). Básico: 5 seats.
      students: { active: 4, limit: 5, pendingInvites: 1 },
      // Ana's waits; Fábio's was canceled.
      assignments: { pending: 1, active: 3 },
      // (0.25 + 0.5 + 1) / 3; Ana has none.
      adherence30d: 0.583,
      // Monday 01-13 and Thursday 01-16 for Bruno, Carla and Diego; Carla did both.
      sessionsThisWeek: { scheduled: 6, completed: 2 },
      needsAttention: [
        { studentId: students.bruno.id, studentName: "Bruno", reasons: ["LOW_ADHERENCE", "INACTIVE_7_DAYS"] },
        { studentId: students.diego.id, studentName: "Diego", reasons: ["INACTIVE_7_DAYS"] },
      ],
      recentRecords: [],
      subscription: { planName: "Básico", status: "ACTIVE", endDate: subscription.body.endDate },
    });
    expect(subscription.body.endDate).toEqual(expect.any(String));
  });

  it("lists the records the ACTIVE students set in the last 7 days, newest first, at most 20", async () => {
    t.clock.set(new Date("2025-01-19T18:00:00Z")); // Sunday: the last 7 days are 01-13 … 01-19
    const trainer = await makeTrainer(t);
    await subscribe(t, trainer, "Básico");
    const [xavier, yara, zeca] = [await makeStudent(t, { name: "Xavier" }), await makeStudent(t, { name: "Yara" }), await makeStudent(t, { name: "Zeca" })];
    const gym = await gymOf(t, trainer, ["A"]);
    const plan = await weeklyPlan(t, gym, [["A", "MONDAY"]]);
    const links = [];
    for (const student of [xavier, yara, zeca]) {
      links.push(await link(t, gym, student));
      await assigned(t, gym, plan.id, student, "2025-01-06");
    }
    // One set of 10 each time; a record is dated by the session's end, an hour after its start. A first session sets
    // all 8 kinds; a heavier one of 10 repetitions all but MAX_REPS.
    await trained(t, gym, xavier, "A", "2025-01-12T10:00:00Z", { weight: 40 }); // before the 7 days
    await trained(t, gym, xavier, "A", "2025-01-14T10:00:00Z", { weight: 45 });
    await trained(t, gym, xavier, "A", "2025-01-17T10:00:00Z", { weight: 50 });
    await trained(t, gym, yara, "A", "2025-01-18T10:00:00Z", { weight: 30 });
    await trained(t, gym, zeca, "A", "2025-01-18T12:00:00Z", { weight: 60 }); // no longer a student of the trainer's
    expect((await t.delete(`/api/personal/students/${links[2]}`, { token: trainer.token })).status).toBe(204);

    const { recentRecords } = (await t.get("/api/personal/dashboard", { token: trainer.token })).body;
    const of = (student: MadeUser, at: string, kinds: [string, number][]) =>
      kinds.map(([kind, value]) => ({
        studentId: student.id,
        studentName: student.user.name,
        exerciseId: gym.exerciseId,
        exerciseName: "Supino reto",
        kind,
        value,
        unit: kind === "MAX_REPS" ? "reps" : "kg",
        achievedAt: at,
      }));
    expect(recentRecords).toEqual([
      // 10 × 30: Epley 30 × (1 + 10/30) = 40.
      ...of(yara, "2025-01-18T11:00:00.000Z", [
        ["MAX_WEIGHT", 30],
        ["ESTIMATED_1RM", 40],
        ["BEST_SET_VOLUME", 300],
        ["BEST_SESSION_VOLUME", 300],
        ["MAX_REPS", 10],
        ["REP_MAX_3", 30],
        ["REP_MAX_5", 30],
        ["REP_MAX_10", 30],
      ]),
      // 10 × 50: Epley 66.666… → 66.67.
      ...of(xavier, "2025-01-17T11:00:00.000Z", [
        ["MAX_WEIGHT", 50],
        ["ESTIMATED_1RM", 66.67],
        ["BEST_SET_VOLUME", 500],
        ["BEST_SESSION_VOLUME", 500],
        ["REP_MAX_3", 50],
        ["REP_MAX_5", 50],
        ["REP_MAX_10", 50],
      ]),
      // 10 × 45, the first 5 of its 7 make 20.
      ...of(xavier, "2025-01-14T11:00:00.000Z", [
        ["MAX_WEIGHT", 45],
        ["ESTIMATED_1RM", 60],
        ["BEST_SET_VOLUME", 450],
        ["BEST_SESSION_VOLUME", 450],
        ["REP_MAX_3", 45],
      ]),
    ]);
  });

  it("for a new trainer: the free allowance, nothing to count, no subscription", async () => {
    t.clock.set(new Date("2025-01-15T12:00:00Z"));
    const trainer = await makeTrainer(t);
    expect((await t.get("/api/personal/dashboard", { token: trainer.token })).body).toEqual({
      students: { active: 0, limit: 2, pendingInvites: 0 },
      assignments: { pending: 0, active: 0 },
      adherence30d: null,
      sessionsThisWeek: { scheduled: 0, completed: 0 },
      needsAttention: [],
      recentRecords: [],
      subscription: null,
    });
  });

  it("is for trainers", async () => {
    const student = await makeStudent(t);
    expect(await t.get("/api/personal/dashboard")).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await t.get("/api/personal/dashboard", { token: student.token })).toMatchObject({ status: 403, body: TRAINERS_ONLY });
  });
});

describe("cost", () => {
  it("reads the dashboard, the page of adherence and GraphQL trainerDashboard in as many SQL statements for 20 students as for 5, after a change and again", async () => {
    const measure = async (count: number) => {
      const trainer = await trainerWithStudents(t, count);
      const reads = async () => ({
        dashboard: await statementsOf(t, async () =>
          expect((await t.get("/api/personal/dashboard", { token: trainer.token })).body.students.active).toBe(count),
        ),
        page: await statementsOf(t, async () =>
          expect((await t.get("/api/personal/students/adherence?size=100", { token: trainer.token })).body.content).toHaveLength(count),
        ),
        graphql: await statementsOf(t, async () =>
          expect((await t.graphql("{ trainerDashboard { students { active } adherence30d } }", {}, trainer.token)).data.trainerDashboard.students.active).toBe(
            count,
          ),
        ),
      });
      await reads();
      // Any change recorded for the trainer: what was read is read again, then reused.
      expect((await t.put("/api/users/profile", { token: trainer.token, body: { name: "Renamed Trainer" } })).status).toBe(200);
      return { afterAChange: await reads(), again: await reads() };
    };
    const few = await measure(5);
    const many = await measure(20);
    expect(many).toEqual(few);
  });
});

describe("REST documentation", () => {
  it("documents the adherence and dashboard paths with their parameters and answers' schemas", async () => {
    const { paths, components } = (await t.get("/api/openapi.json")).body;
    const one = paths["/users/{id}/adherence"].get;
    expect(one.parameters.map((p: { name: string }) => p.name)).toEqual(["id", "window"]);
    expect(Object.keys(one.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "403", "404"]));
    const adherence = one.responses["200"].content["application/json"].schema;
    expect(adherence.required).toEqual(expect.arrayContaining([...SUMMARY_KEYS, "weeks", "assignments"]));
    expect(adherence.properties.reasons.items.$ref).toBe("#/components/schemas/AttentionReason");
    expect(components.schemas.AttentionReason.enum).toEqual(["LOW_ADHERENCE", "DROPPING", "INACTIVE_7_DAYS"]);

    const page = paths["/personal/students/adherence"].get;
    expect(page.parameters.map((p: { name: string }) => p.name)).toEqual(["window", "page", "size", "sort"]);
    const item = page.responses["200"].content["application/json"].schema.properties.content.items;
    expect(item.required).toEqual(expect.arrayContaining([...SUMMARY_KEYS, "studentName"]));
    expect(item.properties.weeks).toBeUndefined();

    const dashboard = paths["/personal/dashboard"].get.responses["200"].content["application/json"].schema;
    expect(dashboard.required).toEqual(["students", "assignments", "adherence30d", "sessionsThisWeek", "needsAttention", "recentRecords", "subscription"]);
  });
});
