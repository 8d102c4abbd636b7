import { describe, expect, it } from "vitest";
import { exerciseForm, linkTrainerAndStudent, moveAssignment } from "../factories/content.js";
import { makeTrainer, type MadeUser } from "../factories/users.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";
import { TrainerSummariesCache } from "../../src/modules/adherence/adherence.cache.js";
import { studentAdherencePaging } from "../../src/modules/adherence/adherence.inputs.js";
import { adherenceDays } from "../../src/modules/adherence/adherence.service.js";
import { adherenceOf, assigned, gymOf, SUMMARY_KEYS, trained, trainerWithFourStudents, trainerWithStudents, weeklyPlan, type Gym } from "./support.js";

/*
 * A trainer's page of figures is reused while nothing under it changes (adherence.cache.ts). After every kind of write
 * that changes it, sent through another instance of the service, the page read on the first one must hold what each
 * student's own reading (never reused) holds.
 */

const t = useTestApp();
const other = useSecondInstance(t);

interface Row {
  userId: number;
  studentName: string;
  scheduled: number;
  completed: number;
  [key: string]: unknown;
}

const pick = (row: Record<string, unknown>) => Object.fromEntries(SUMMARY_KEYS.map((key) => [key, row[key]]));

/** The trainer's page, read on `t`, after checking each row against the student's own reading and name. */
async function pageOf(trainer: MadeUser, names: Record<number, string>): Promise<Row[]> {
  const res = await t.get("/api/personal/students/adherence?size=100", { token: trainer.token });
  expect(res.status).toBe(200);
  const rows = res.body.content as Row[];
  expect(res.body.totalElements).toBe(rows.length);
  for (const row of rows) {
    expect(pick(row)).toEqual(pick(await adherenceOf(t, trainer, row.userId, 30)));
    expect(row.studentName).toBe(names[row.userId]);
  }
  const dashboard = await t.get("/api/personal/dashboard", { token: trainer.token });
  expect(dashboard.body.students.active).toBe(rows.length);
  return rows;
}

const rowOf = (rows: Row[], userId: number) => rows.find((row) => row.userId === userId);

async function rename(app: TestApp, user: MadeUser, name: string) {
  expect((await app.put("/api/users/profile", { token: user.token, body: { name } })).status).toBe(200);
}

/** The gym's plan rewritten through `app` to schedule the training `letter` on `days`, its name and description kept. */
async function reschedule(app: TestApp, gym: Gym, plan: { id: number; name: string; description: string }, letter: string, days: string[]) {
  const trainings = days.map((dayOfWeek, order) => ({ trainingId: gym.trainings[letter], dayOfWeek, order }));
  const body = { name: plan.name, description: plan.description, trainings };
  expect((await app.put(`/api/training-plans/${plan.id}`, { token: gym.trainer.token, body })).status).toBe(200);
}

