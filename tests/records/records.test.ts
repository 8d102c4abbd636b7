import { beforeEach, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { linkTrainerAndStudent } from "../factories/content.js";
import { logExerciseExecution, logTrainingExecution, trainingExecutionBody, type SetBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, makeUser, type MadeUser } from "../factories/users.js";
import { DENIED, EXERCISE_NOT_FOUND, invalidParameter, makeScene, UNAUTHORIZED, type Scene } from "../executions/support.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com", FREE_TRAINER_MAX_STUDENTS: "10" });

let s: Scene;

beforeEach(async () => {
  t.clock.set(new Date("2026-03-18T12:00:00.000Z"));
  s = await makeScene(t, { accept: true });
});

/** Logs `sets` of supino (or `exerciseId`) on its own, dated `at`. */
async function logAt(at: string, sets: SetBody[], user: MadeUser = s.student, exerciseId: number = s.supino.id) {
  t.clock.set(new Date(at));
  return logExerciseExecution(t, user.token, exerciseId, s.trainingA.id, sets);
}

const newRecord = (exerciseId: number, kind: string, value: number, previousValue: number | null, unit = "kg") => ({
  exerciseId,
  kind,
  value,
  unit,
  previousValue,
});

const recordsOf = (exerciseId: number, query = "", token = s.student.token) => t.get(`/api/exercises/${exerciseId}/records${query}`, { token });
const historyOf = (exerciseId: number, query = "", token = s.student.token) => t.get(`/api/exercises/${exerciseId}/records/history${query}`, { token });

/**
 * Supino on its own, five times (✓ completed, ✗ not):
 *   L1 03-01  10×40 ✓, 8×45 ✓, 6×50 ✗   the first of every kind it qualifies for
 *   L2 03-03  13×40 ✓, 5×45 ✓           45 ties MAX_WEIGHT and REP_MAX_3/5; 13 reps beat MAX_REPS and set volume 520
 *   L3 03-05  13×60 ✓                   13 repetitions give no estimate (60 × 43/30 = 86 would beat 57)
 *   L4 03-07  20×— ✓, 1×100 ✗           bodyweight: only MAX_REPS
 *   L5 03-09  1×62.5 ✓, 2×61 ✓          one repetition estimates its weight, 62.5; 61 × 32/30 = 65.066… beats it
 */
async function history() {
  const l1 = await logAt("2026-03-01T10:00:00.000Z", [
    { repetitions: 10, weight: 40, completed: true },
    { repetitions: 8, weight: 45, completed: true },
    { repetitions: 6, weight: 50, completed: false },
  ]);
  const l2 = await logAt("2026-03-03T10:00:00.000Z", [
    { repetitions: 13, weight: 40, completed: true },
    { repetitions: 5, weight: 45, completed: true },
  ]);
  const l3 = await logAt("2026-03-05T10:00:00.000Z", [{ repetitions: 13, weight: 60, completed: true }]);
  const l4 = await logAt("2026-03-07T10:00:00.000Z", [
    { repetitions: 20, completed: true },
    { repetitions: 1, weight: 100, completed: false },
  ]);
  const l5 = await logAt("2026-03-09T10:00:00.000Z", [
    { repetitions: 1, weight: 62.5, completed: true },
    { repetitions: 2, weight: 61, completed: true },
  ]);
  return [l1, l2, l3, l4, l5];
}

