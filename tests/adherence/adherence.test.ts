import { describe, expect, it } from "vitest";
import { moveAssignment } from "../factories/content.js";
import { makeStudent, makeTrainer, relogin } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { adherenceOf, assigned, DENIED, gymOf, invalidParameter, link, SUMMARY_KEYS, trained, UNAUTHORIZED, USER_NOT_FOUND, weeklyPlan } from "./support.js";

const t = useTestApp({ ADMIN_EMAILS: "chefe@example.com" });

// Calendar of the dates below (ISO weeks start on Monday):
//   Dec 2024: Mon 16, 23, 30 · Jan 2025: Mon 6, 13, 20, 27 · Wed 2025-01-01 · Sun 2025-01-19 · Sun 2025-02-02.

describe("GET /users/{id}/adherence: the figures", () => {
  it("counts each plan line's weekday from a mid-week start, and matches executions per ISO week and training", async () => {
    t.clock.set(new Date("2025-01-19T18:00:00Z")); // Sunday: the 7-day windows are whole ISO weeks
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const gym = await gymOf(t, trainer, ["A", "B"]);
    await link(t, gym, student);
    const plan = await weeklyPlan(t, gym, [
      ["A", "MONDAY"],
      ["B", "WEDNESDAY"],
      ["A", "FRIDAY"],
    ]);
    // Starting on Wednesday 01-08 leaves out Monday 01-06. Sessions: week of 01-06: B 01-08, A 01-10; week of 01-13:
    // A 01-13, B 01-15, A 01-17.
    const assignmentId = await assigned(t, gym, plan.id, student, "2025-01-08");
    await trained(t, gym, student, "B", "2025-01-09T07:00:00Z"); // Thursday: the wrong day of the right week counts
    await trained(t, gym, student, "A", "2025-01-10T07:00:00Z");
    await trained(t, gym, student, "A", "2025-01-10T19:00:00Z"); // two executions for one session: one is done
    await trained(t, gym, student, "A", "2025-01-13T07:00:00Z", { completed: false }); // not completed: does not count
    await trained(t, gym, student, "A", "2025-01-18T10:00:00Z"); // Saturday: one of that week's two A sessions

    const week = await adherenceOf(t, trainer, student.id, 7);
    // Window 01-13 … 01-19: A twice and B once, done A 1 (one execution for two sessions), B 0 → 1/3.
    // Before, 01-06 … 01-12: B and A once each, both done → 2/2.
    expect(week).toEqual({
      userId: student.id,
      window: 7,
      from: "2025-01-13",
      to: "2025-01-19",
      scheduled: 3,
      completed: 1,
      adherence: 0.333,
      previousAdherence: 1,
      lastTrainingAt: "2025-01-18T10:00:00.000Z",
      needsAttention: true,
      reasons: ["LOW_ADHERENCE", "DROPPING"],
      weeks: [{ weekStart: "2025-01-13", scheduled: 3, completed: 1 }],
      assignments: [{ assignmentId, planId: plan.id, planName: plan.name, scheduled: 3, completed: 1, adherence: 0.333 }],
    });

    const month = await adherenceOf(t, trainer, student.id);
    // Window 2024-12-21 … 2025-01-19 (30 days, the default) holds every session: 5, of them done 2 + 1 = 3. The window
    // before (11-21 … 12-20) schedules nothing.
    expect(month).toMatchObject({ window: 30, from: "2024-12-21", to: "2025-01-19", scheduled: 5, completed: 3, adherence: 0.6, previousAdherence: null });
    expect(month.needsAttention).toBe(false);
    expect(month.reasons).toEqual([]);
    // Every ISO week the window touches, the first one cut by it (12-21 is a Saturday).
    expect(month.weeks).toEqual([
      { weekStart: "2024-12-16", scheduled: 0, completed: 0 },
      { weekStart: "2024-12-23", scheduled: 0, completed: 0 },
      { weekStart: "2024-12-30", scheduled: 0, completed: 0 },
      { weekStart: "2025-01-06", scheduled: 2, completed: 2 },
      { weekStart: "2025-01-13", scheduled: 3, completed: 1 },
    ]);
    expect(Object.keys(month).sort()).toEqual([...SUMMARY_KEYS, "weeks", "assignments"].sort());
  });

  it("schedules an ended assignment to its end and a completed one to the day it was completed; canceled and pending ones nothing", async () => {
    t.clock.set(new Date("2025-01-06T09:00:00Z"));
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const gym = await gymOf(t, trainer, ["E", "C", "X", "P"]);
    await link(t, gym, student);
    // Two weeks from Monday 01-06: endDate 01-19, so Tuesdays 01-07 and 01-14.
    const ending = await weeklyPlan(t, gym, [["E", "TUESDAY"]], { duration: 2 });
    const completing = await weeklyPlan(t, gym, [["C", "THURSDAY"]]);
    const canceled = await weeklyPlan(t, gym, [["X", "WEDNESDAY"]]);
    const pending = await weeklyPlan(t, gym, [["P", "MONDAY"]]);
    const endingId = await assigned(t, gym, ending.id, student, "2025-01-06");
    const completingId = await assigned(t, gym, completing.id, student, "2025-01-06");
    const canceledId = await assigned(t, gym, canceled.id, student, "2025-01-06");
    await assigned(t, gym, pending.id, student, "2025-01-06", false);
    await trained(t, gym, student, "E", "2025-01-07T07:00:00Z");
    await trained(t, gym, student, "X", "2025-01-08T07:00:00Z");
    await trained(t, gym, student, "C", "2025-01-09T07:00:00Z");
    await trained(t, gym, student, "P", "2025-01-13T07:00:00Z");
    await trained(t, gym, student, "C", "2025-01-16T07:00:00Z");
    await moveAssignment(t, student.token, canceledId, "cancel");

    t.clock.set(new Date("2025-01-17T15:00:00Z")); // Friday: Thursdays 01-23 and 01-30 are never scheduled
    await relogin(t, trainer, student);
    await moveAssignment(t, trainer.token, completingId, "complete");
    t.clock.set(new Date("2025-01-20T01:00:00Z"));
    // The daily job completes the ended one the day after its end: still scheduled to its endDate only.
    expect(await t.app.services.planAssignments.completeEnded()).toBe(1);

    t.clock.set(new Date("2025-02-02T12:00:00Z"));
    await relogin(t, trainer, student);
    const month = await adherenceOf(t, student, student.id, 30);
    // Window 01-04 … 02-02: E 01-07 (done), 01-14; C 01-09, 01-16 (both done) → 3/4. No ACTIVE assignment is left, so
    // nobody needs attention, even two weeks without training.
    expect(month).toMatchObject({
      from: "2025-01-04",
      to: "2025-02-02",
      scheduled: 4,
      completed: 3,
      adherence: 0.75,
      previousAdherence: null,
      lastTrainingAt: "2025-01-16T07:00:00.000Z",
      needsAttention: false,
      reasons: [],
    });
    expect(month.weeks).toEqual([
      { weekStart: "2024-12-30", scheduled: 0, completed: 0 },
      { weekStart: "2025-01-06", scheduled: 2, completed: 2 },
      { weekStart: "2025-01-13", scheduled: 2, completed: 1 },
      { weekStart: "2025-01-20", scheduled: 0, completed: 0 },
      { weekStart: "2025-01-27", scheduled: 0, completed: 0 },
    ]);
    expect(month.assignments).toEqual([
      { assignmentId: endingId, planId: ending.id, planName: ending.name, scheduled: 2, completed: 1, adherence: 0.5 },
      { assignmentId: completingId, planId: completing.id, planName: completing.name, scheduled: 2, completed: 2, adherence: 1 },
    ]);
  });

  it("gives a week's done sessions of a training shared by two assignments to the earliest started first", async () => {
    t.clock.set(new Date("2025-01-19T18:00:00Z"));
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const gym = await gymOf(t, trainer, ["A"]);
    await link(t, gym, student);
    const monday = await weeklyPlan(t, gym, [["A", "MONDAY"]]);
    const wednesday = await weeklyPlan(t, gym, [["A", "WEDNESDAY"]]);
    // Assigned the other way round, so the order is by start, not by id.
    const later = await assigned(t, gym, wednesday.id, student, "2025-01-08");
    const earlier = await assigned(t, gym, monday.id, student, "2025-01-06");
    await trained(t, gym, student, "A", "2025-01-16T07:00:00Z");

    const week = await adherenceOf(t, trainer, student.id, 7);
    // Week of 01-13: A Monday and A Wednesday, one execution → 1/2, done on the assignment started 01-06.
    expect(week).toMatchObject({ scheduled: 2, completed: 1, adherence: 0.5 });
    expect(week.assignments).toEqual([
      { assignmentId: earlier, planId: monday.id, planName: monday.name, scheduled: 1, completed: 1, adherence: 1 },
      { assignmentId: later, planId: wednesday.id, planName: wednesday.name, scheduled: 1, completed: 0, adherence: 0 },
    ]);
  });

  it("reads windows across a year boundary by ISO weeks", async () => {
    t.clock.set(new Date("2025-01-02T20:00:00Z")); // Thursday
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const gym = await gymOf(t, trainer, ["A", "B"]);
    await link(t, gym, student);
    const plan = await weeklyPlan(t, gym, [
      ["A", "MONDAY"],
      ["B", "FRIDAY"],
    ]);
    // From Monday 2024-12-16: A 12-16, B 12-20, A 12-23, B 12-27, A 12-30.
    await assigned(t, gym, plan.id, student, "2024-12-16");
    await trained(t, gym, student, "B", "2024-12-21T09:00:00Z"); // Saturday, week of 12-16
    await trained(t, gym, student, "A", "2024-12-24T09:00:00Z"); // Tuesday, week of 12-23
    await trained(t, gym, student, "A", "2025-01-01T09:00:00Z"); // Wednesday of the week of Monday 2024-12-30

    const week = await adherenceOf(t, trainer, student.id, 7);
    // Window 12-27 … 01-02: B 12-27 (not done that week), A 12-30 (done 01-01) → 1/2.
    // Before, 12-20 … 12-26: B 12-20 (done 12-21), A 12-23 (done 12-24) → 2/2; 0.5 ≤ 1 − 0.2 is a drop.
    expect(week).toMatchObject({ from: "2024-12-27", to: "2025-01-02", scheduled: 2, completed: 1, adherence: 0.5, previousAdherence: 1 });
    expect(week.reasons).toEqual(["DROPPING"]);
    expect(week.weeks).toEqual([
      { weekStart: "2024-12-23", scheduled: 1, completed: 0 },
      { weekStart: "2024-12-30", scheduled: 1, completed: 1 },
    ]);
  });

  it("matches the executions of a whole ISO week, the days of it the window leaves out included", async () => {
    t.clock.set(new Date("2025-01-15T12:00:00Z")); // Wednesday
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const gym = await gymOf(t, trainer, ["A"]);
    await link(t, gym, student);
    const plan = await weeklyPlan(t, gym, [
      ["A", "MONDAY"],
      ["A", "THURSDAY"],
    ]);
    // A 01-06, 01-09, 01-13; both executions on Tuesday 01-07.
    await assigned(t, gym, plan.id, student, "2025-01-06");
    await trained(t, gym, student, "A", "2025-01-07T07:00:00Z");
    await trained(t, gym, student, "A", "2025-01-07T18:00:00Z");

    const week = await adherenceOf(t, trainer, student.id, 7);
    // Window 01-09 … 01-15: 01-09 of the week of 01-06, which holds two executions (done 1), and 01-13 (not done) → 1/2.
    // Before, 01-02 … 01-08: 01-06, done by the same week's executions → 1/1. Nothing completed since 01-09.
    expect(week).toMatchObject({ scheduled: 2, completed: 1, adherence: 0.5, previousAdherence: 1 });
    expect(week.reasons).toEqual(["DROPPING", "INACTIVE_7_DAYS"]);
  });

  it("flags a student with an ACTIVE assignment who did not complete a training in the last 7 days", async () => {
    t.clock.set(new Date("2025-01-19T23:00:00Z")); // Sunday: the last 7 days are 01-13 … 01-19
    const trainer = await makeTrainer(t);
    const [ana, bia] = [await makeStudent(t), await makeStudent(t)];
    const gym = await gymOf(t, trainer, ["A"]);
    const plan = await weeklyPlan(t, gym, [["A", "SUNDAY"]]);
    for (const student of [ana, bia]) {
      await link(t, gym, student);
      // Sunday from 12-22 to 01-19: five sessions in the 30 days, all done on their Sunday but the last.
      await assigned(t, gym, plan.id, student, "2024-12-22");
    }
    for (const day of ["2024-12-22", "2024-12-29", "2025-01-05"]) {
      await trained(t, gym, ana, "A", `${day}T10:00:00Z`);
      await trained(t, gym, bia, "A", `${day}T10:00:00Z`);
    }
    await trained(t, gym, ana, "A", "2025-01-12T23:59:59Z"); // Sunday 01-12, the day before the last 7
    await trained(t, gym, bia, "A", "2025-01-13T00:00:00Z"); // Monday 01-13, their first instant: the week's session
    await trained(t, gym, ana, "A", "2025-01-13T10:00:00Z", { completed: false }); // not completed: not a training done

    expect(await adherenceOf(t, trainer, ana.id)).toMatchObject({
      scheduled: 5,
      completed: 4,
      adherence: 0.8,
      lastTrainingAt: "2025-01-12T23:59:59.000Z",
      needsAttention: true,
      reasons: ["INACTIVE_7_DAYS"],
    });
    expect(await adherenceOf(t, trainer, bia.id)).toMatchObject({
      scheduled: 5,
      completed: 4,
      adherence: 0.8,
      lastTrainingAt: "2025-01-13T00:00:00.000Z",
      needsAttention: false,
      reasons: [],
    });
  });

  it("answers null adherences and no attention for a user without a plan: a trainer, a student never assigned", async () => {
    t.clock.set(new Date("2025-01-19T18:00:00Z"));
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    await link(t, await gymOf(t, trainer, []), student);
    for (const user of [trainer, student]) {
      expect(await adherenceOf(t, user, user.id, 90)).toEqual({
        userId: user.id,
        window: 90,
        from: "2024-10-22",
        to: "2025-01-19",
        scheduled: 0,
        completed: 0,
        adherence: null,
        previousAdherence: null,
        lastTrainingAt: null,
        needsAttention: false,
        reasons: [],
        weeks: expect.any(Array),
        assignments: [],
      });
    }
    // 90 days from Tuesday 10-22 touch the 13 ISO weeks from Monday 10-21 to Monday 01-13.
    const { weeks } = await adherenceOf(t, student, student.id, 90);
    expect(weeks).toHaveLength(13);
    expect(weeks[0]).toEqual({ weekStart: "2024-10-21", scheduled: 0, completed: 0 });
    expect(weeks[12].weekStart).toBe("2025-01-13");
  });
});