describe("a trainer's page of adherence, reused", () => {
  it("is read again after each write that changes it, through whichever instance, and stays as the students' own readings", async () => {
    const { trainer, gym, plan, students } = await trainerWithFourStudents(t);
    const { bruno, carla, diego } = students;
    const names: Record<number, string> = { [bruno.id]: "Bruno", [carla.id]: "Carla", [diego.id]: "Diego", [students.ana.id]: "Ana" };
    const first = await pageOf(trainer, names);
    expect(rowOf(first, bruno.id)).toMatchObject({ scheduled: 4, completed: 1 });

    // Nothing changed: read again, the figures are reused, the executions not read.
    const statements: string[] = [];
    const stop = t.database.observeQueries((text) => statements.push(text));
    const again = await t.get("/api/personal/students/adherence?size=100", { token: trainer.token });
    stop();
    expect(again.body.content).toEqual(first);
    expect(statements.filter((text) => text.includes("sync_changes"))).toHaveLength(1);
    expect(statements.filter((text) => text.includes("training_executions"))).toEqual([]);

    // Bruno trains on Thursday 01-16: one more session done.
    await trained(other, gym, bruno, "A", "2025-01-16T07:00:00Z");
    expect(rowOf(await pageOf(trainer, names), bruno.id)).toMatchObject({ scheduled: 4, completed: 2, lastTrainingAt: "2025-01-16T07:00:00.000Z" });

    // Bruno changes his name.
    await rename(other, bruno, "Bruno Braga");
    names[bruno.id] = "Bruno Braga";
    await pageOf(trainer, names);

    // The plan now schedules A on Mondays only: two sessions in the window, not four.
    await reschedule(other, gym, plan, "A", ["MONDAY"]);
    expect(rowOf(await pageOf(trainer, names), carla.id)).toMatchObject({ scheduled: 2, completed: 2 });

    // Diego's link is removed: he leaves the page.
    const link = (await t.get("/api/personal/students?size=100", { token: trainer.token })).body.content.find(
      (row: { studentId: number }) => row.studentId === diego.id,
    );
    expect((await other.delete(`/api/personal/students/${link.id}`, { token: trainer.token })).status).toBe(204);
    delete names[diego.id];
    expect(rowOf(await pageOf(trainer, names), diego.id)).toBeUndefined();
  });

  it("follows the plan of another trainer of the student, even once the assignment of that plan is finished", async () => {
    const { trainer, students } = await trainerWithFourStudents(t);
    const { carla } = students;
    const names: Record<number, string> = { [students.bruno.id]: "Bruno", [carla.id]: "Carla", [students.diego.id]: "Diego", [students.ana.id]: "Ana" };
    const secondTrainer = await makeTrainer(t, { name: "Segundo Personal" });
    await linkTrainerAndStudent(t, secondTrainer, carla);
    const secondGym = await gymOf(t, secondTrainer, ["B"]);
    const secondPlan = await weeklyPlan(t, secondGym, [["B", "WEDNESDAY"]]);
    const assignment = await assigned(t, secondGym, secondPlan.id, carla, "2025-01-06");
    await moveAssignment(t, secondTrainer.token, assignment, "complete");
    // The second plan adds B on Wednesdays 01-08 and 01-15 to Carla's schedule until it was completed (today, 01-19).
    expect(rowOf(await pageOf(trainer, names), carla.id)).toMatchObject({ scheduled: 6, completed: 4 });

    await reschedule(other, secondGym, secondPlan, "B", ["WEDNESDAY", "FRIDAY"]);
    expect(rowOf(await pageOf(trainer, names), carla.id)).toMatchObject({ scheduled: 8, completed: 4 });
  });
});