describe("records claimed by logging (contract §12.1)", () => {
  it("sets each kind only by strictly beating its best: ties do not count, 13 repetitions give no estimate, bodyweight sets count repetitions", async () => {
    const [l1, l2, l3, l4, l5] = await history();
    const id = s.supino.id;
    expect(l1.newRecords).toEqual([
      newRecord(id, "MAX_WEIGHT", 45, null),
      newRecord(id, "ESTIMATED_1RM", 57, null), // 45 × 38/30 = 57 (40 × 40/30 = 53.33)
      newRecord(id, "BEST_SET_VOLUME", 400, null), // 10 × 40 (8 × 45 = 360)
      newRecord(id, "BEST_SESSION_VOLUME", 760, null), // 400 + 360; the 50 kg set was not completed
      newRecord(id, "MAX_REPS", 10, null, "reps"),
      newRecord(id, "REP_MAX_3", 45, null),
      newRecord(id, "REP_MAX_5", 45, null),
      newRecord(id, "REP_MAX_10", 40, null), // only the 10-repetition set qualifies
    ]);
    expect(l2.newRecords).toEqual([newRecord(id, "BEST_SET_VOLUME", 520, 400), newRecord(id, "MAX_REPS", 13, 10, "reps")]); // session 520 + 225 = 745 < 760
    expect(l3.newRecords).toEqual([
      newRecord(id, "MAX_WEIGHT", 60, 45),
      newRecord(id, "BEST_SET_VOLUME", 780, 520),
      newRecord(id, "BEST_SESSION_VOLUME", 780, 760),
      newRecord(id, "REP_MAX_3", 60, 45),
      newRecord(id, "REP_MAX_5", 60, 45),
      newRecord(id, "REP_MAX_10", 60, 40),
    ]);
    expect(l4.newRecords).toEqual([newRecord(id, "MAX_REPS", 20, 13, "reps")]);
    expect(l5.newRecords).toEqual([newRecord(id, "MAX_WEIGHT", 62.5, 60), newRecord(id, "ESTIMATED_1RM", 65.07, 57)]);
    // The legacy flag is MAX_WEIGHT's claim (§7).
    expect([l1, l2, l3, l4, l5].map((log) => log.personalRecord)).toEqual([true, false, true, false, true]);

    const current = await recordsOf(id);
    expect(current.status).toBe(200);
    const at = (log: { id: number; executedAt: string }, setIndex: number | null) => ({
      exerciseExecutionId: log.id,
      trainingExecutionId: null,
      achievedAt: log.executedAt,
      setIndex,
    });
    const base = { exerciseId: id, exerciseName: "Supino reto" };
    expect(current.body).toEqual([
      { ...base, kind: "MAX_WEIGHT", value: 62.5, unit: "kg", reps: 1, weight: 62.5, ...at(l5, 0), previousValue: 60 },
      { ...base, kind: "ESTIMATED_1RM", value: 65.07, unit: "kg", reps: 2, weight: 61, ...at(l5, 1), previousValue: 57 },
      { ...base, kind: "BEST_SET_VOLUME", value: 780, unit: "kg", reps: 13, weight: 60, ...at(l3, 0), previousValue: 520 },
      { ...base, kind: "BEST_SESSION_VOLUME", value: 780, unit: "kg", reps: null, weight: null, ...at(l3, null), previousValue: 760 },
      { ...base, kind: "MAX_REPS", value: 20, unit: "reps", reps: 20, weight: null, ...at(l4, 0), previousValue: 13 },
      { ...base, kind: "REP_MAX_3", value: 60, unit: "kg", reps: 13, weight: 60, ...at(l3, 0), previousValue: 45 },
      { ...base, kind: "REP_MAX_5", value: 60, unit: "kg", reps: 13, weight: 60, ...at(l3, 0), previousValue: 45 },
      { ...base, kind: "REP_MAX_10", value: 60, unit: "kg", reps: 13, weight: 60, ...at(l3, 0), previousValue: 40 },
    ]);
    // Another exercise, and another user, have none.
    expect((await recordsOf(s.remada.id)).body).toEqual([]);
    expect((await recordsOf(id, "", s.trainer.token)).body).toEqual([]);
  });

  it("keeps every record event: newest execution first, one kind or all, paged", async () => {
    const [l1, l2, l3, l4, l5] = await history();
    const all = await historyOf(s.supino.id, "?size=100");
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ totalElements: 19, number: 0, size: 100 });
    const events = all.body.content.map((record: { exerciseExecutionId: number; kind: string; value: number }) => [
      record.exerciseExecutionId,
      record.kind,
      record.value,
    ]);
    expect(events).toEqual([
      [l5.id, "MAX_WEIGHT", 62.5],
      [l5.id, "ESTIMATED_1RM", 65.07],
      [l4.id, "MAX_REPS", 20],
      [l3.id, "MAX_WEIGHT", 60],
      [l3.id, "BEST_SET_VOLUME", 780],
      [l3.id, "BEST_SESSION_VOLUME", 780],
      [l3.id, "REP_MAX_3", 60],
      [l3.id, "REP_MAX_5", 60],
      [l3.id, "REP_MAX_10", 60],
      [l2.id, "BEST_SET_VOLUME", 520],
      [l2.id, "MAX_REPS", 13],
      [l1.id, "MAX_WEIGHT", 45],
      [l1.id, "ESTIMATED_1RM", 57],
      [l1.id, "BEST_SET_VOLUME", 400],
      [l1.id, "BEST_SESSION_VOLUME", 760],
      [l1.id, "MAX_REPS", 10],
      [l1.id, "REP_MAX_3", 45],
      [l1.id, "REP_MAX_5", 45],
      [l1.id, "REP_MAX_10", 40],
    ]);
    // Each event carries the best it beat; a first record none.
    expect(all.body.content.at(-1)).toMatchObject({
      kind: "REP_MAX_10",
      reps: 10,
      weight: 40,
      setIndex: 0,
      previousValue: null,
      achievedAt: "2026-03-01T10:00:00.000Z",
    });

    const reps = (await historyOf(s.supino.id, "?kind=MAX_REPS")).body;
    expect(
      reps.content.map((record: { value: number; previousValue: number | null; unit: string }) => [record.value, record.previousValue, record.unit]),
    ).toEqual([
      [20, 13, "reps"],
      [13, 10, "reps"],
      [10, null, "reps"],
    ]);
    const estimates = (await historyOf(s.supino.id, "?kind=ESTIMATED_1RM")).body;
    expect(estimates.content.map((record: { value: number }) => record.value)).toEqual([65.07, 57]);

    const second = (await historyOf(s.supino.id, "?size=5&page=1")).body;
    expect(second).toMatchObject({ totalElements: 19, totalPages: 4, number: 1, numberOfElements: 5, first: false, last: false });
    expect(second.content.map((record: { kind: string }) => record.kind)).toEqual([
      "BEST_SESSION_VOLUME",
      "REP_MAX_3",
      "REP_MAX_5",
      "REP_MAX_10",
      "BEST_SET_VOLUME",
    ]);
    expect((await historyOf(s.remada.id)).body).toMatchObject({ totalElements: 0, content: [] });
  });

  it("inside a training: dated at its endTime, pointing at both executions; an exercise logged twice claims against its own first time", async () => {
    const logged = await logTrainingExecution(
      t,
      s.student.token,
      s.trainingB.id,
      trainingExecutionBody("2026-03-10T18:00:00Z", 3600, [
        // Equal sets: the first one is the record.
        {
          exerciseId: s.supino.id,
          sets: [
            { repetitions: 5, weight: 50, completed: true },
            { repetitions: 5, weight: 50, completed: true },
          ],
        },
        { exerciseId: s.agachamento.id, sets: [{ repetitions: 3, weight: 100, completed: true }] },
        { exerciseId: s.supino.id, sets: [{ repetitions: 5, weight: 52.5, completed: true }] },
      ]),
    );
    const [first, squat, second] = logged.exerciseExecutions;
    expect(logged.newRecords).toEqual([
      newRecord(s.supino.id, "MAX_WEIGHT", 50, null),
      newRecord(s.supino.id, "ESTIMATED_1RM", 58.33, null), // 50 × 35/30 = 58.333…
      newRecord(s.supino.id, "BEST_SET_VOLUME", 250, null),
      newRecord(s.supino.id, "BEST_SESSION_VOLUME", 500, null),
      newRecord(s.supino.id, "MAX_REPS", 5, null, "reps"),
      newRecord(s.supino.id, "REP_MAX_3", 50, null),
      newRecord(s.supino.id, "REP_MAX_5", 50, null),
      newRecord(s.agachamento.id, "MAX_WEIGHT", 100, null),
      newRecord(s.agachamento.id, "ESTIMATED_1RM", 110, null), // 100 × 33/30
      newRecord(s.agachamento.id, "BEST_SET_VOLUME", 300, null),
      newRecord(s.agachamento.id, "BEST_SESSION_VOLUME", 300, null),
      newRecord(s.agachamento.id, "MAX_REPS", 3, null, "reps"),
      newRecord(s.agachamento.id, "REP_MAX_3", 100, null),
      newRecord(s.supino.id, "MAX_WEIGHT", 52.5, 50),
      newRecord(s.supino.id, "ESTIMATED_1RM", 61.25, 58.33), // 52.5 × 35/30
      newRecord(s.supino.id, "BEST_SET_VOLUME", 262.5, 250),
      newRecord(s.supino.id, "REP_MAX_3", 52.5, 50),
      newRecord(s.supino.id, "REP_MAX_5", 52.5, 50),
    ]);
    expect(logged.exerciseExecutions.map((item: { personalRecord: boolean }) => item.personalRecord)).toEqual([true, true, true]);

    const current = (await recordsOf(s.supino.id)).body;
    const byKind = Object.fromEntries(current.map((record: { kind: string }) => [record.kind, record]));
    expect(byKind.MAX_WEIGHT).toMatchObject({
      value: 52.5,
      exerciseExecutionId: second.id,
      trainingExecutionId: logged.id,
      achievedAt: "2026-03-10T19:00:00.000Z",
      setIndex: 0,
    });
    expect(byKind.BEST_SESSION_VOLUME).toMatchObject({ value: 500, exerciseExecutionId: first.id, setIndex: null }); // 262.5 < 500
    expect(byKind.MAX_REPS).toMatchObject({ value: 5, exerciseExecutionId: first.id, setIndex: 0 });
    expect((await recordsOf(s.agachamento.id)).body[0]).toMatchObject({
      exerciseName: "Agachamento livre",
      kind: "MAX_WEIGHT",
      exerciseExecutionId: squat.id,
      trainingExecutionId: logged.id,
    });
    expect(
      (await historyOf(s.supino.id, "?kind=MAX_WEIGHT")).body.content.map((record: { value: number; exerciseExecutionId: number }) => [
        record.value,
        record.exerciseExecutionId,
      ]),
    ).toEqual([
      [52.5, second.id],
      [50, first.id],
    ]);
  });

  it("10 concurrent logs beating the same records: one claims them, the others none", async () => {
    await logAt("2026-03-18T09:00:00.000Z", [{ repetitions: 5, weight: 60, completed: true }]);
    const body = { trainingId: s.trainingA.id, sets: [{ repetitions: 5, weight: 62.5, completed: true }] };
    const exerciseLogs = Array.from({ length: 6 }, () => t.post(`/api/exercises/${s.supino.id}/execution`, { token: s.student.token, body }));
    const trainingLogs = Array.from({ length: 4 }, () =>
      t.post(`/api/trainings/${s.trainingA.id}/execution`, {
        token: s.student.token,
        body: trainingExecutionBody("2026-03-18T08:00:00Z", 600, [{ exerciseId: s.supino.id, sets: body.sets }]),
      }),
    );
    const results = await Promise.all([...exerciseLogs, ...trainingLogs]);
    expect(results.map((res) => res.status)).toEqual(Array(10).fill(201));
    const claims = results.map((res) => res.body.newRecords);
    // 62.5 beats MAX_WEIGHT, the estimate (62.5 × 35/30 = 72.92 > 70), both volumes and REP_MAX_3/5; 5 repetitions tie MAX_REPS.
    const winners = claims.filter((claimed) => claimed.length > 0);
    expect(winners).toEqual([
      [
        newRecord(s.supino.id, "MAX_WEIGHT", 62.5, 60),
        newRecord(s.supino.id, "ESTIMATED_1RM", 72.92, 70),
        newRecord(s.supino.id, "BEST_SET_VOLUME", 312.5, 300),
        newRecord(s.supino.id, "BEST_SESSION_VOLUME", 312.5, 300),
        newRecord(s.supino.id, "REP_MAX_3", 62.5, 60),
        newRecord(s.supino.id, "REP_MAX_5", 62.5, 60),
      ],
    ]);
    // The same log holds the legacy flag.
    const flags = results.map((res) => (res.body.exerciseExecutions ? res.body.exerciseExecutions[0].personalRecord : res.body.personalRecord));
    expect(flags.filter(Boolean)).toHaveLength(1);
    expect(flags.findIndex(Boolean)).toBe(claims.findIndex((claimed) => claimed.length > 0));
    // 7 first records, then 6: each kind has one current record.
    expect((await historyOf(s.supino.id)).body.totalElements).toBe(13);
    expect((await recordsOf(s.supino.id)).body.map((record: { kind: string }) => record.kind)).toEqual([
      "MAX_WEIGHT",
      "ESTIMATED_1RM",
      "BEST_SET_VOLUME",
      "BEST_SESSION_VOLUME",
      "MAX_REPS",
      "REP_MAX_3",
      "REP_MAX_5",
    ]);
  });
});