describe("GET /users/{id}/adherence: who may read it", () => {
  it("is for the user, its ACTIVE-linked trainers and administrators; a stranger, an unlinked trainer and a former trainer get 403", async () => {
    t.clock.set(new Date("2025-01-19T18:00:00Z"));
    const first = await makeTrainer(t);
    const second = await makeTrainer(t);
    const unlinked = await makeTrainer(t);
    const student = await makeStudent(t);
    const classmate = await makeStudent(t);
    const admin = await makeStudent(t, { email: "chefe@example.com" });
    const firstGym = await gymOf(t, first, ["A"]);
    const secondGym = await gymOf(t, second, ["B"]);
    await link(t, firstGym, student);
    const secondLink = await link(t, secondGym, student);
    const firstAssignmentId = await assigned(t, firstGym, (await weeklyPlan(t, firstGym, [["A", "MONDAY"]])).id, student, "2025-01-13");
    const secondAssignmentId = await assigned(t, secondGym, (await weeklyPlan(t, secondGym, [["B", "TUESDAY"]])).id, student, "2025-01-13");
    await trained(t, firstGym, student, "A", "2025-01-13T07:00:00Z");

    // A student linked to two trainers: both read the same figures, over both trainers' plans (A 01-13 done, B 01-14 not).
    const own = await adherenceOf(t, student, student.id, 7);
    expect(own).toMatchObject({ scheduled: 2, completed: 1, adherence: 0.5 });
    expect(own.assignments.map((row: { assignmentId: number }) => row.assignmentId)).toEqual([firstAssignmentId, secondAssignmentId]);
    expect(await adherenceOf(t, first, student.id, 7)).toEqual(own);
    expect(await adherenceOf(t, second, student.id, 7)).toEqual(own);
    expect(await adherenceOf(t, admin, student.id, 7)).toEqual(own);

    // The second trainer's link removed: it reads no more, the first still reads everything.
    expect((await t.delete(`/api/students/personals/${secondLink}`, { token: student.token })).status).toBe(204);
    for (const reader of [second, unlinked, classmate]) {
      const res = await t.get(`/api/users/${student.id}/adherence?window=7`, { token: reader.token });
      expect(res.status, reader.email).toBe(403);
      expect(res.body).toEqual(DENIED);
    }
    expect(await adherenceOf(t, first, student.id, 7)).toEqual(own);
    // Nor may a student read its trainer's.
    expect((await t.get(`/api/users/${first.id}/adherence`, { token: student.token })).body).toEqual(DENIED);
  });

  it("answers 401 without a token, 404 for nobody, then 403, then 400 for a window other than 7, 30 or 90", async () => {
    t.clock.set(new Date("2025-01-19T18:00:00Z"));
    const student = await makeStudent(t);
    const stranger = await makeStudent(t);
    expect(await t.get(`/api/users/${student.id}/adherence`)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await t.get(`/api/users/999999/adherence?window=14`, { invalidRequest: true, token: student.token })).toMatchObject({
      status: 404,
      body: USER_NOT_FOUND,
    });
    expect(await t.get(`/api/users/${student.id}/adherence?window=14`, { invalidRequest: true, token: stranger.token })).toMatchObject({
      status: 403,
      body: DENIED,
    });
    expect(await t.get(`/api/users/abc/adherence`, { invalidRequest: true, token: student.token })).toMatchObject({
      status: 400,
      body: invalidParameter("id"),
    });
    for (const window of ["14", "0", "abc", "", "30.0", "7&window=30"]) {
      const res = await t.get(`/api/users/${student.id}/adherence?window=${window}`, { invalidRequest: true, token: student.token });
      expect(res.status, window).toBe(400);
      expect(res.body).toEqual(invalidParameter("window"));
    }
    for (const window of [7, 30, 90]) expect((await adherenceOf(t, student, student.id, window)).window).toBe(window);
  });
});