describe("a trainer's students' recent records, reused", () => {
  it("shows a record set through another instance, an exercise's new name, and an unlinked student's records no more", async () => {
    const { trainer, gym, students } = await trainerWithFourStudents(t);
    const { bruno, carla } = students;
    const recentRecords = async () => {
      const res = await t.get("/api/personal/dashboard", { token: trainer.token });
      expect(res.status).toBe(200);
      return res.body.recentRecords as { studentId: number; exerciseName: string; kind: string; value: number; achievedAt: string }[];
    };
    // Every session was at 40 kg, and the last 7 days (01-13 … 01-19) only repeated it: no record.
    expect(await recentRecords()).toEqual([]);

    // Bruno lifts 50 kg on Saturday 01-18, through the other instance: a record of every weighted kind, an hour later.
    await trained(other, gym, bruno, "A", "2025-01-18T07:00:00Z", { weight: 50 });
    const afterBruno = await recentRecords();
    expect(afterBruno.map((record) => [record.studentId, record.kind, record.value])).toEqual([
      [bruno.id, "MAX_WEIGHT", 50],
      [bruno.id, "ESTIMATED_1RM", 66.67],
      [bruno.id, "BEST_SET_VOLUME", 500],
      [bruno.id, "BEST_SESSION_VOLUME", 500],
      [bruno.id, "REP_MAX_3", 50],
      [bruno.id, "REP_MAX_5", 50],
      [bruno.id, "REP_MAX_10", 50],
    ]);
    expect(new Set(afterBruno.map((record) => record.achievedAt))).toEqual(new Set(["2025-01-18T08:00:00.000Z"]));
    expect(await recentRecords()).toEqual(afterBruno);

    // The trainer renames the exercise, through the other instance: the records show the new name.
    const exercise = (await t.get(`/api/exercises/${gym.exerciseId}`, { token: trainer.token })).body;
    const renamed = { name: "Supino inclinado", description: exercise.description, category: exercise.category };
    expect((await other.put(`/api/exercises/${gym.exerciseId}`, { token: trainer.token, raw: exerciseForm(renamed) })).status).toBe(200);
    expect((await recentRecords()).map((record) => record.exerciseName)).toEqual(afterBruno.map(() => "Supino inclinado"));

    // Carla lifts 60 kg on Sunday 01-19: hers come first.
    await trained(other, gym, carla, "A", "2025-01-19T07:00:00Z", { weight: 60 });
    expect((await recentRecords()).map((record) => record.studentId)).toEqual([...Array(7).fill(carla.id), ...Array(7).fill(bruno.id)]);

    // Bruno's link is removed: his records leave the dashboard.
    const link = (await t.get("/api/personal/students?size=100", { token: trainer.token })).body.content.find(
      (row: { studentId: number }) => row.studentId === bruno.id,
    );
    expect((await other.delete(`/api/personal/students/${link.id}`, { token: trainer.token })).status).toBe(204);
    expect((await recentRecords()).map((record) => record.studentId)).toEqual(Array(7).fill(carla.id));
  });
});

describe("TrainerSummariesCache", () => {
  it("keeps at most the students' rows it is given, dropping the readings read longest ago first", async () => {
    const { trainer: first } = await trainerWithFourStudents(t);
    const second = await trainerWithStudents(t, 2);
    const cache = new TrainerSummariesCache(5);
    const days = adherenceDays(t.clock.now(), 30);
    /** What reading a trainer's figures through the cache asked of the database: checked them, or read them. */
    const read = async (trainerId: number) => {
      const statements: string[] = [];
      const stop = t.database.observeQueries((text) => statements.push(text));
      const reading = await cache.read(t.db, trainerId, days, { sort: studentAdherencePaging.fallbackSort });
      stop();
      expect(statements).toHaveLength(1);
      return { rows: reading.rows.length, work: statements[0].includes("sync_changes") ? "checked" : "read" };
    };
    expect(await read(first.id)).toEqual({ rows: 4, work: "read" });
    expect(await read(first.id)).toEqual({ rows: 4, work: "checked" });
    // 4 + 2 rows are more than 5: the first trainer's reading goes.
    expect(await read(second.id)).toEqual({ rows: 2, work: "read" });
    expect(await read(second.id)).toEqual({ rows: 2, work: "checked" });
    expect(await read(first.id)).toEqual({ rows: 4, work: "read" });
    // And now the second's.
    expect(await read(second.id)).toEqual({ rows: 2, work: "read" });
  });

  it("reads the figures once for requests that come together, the others checking that reading", async () => {
    const { trainer } = await trainerWithFourStudents(t);
    const cache = new TrainerSummariesCache();
    const days = adherenceDays(t.clock.now(), 30);
    const statements: string[] = [];
    const stop = t.database.observeQueries((text) => statements.push(text));
    const readings = await Promise.all(Array.from({ length: 4 }, () => cache.read(t.db, trainer.id, days, { sort: studentAdherencePaging.fallbackSort })));
    stop();
    expect(readings.map((reading) => reading.rows.length)).toEqual([4, 4, 4, 4]);
    expect(statements.filter((text) => !text.includes("sync_changes"))).toHaveLength(1);
    expect(statements.filter((text) => text.includes("sync_changes"))).toHaveLength(3);
  });
});