describe("who reads records (contract §7)", () => {
  let boss: MadeUser;
  let stranger: MadeUser;
  let unlinkedTrainer: MadeUser;

  beforeEach(async () => {
    boss = await makeUser(t, { email: "boss@example.com", userType: "PERSONAL" });
    stranger = await makeStudent(t, { name: "Carla Estranha" });
    unlinkedTrainer = await makeTrainer(t, { name: "Diego Personal" });
    await logAt("2026-03-01T10:00:00.000Z", [{ repetitions: 5, weight: 50, completed: true }]);
  });

  const urls = () => [`/api/exercises/${s.supino.id}/records?userId=${s.student.id}`, `/api/exercises/${s.supino.id}/records/history?userId=${s.student.id}`];

  it("the user, administrators and the user's ACTIVE-linked trainer; a stranger, an unlinked trainer and a removed trainer get 403", async () => {
    const secondTrainer = await makeTrainer(t, { name: "Elisa Personal" });
    const secondLink = await linkTrainerAndStudent(t, secondTrainer, s.student);
    for (const url of urls()) {
      const own = await t.get(url, { token: s.student.token });
      expect(own.status).toBe(200);
      for (const reader of [boss, s.trainer, secondTrainer]) expect(await t.get(url, { token: reader.token })).toMatchObject({ status: 200, body: own.body });
      for (const outsider of [stranger, unlinkedTrainer]) expect(await t.get(url, { token: outsider.token })).toMatchObject({ status: 403, body: DENIED });
    }
    expect((await t.get(urls()[0], { token: s.trainer.token })).body).toHaveLength(7);

    // The student ends the second trainer's link: that trainer loses access, the first keeps it.
    expect((await t.delete(`/api/students/personals/${secondLink}`, { token: s.student.token })).status).toBe(204);
    for (const url of urls()) {
      expect(await t.get(url, { token: secondTrainer.token })).toMatchObject({ status: 403, body: DENIED });
      expect((await t.get(url, { token: s.trainer.token })).status).toBe(200);
    }
    // And a trainer whose link the trainer itself ended.
    expect((await t.delete(`/api/personal/students/${s.linkId}`, { token: s.trainer.token })).status).toBe(204);
    for (const url of urls()) expect(await t.get(url, { token: s.trainer.token })).toMatchObject({ status: 403, body: DENIED });
  });

  it("answers 404, 400 and 401 like the other readings of an exercise", async () => {
    for (const path of ["records", "records/history"]) {
      expect(await t.get(`/api/exercises/999999/${path}`, { token: s.student.token })).toMatchObject({ status: 404, body: EXERCISE_NOT_FOUND });
      expect(await t.get(`/api/exercises/abc/${path}`, { invalidRequest: true, token: s.student.token })).toMatchObject({
        status: 400,
        body: invalidParameter("id"),
      });
      expect(await t.get(`/api/exercises/${s.supino.id}/${path}?userId=abc`, { invalidRequest: true, token: s.student.token })).toMatchObject({
        status: 400,
        body: invalidParameter("userId"),
      });
      expect(await t.get(`/api/exercises/${s.supino.id}/${path}`)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    }
    expect(await t.withInvalidRequests(() => historyOf(s.supino.id, "?kind=HEAVIEST"))).toMatchObject({ status: 400, body: invalidParameter("kind") });
    expect(await t.withInvalidRequests(() => historyOf(s.supino.id, "?sort=value,desc"))).toMatchObject({ status: 400, body: invalidParameter("sort") });
    expect(await t.withInvalidRequests(() => historyOf(s.supino.id, "?size=0"))).toMatchObject({ status: 400, body: invalidParameter("size") });
  });
});
