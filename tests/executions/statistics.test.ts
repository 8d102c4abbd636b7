import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { logExerciseExecution, logTrainingExecution, setsOf, trainingExecutionBody, type ExerciseInTraining, type SetBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, makeUser, type MadeUser } from "../factories/users.js";
import { cents, DENIED, EXERCISE_NOT_FOUND, figures, invalidParameter, ISO, kg, makeScene, TRAINING_NOT_FOUND, UNAUTHORIZED, type Scene } from "./support.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com", FREE_TRAINER_MAX_STUDENTS: "10" });

/** A Wednesday: the last 8 ISO weeks of the metrics are the weeks of Mondays 2026-01-26 … 2026-03-16. */
const NOW = new Date("2026-03-18T12:00:00.000Z");

let s: Scene;
let otherTrainer: MadeUser;

beforeEach(async () => {
  t.clock.set(NOW);
  s = await makeScene(t, { accept: true });
  otherTrainer = await makeTrainer(t, { name: "Diego Personal" });
});

const logTraining = (
  training: Record<string, any>,
  start: string,
  seconds: number,
  items: ExerciseInTraining[],
  completed = true,
  user: MadeUser = s.student,
) => logTrainingExecution(t, user.token, training.id, trainingExecutionBody(start, seconds, items, { completed }));

/** Logs `exercise` on its own at `at` (moving the test clock there, with a token of that moment, and back). */
async function logAlone(at: string, exercise: Record<string, any>, sets: SetBody[], duration?: number, user: MadeUser = s.student) {
  t.clock.set(new Date(at));
  const login = await t.post("/api/users/login", { body: { email: user.email, password: user.password } });
  const logged = await logExerciseExecution(t, login.body.token, exercise.id, s.trainingB.id, sets, duration === undefined ? {} : { duration });
  t.clock.set(NOW);
  return logged;
}

const byExercise = (stats: { exerciseStatistics: { exerciseId: number }[] }, id: number) =>
  stats.exerciseStatistics.find((item) => item.exerciseId === id) as Record<string, any> | undefined;

describe("GET /api/trainings/{id}/statistics", () => {
  /**
   * Four executions of Treino A over three UTC days, with incomplete sets and sets without weight:
   *   E1 2026-03-02 10:00, 3600 s, completed   supino 10×42.5 ✓, 8×33.75 ✓, 6×45 ✗   remada 12×— ✓, 10×30 ✓
   *   E2 2026-03-02 18:00, 2701 s, not done    supino 5×50 ✓, 5×50 ✗                 remada 15×27.5 ✓
   *   E3 2026-03-04 23:30, 2700 s, completed   supino 3×52.25 ✓, 12×— ✓               remada 8×33.75 ✗
   *   E4 2026-03-10 07:00, 1800 s, completed   supino 1×60.25 ✓
   */
  async function fourExecutions(user: MadeUser = s.student) {
    const { supino, remada, trainingA } = s;
    await logTraining(
      trainingA,
      "2026-03-02T10:00:00Z",
      3600,
      [
        {
          exerciseId: supino.id,
          sets: [
            { repetitions: 10, weight: 42.5, completed: true },
            { repetitions: 8, weight: 33.75, completed: true },
            { repetitions: 6, weight: 45, completed: false },
          ],
        },
        {
          exerciseId: remada.id,
          sets: [
            { repetitions: 12, completed: true },
            { repetitions: 10, weight: 30, completed: true },
          ],
        },
      ],
      true,
      user,
    );
    await logTraining(
      trainingA,
      "2026-03-02T18:00:00Z",
      2701,
      [
        {
          exerciseId: supino.id,
          sets: [
            { repetitions: 5, weight: 50, completed: true },
            { repetitions: 5, weight: 50, completed: false },
          ],
        },
        { exerciseId: remada.id, sets: [{ repetitions: 15, weight: 27.5, completed: true }] },
      ],
      false,
      user,
    );
    await logTraining(
      trainingA,
      "2026-03-04T23:30:00Z",
      2700,
      [
        {
          exerciseId: supino.id,
          sets: [
            { repetitions: 3, weight: 52.25, completed: true },
            { repetitions: 12, weight: null, completed: true },
          ],
        },
        { exerciseId: remada.id, sets: [{ repetitions: 8, weight: 33.75, completed: false }] },
      ],
      true,
      user,
    );
    await logTraining(
      trainingA,
      "2026-03-10T07:00:00Z",
      1800,
      [{ exerciseId: supino.id, sets: [{ repetitions: 1, weight: 60.25, completed: true }] }],
      true,
      user,
    );
  }

  /** Noise that must not count: Treino B, another user's Treino A, and supino logged on its own. */
  async function noise() {
    await logTraining(s.trainingB, "2026-03-02T12:00:00Z", 999, [{ exerciseId: s.supino.id, sets: [{ repetitions: 100, weight: 100, completed: true }] }]);
    await logTraining(
      s.trainingA,
      "2026-03-02T12:00:00Z",
      999,
      [{ exerciseId: s.supino.id, sets: [{ repetitions: 100, weight: 100, completed: true }] }],
      true,
      s.trainer,
    );
  }

  it("computes every figure from completed sets, the mean duration of all executions and one progress entry per UTC day", async () => {
    await fourExecutions();
    await noise();
    const res = await t.get(`/api/trainings/${s.trainingA.id}/statistics`, { token: s.student.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      trainingId: s.trainingA.id,
      trainingName: "Treino A",
      totalExecutions: 4,
      completedExecutions: 3,
      averageDuration: 2700.25, // (3600 + 2701 + 2700 + 1800) / 4
      totalVolume: 1874.5, // E1 995 + E2 662.5 + E3 156.75 + E4 60.25
    });
    expect(res.body.exerciseStatistics).toHaveLength(2);
    expect(byExercise(res.body, s.supino.id)).toEqual({
      exerciseId: s.supino.id,
      exerciseName: "Supino reto",
      totalSets: 6, // 2 + 1 + 2 + 1 completed
      totalReps: 39, // 10+8 + 5 + 3+12 + 1
      maxWeight: 60.25, // the 45 and second 50 were not completed; 60.25 was
      averageWeight: 47.75, // (42.5 + 33.75 + 50 + 52.25 + 60.25) / 5 — the weightless set left out
      totalVolume: 1162, // 425 + 270 + 250 + 156.75 + 0 + 60.25
    });
    expect(byExercise(res.body, s.remada.id)).toEqual({
      exerciseId: s.remada.id,
      exerciseName: "Remada curvada",
      totalSets: 3, // 2 + 1 (E3's only set not completed)
      totalReps: 37, // 12+10 + 15
      maxWeight: 30, // the 33.75 was not completed
      averageWeight: 28.75, // (30 + 27.5) / 2
      totalVolume: 712.5, // 0 + 300 + 412.5
    });
    expect(res.body.progressData).toEqual([
      { date: "2026-03-02", totalVolume: 1657.5, duration: 6301 }, // E1 995 + E2 662.5; 3600 + 2701
      { date: "2026-03-04", totalVolume: 156.75, duration: 2700 }, // dated by its start, though it ends on the 5th
      { date: "2026-03-10", totalVolume: 60.25, duration: 1800 },
    ]);
  });

  it("restricts every figure to the inclusive UTC days asked for", async () => {
    await fourExecutions();
    const url = `/api/trainings/${s.trainingA.id}/statistics`;

    const middle = (await t.get(`${url}?startDate=2026-03-03&endDate=2026-03-10`, { token: s.student.token })).body;
    expect(middle).toMatchObject({ totalExecutions: 2, completedExecutions: 2, averageDuration: 2250, totalVolume: 217 });
    expect(byExercise(middle, s.supino.id)).toMatchObject({ totalSets: 3, totalReps: 16, maxWeight: 60.25, averageWeight: 56.25, totalVolume: 217 });
    // E3's remada had no completed set: if listed, it counts nothing.
    const remada = byExercise(middle, s.remada.id);
    if (remada) expect(remada).toMatchObject({ totalSets: 0, totalReps: 0, totalVolume: 0 });
    expect(middle.progressData).toEqual([
      { date: "2026-03-04", totalVolume: 156.75, duration: 2700 },
      { date: "2026-03-10", totalVolume: 60.25, duration: 1800 },
    ]);

    const firstDay = (await t.get(`${url}?endDate=2026-03-02`, { token: s.student.token })).body;
    expect(firstDay).toMatchObject({ totalExecutions: 2, completedExecutions: 1, averageDuration: 3150.5, totalVolume: 1657.5 });
    expect(byExercise(firstDay, s.supino.id)).toMatchObject({ totalSets: 3, totalReps: 23, maxWeight: 50, totalVolume: 945 });
    // (42.5 + 33.75 + 50) / 3 = 42.0833…: the contract sets no rounding, so only 2 decimals are held to.
    expect(byExercise(firstDay, s.supino.id)!.averageWeight).toBeCloseTo(126.25 / 3, 2);
    expect(byExercise(firstDay, s.remada.id)).toMatchObject({ totalSets: 3, totalReps: 37, maxWeight: 30, averageWeight: 28.75, totalVolume: 712.5 });
    expect(firstDay.progressData).toEqual([{ date: "2026-03-02", totalVolume: 1657.5, duration: 6301 }]);

    // E3 starts on the 4th: from the 5th on only E4 is left.
    const late = (await t.get(`${url}?startDate=2026-03-05`, { token: s.student.token })).body;
    expect(late).toMatchObject({ totalExecutions: 1, completedExecutions: 1, averageDuration: 1800, totalVolume: 60.25 });

    const none = (await t.get(`${url}?startDate=2026-04-01`, { token: s.student.token })).body;
    expect(none).toMatchObject({
      trainingId: s.trainingA.id,
      totalExecutions: 0,
      completedExecutions: 0,
      totalVolume: 0,
      exerciseStatistics: [],
      progressData: [],
    });
  });

  it("gives a linked student's figures to their trainer and administrators by userId; 403 to others", async () => {
    await fourExecutions();
    const boss = await makeUser(t, { email: "boss@example.com", userType: "PERSONAL" });
    const url = `/api/trainings/${s.trainingA.id}/statistics`;
    const own = (await t.get(url, { token: s.student.token })).body;
    for (const reader of [s.trainer, boss]) {
      const res = await t.get(`${url}?userId=${s.student.id}`, { token: reader.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(own);
    }
    // Without userId the trainer gets its own (none).
    expect((await t.get(url, { token: s.trainer.token })).body).toMatchObject({ totalExecutions: 0, exerciseStatistics: [], progressData: [] });

    const stranger = await makeStudent(t);
    expect(await t.get(`${url}?userId=${s.student.id}`, { token: otherTrainer.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get(`${url}?userId=${s.student.id}`, { token: stranger.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get(`${url}?userId=${s.trainer.id}`, { token: s.student.token })).toMatchObject({ status: 403, body: DENIED });
    expect((await t.delete(`/api/personal/students/${s.linkId}`, { token: s.trainer.token })).status).toBe(204);
    expect(await t.get(`${url}?userId=${s.student.id}`, { token: s.trainer.token })).toMatchObject({ status: 403, body: DENIED });

    expect(await t.get("/api/trainings/999999/statistics", { token: s.student.token })).toMatchObject({ status: 404, body: TRAINING_NOT_FOUND });
    expect(await t.get(`${url}?startDate=2026-02-30`, { invalidRequest: true, token: s.student.token })).toMatchObject({
      status: 400,
      body: invalidParameter("startDate"),
    });
    expect(await t.get(`${url}?userId=x`, { invalidRequest: true, token: s.student.token })).toMatchObject({ status: 400, body: invalidParameter("userId") });
    expect(await t.get(url)).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });

  it("adds decimals exactly over many rows: 1000 sets of 0.1 kg × 1 rep make 100", async () => {
    const all: SetBody[] = [];
    const remadaSets: SetBody[] = [];
    for (let i = 0; i < 10; i++) {
      const supinoSets = setsOf(100, { repetitions: 1, weight: 0.1, completed: true });
      const remada = [
        { repetitions: 3, weight: 33.33, completed: true },
        { repetitions: 7, weight: 0.07, completed: true },
        { repetitions: 9, weight: 99.99, completed: false },
      ];
      all.push(...supinoSets);
      remadaSets.push(...remada);
      const day = i < 5 ? "2026-03-09" : "2026-03-10";
      await logTraining(s.trainingA, `${day}T0${i % 5}:00:00Z`, 600 + i, [
        { exerciseId: s.supino.id, sets: supinoSets },
        { exerciseId: s.remada.id, sets: remada },
      ]);
    }
    // What plain float addition would give: not the figure asked for.
    expect(all.reduce((sum, set) => sum + set.repetitions * set.weight!, 0)).not.toBe(100);

    const supinoHand = figures(all);
    const remadaHand = figures(remadaSets);
    expect(kg(supinoHand.volumeCents)).toBe(100);
    expect(kg(remadaHand.volumeCents)).toBe(1004.8); // 10 × (3 × 33.33 + 7 × 0.07) = 10 × (99.99 + 0.49)

    const stats = (await t.get(`/api/trainings/${s.trainingA.id}/statistics`, { token: s.student.token })).body;
    expect(stats).toMatchObject({ totalExecutions: 10, completedExecutions: 10, averageDuration: 604.5, totalVolume: 1104.8 });
    expect(byExercise(stats, s.supino.id)).toMatchObject({ totalSets: 1000, totalReps: 1000, maxWeight: 0.1, averageWeight: 0.1, totalVolume: 100 });
    expect(byExercise(stats, s.remada.id)).toMatchObject({
      totalSets: remadaHand.totalSets, // 20
      totalReps: remadaHand.totalReps, // 100
      maxWeight: kg(remadaHand.maxWeightCents!), // 33.33 (the 99.99 sets were never completed)
      averageWeight: 16.7, // (33.33 + 0.07) / 2
      totalVolume: 1004.8,
    });
    expect(remadaHand.totalSets).toBe(20);
    expect(kg(remadaHand.weightSumCents) / remadaHand.weightedSets).toBe(16.7);
    expect(stats.progressData).toEqual([
      { date: "2026-03-09", totalVolume: 552.4, duration: 3010 }, // 5 × (10 + 100.48); 600+601+602+603+604
      { date: "2026-03-10", totalVolume: 552.4, duration: 3035 },
    ]);

    const progress = (await t.get(`/api/exercises/${s.supino.id}/progress?interval=MONTH`, { token: s.student.token })).body;
    expect(progress.progressData).toEqual([
      { date: "2026-03-01", maxWeight: 0.1, totalVolume: 100, totalSets: 1000, totalReps: 1000, estimatedOneRepMax: 0.1 },
    ]);
  });
});

describe("GET /api/exercises/{id}/progress", () => {
  /**
   * Supino, both kinds, each dated by its executedAt (a training's exercises by the training's endTime):
   *   2021-01-03 10:30 (Sunday; ISO week of Mon 2020-12-28)  in Treino A   4×20 ✓                       1RM 22.67
   *   2026-03-02 09:00 (Monday)                              alone         8×40 ✓, 8×45 ✗               1RM 50.67
   *   2026-03-02 15:00                                        alone         10×33.75 ✓, 10×— ✓           1RM 45
   *   2026-03-03 10:30                                        in Treino A   5×50 ✓, 10×— ✓               1RM 58.33
   *   2026-03-08 23:59:59 (Sunday)                            alone         3×52.5 ✓                     1RM 57.75
   *   2026-03-09 00:00 (Monday)                               alone         12×42.5 ✓, 1×55 ✗            1RM 59.5
   *   2026-04-01 00:10 (starts 03-31 23:00)                   in Treino B   1×57.5 ✓                     1RM 57.5
   *   2026-04-02 10:00                                        alone         2×57.5 ✓                     1RM 61.33
   */
  async function history() {
    const { supino, trainingA, trainingB, agachamento } = s;
    await logTraining(trainingA, "2021-01-03T10:00:00Z", 1800, [{ exerciseId: supino.id, sets: [{ repetitions: 4, weight: 20, completed: true }] }]);
    await logAlone("2026-03-02T09:00:00Z", supino, [
      { repetitions: 8, weight: 40, completed: true },
      { repetitions: 8, weight: 45, completed: false },
    ]);
    await logAlone("2026-03-02T15:00:00Z", supino, [
      { repetitions: 10, weight: 33.75, completed: true },
      { repetitions: 10, completed: true },
    ]);
    await logTraining(trainingA, "2026-03-03T10:00:00Z", 1800, [
      {
        exerciseId: supino.id,
        sets: [
          { repetitions: 5, weight: 50, completed: true },
          { repetitions: 10, completed: true },
        ],
      },
    ]);
    await logAlone("2026-03-08T23:59:59.000Z", supino, [{ repetitions: 3, weight: 52.5, completed: true }]);
    await logAlone("2026-03-09T00:00:00.000Z", supino, [
      { repetitions: 12, weight: 42.5, completed: true },
      { repetitions: 1, weight: 55, completed: false },
    ]);
    await logTraining(trainingB, "2026-03-31T23:00:00Z", 4200, [
      { exerciseId: agachamento.id, sets: [{ repetitions: 5, weight: 100, completed: true }] },
      { exerciseId: supino.id, sets: [{ repetitions: 1, weight: 57.5, completed: true }] },
    ]);
    await logAlone("2026-04-02T10:00:00Z", supino, [{ repetitions: 2, weight: 57.5, completed: true }]);
    // Not the student's: never counted.
    await logTraining(
      trainingA,
      "2026-03-02T10:00:00Z",
      60,
      [{ exerciseId: supino.id, sets: [{ repetitions: 5, weight: 200, completed: true }] }],
      true,
      s.trainer,
    );
  }

  const DAYS = [
    { date: "2021-01-03", maxWeight: 20, totalVolume: 80, totalSets: 1, totalReps: 4, estimatedOneRepMax: 22.67 }, // 20 × 34/30 = 22.666…
    { date: "2026-03-02", maxWeight: 40, totalVolume: 657.5, totalSets: 3, totalReps: 28, estimatedOneRepMax: 50.67 }, // 320 + 337.5; 40 × 38/30
    { date: "2026-03-03", maxWeight: 50, totalVolume: 250, totalSets: 2, totalReps: 15, estimatedOneRepMax: 58.33 }, // 50 × 35/30
    { date: "2026-03-08", maxWeight: 52.5, totalVolume: 157.5, totalSets: 1, totalReps: 3, estimatedOneRepMax: 57.75 }, // 52.5 × 33/30
    { date: "2026-03-09", maxWeight: 42.5, totalVolume: 510, totalSets: 1, totalReps: 12, estimatedOneRepMax: 59.5 }, // 42.5 × 42/30
    { date: "2026-04-01", maxWeight: 57.5, totalVolume: 57.5, totalSets: 1, totalReps: 1, estimatedOneRepMax: 57.5 }, // one repetition: the weight itself (§7)
    { date: "2026-04-02", maxWeight: 57.5, totalVolume: 115, totalSets: 1, totalReps: 2, estimatedOneRepMax: 61.33 }, // 57.5 × 32/30 = 61.333…
  ];

  it("buckets by UTC day (the default), ISO week dated by its Monday, and month dated by its first day", async () => {
    await history();
    const url = `/api/exercises/${s.supino.id}/progress`;
    const day = await t.get(`${url}?interval=DAY`, { token: s.student.token });
    expect(day.status).toBe(200);
    expect(day.body).toMatchObject({ exerciseId: s.supino.id, exerciseName: "Supino reto" });
    expect(day.body.progressData).toEqual(DAYS);
    expect((await t.get(url, { token: s.student.token })).body.progressData).toEqual(DAYS);

    expect((await t.get(`${url}?interval=WEEK`, { token: s.student.token })).body.progressData).toEqual([
      { date: "2020-12-28", maxWeight: 20, totalVolume: 80, totalSets: 1, totalReps: 4, estimatedOneRepMax: 22.67 },
      // Mon 2 … Sun 8 March: 657.5 + 250 + 157.5
      { date: "2026-03-02", maxWeight: 52.5, totalVolume: 1065, totalSets: 6, totalReps: 46, estimatedOneRepMax: 58.33 },
      { date: "2026-03-09", maxWeight: 42.5, totalVolume: 510, totalSets: 1, totalReps: 12, estimatedOneRepMax: 59.5 },
      // Wed 1 and Thu 2 April are in the week of Monday 30 March.
      { date: "2026-03-30", maxWeight: 57.5, totalVolume: 172.5, totalSets: 2, totalReps: 3, estimatedOneRepMax: 61.33 },
    ]);
    expect((await t.get(`${url}?interval=MONTH`, { token: s.student.token })).body.progressData).toEqual([
      { date: "2021-01-01", maxWeight: 20, totalVolume: 80, totalSets: 1, totalReps: 4, estimatedOneRepMax: 22.67 },
      { date: "2026-03-01", maxWeight: 52.5, totalVolume: 1575, totalSets: 7, totalReps: 58, estimatedOneRepMax: 59.5 },
      { date: "2026-04-01", maxWeight: 57.5, totalVolume: 172.5, totalSets: 2, totalReps: 3, estimatedOneRepMax: 61.33 },
    ]);
  });

  it("gives the personal record: the highest completed weight, the date it was first reached, unit kg", async () => {
    await history();
    const res = await t.get(`/api/exercises/${s.supino.id}/progress`, { token: s.student.token });
    // 57.5 first reached inside Treino B, dated at its endTime; the 2 April repeat does not move the date.
    expect(res.body.personalRecord).toMatchObject({ value: 57.5, unit: "kg", date: "2026-04-01T00:10:00.000Z" });
    expect(res.body.personalRecord.date).toMatch(ISO);
    // The best Epley estimate over all completed weighted sets: 57.5 × 32/30.
    expect(res.body.personalRecord.estimatedOneRepMax).toBe(61.33);
  });

  it("restricts the buckets to the inclusive UTC days asked for", async () => {
    await history();
    const url = `/api/exercises/${s.supino.id}/progress`;
    const get = async (query: string) => (await t.get(`${url}?${query}`, { token: s.student.token })).body.progressData;
    expect(await get("startDate=2026-03-03&endDate=2026-03-08")).toEqual(DAYS.slice(2, 4));
    expect(await get("startDate=2026-03-09&endDate=2026-03-09")).toEqual([DAYS[4]]);
    expect(await get("startDate=2026-03-03&endDate=2026-03-31&interval=WEEK")).toEqual([
      { date: "2026-03-02", maxWeight: 52.5, totalVolume: 407.5, totalSets: 3, totalReps: 18, estimatedOneRepMax: 58.33 }, // 250 + 157.5
      { date: "2026-03-09", maxWeight: 42.5, totalVolume: 510, totalSets: 1, totalReps: 12, estimatedOneRepMax: 59.5 },
    ]);
    expect(await get("startDate=2026-04-03")).toEqual([]);
  });

  it("gives userId's progress to the linked trainer and administrators; 403, 404 and 400 otherwise", async () => {
    await history();
    const boss = await makeUser(t, { email: "boss@example.com", userType: "PERSONAL" });
    const url = `/api/exercises/${s.supino.id}/progress?interval=WEEK`;
    const own = (await t.get(url, { token: s.student.token })).body;
    for (const reader of [s.trainer, boss]) expect((await t.get(`${url}&userId=${s.student.id}`, { token: reader.token })).body).toEqual(own);
    // The trainer's own: the one 200 kg set.
    expect((await t.get(url, { token: s.trainer.token })).body.progressData).toEqual([
      { date: "2026-03-02", maxWeight: 200, totalVolume: 1000, totalSets: 1, totalReps: 5, estimatedOneRepMax: 233.33 },
    ]);
    expect(await t.get(`${url}&userId=${s.student.id}`, { token: otherTrainer.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get("/api/exercises/999999/progress", { token: s.student.token })).toMatchObject({ status: 404, body: EXERCISE_NOT_FOUND });
    expect(await t.get(`/api/exercises/${s.supino.id}/progress?interval=YEAR`, { invalidRequest: true, token: s.student.token })).toMatchObject({
      status: 400,
      body: invalidParameter("interval"),
    });
    expect(await t.get(`/api/exercises/${s.supino.id}/progress?endDate=2026-3-1`, { invalidRequest: true, token: s.student.token })).toMatchObject({
      status: 400,
      body: invalidParameter("endDate"),
    });
    expect(await t.get(`/api/exercises/${s.supino.id}/progress`)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    // No executions yet: no buckets.
    expect((await t.get(`/api/exercises/${s.remada.id}/progress`, { token: s.student.token })).body).toMatchObject({
      exerciseId: s.remada.id,
      exerciseName: "Remada curvada",
      progressData: [],
    });
  });
});

describe("GET /api/exercises/personal-records", () => {
  it("gives one record per exercise: the highest completed weight and when it was first reached", async () => {
    await logAlone("2026-03-02T09:00:00Z", s.supino, [
      { repetitions: 5, weight: 50, completed: true },
      { repetitions: 1, weight: 70, completed: false },
    ]);
    await logAlone("2026-03-04T09:00:00Z", s.supino, [{ repetitions: 3, weight: 50, completed: true }]);
    await logAlone("2026-03-05T09:00:00Z", s.supino, [{ repetitions: 10, weight: 48, completed: true }]);
    await logAlone("2026-03-05T10:00:00Z", s.remada, [
      { repetitions: 10, completed: true },
      { repetitions: 10, weight: 30, completed: false },
    ]);
    await logTraining(s.trainingB, "2026-03-06T18:00:00Z", 3600, [
      {
        exerciseId: s.agachamento.id,
        sets: [
          { repetitions: 5, weight: 100, completed: true },
          { repetitions: 5, weight: 102.5, completed: false },
        ],
      },
      { exerciseId: s.supino.id, sets: [{ repetitions: 8, weight: 45, completed: true }] },
    ]);
    // Somebody else's heavier supino is not the student's record.
    await logTraining(
      s.trainingA,
      "2026-03-06T18:00:00Z",
      60,
      [{ exerciseId: s.supino.id, sets: [{ repetitions: 1, weight: 150, completed: true }] }],
      true,
      s.trainer,
    );

    const res = await t.get("/api/exercises/personal-records", { token: s.student.token });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    // Remada: no completed weighted set, so no record.
    expect(res.body).toHaveLength(2);
    const supino = res.body.find((item: { exerciseId: number }) => item.exerciseId === s.supino.id);
    const agachamento = res.body.find((item: { exerciseId: number }) => item.exerciseId === s.agachamento.id);
    expect(supino).toMatchObject({ exerciseId: s.supino.id, exerciseName: "Supino reto", value: 50, unit: "kg", date: "2026-03-02T09:00:00.000Z" });
    expect(agachamento).toMatchObject({
      exerciseId: s.agachamento.id,
      exerciseName: "Agachamento livre",
      value: 100,
      unit: "kg",
      date: "2026-03-06T19:00:00.000Z",
    });
    // The best Epley estimates: 48 × 40/30 = 64 (beats 50 × 35/30 = 58.33); 100 × 35/30 = 116.666….
    expect(supino.estimatedOneRepMax).toBe(64);
    expect(agachamento.estimatedOneRepMax).toBe(116.67);

    // The trainer's own list has only its own record.
    const trainers = (await t.get("/api/exercises/personal-records", { token: s.trainer.token })).body;
    expect(trainers).toEqual([expect.objectContaining({ exerciseId: s.supino.id, value: 150, date: "2026-03-06T18:01:00.000Z" })]);
    expect(await t.get("/api/exercises/personal-records")).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });

  it("dates a record by the earliest execution reaching it, also one logged after the fact", async () => {
    await logAlone("2026-03-10T09:00:00Z", s.supino, [{ repetitions: 5, weight: 55.55, completed: true }]);
    const later = await logTraining(s.trainingA, "2026-03-01T08:00:00Z", 600, [
      { exerciseId: s.supino.id, sets: [{ repetitions: 5, weight: 55.55, completed: true }] },
    ]);
    expect(later.exerciseExecutions[0].personalRecord).toBe(false); // equal to an earlier-logged weight
    const [record] = (await t.get("/api/exercises/personal-records", { token: s.student.token })).body;
    expect(record).toMatchObject({ value: 55.55, unit: "kg", date: "2026-03-01T08:10:00.000Z" });
  });

  it("gives an empty list to a user with no weighted executions", async () => {
    expect((await t.get("/api/exercises/personal-records", { token: s.student.token })).body).toEqual([]);
    // Executions without a completed weighted set hold no record either.
    await logAlone("2026-03-10T10:00:00.000Z", s.supino, [
      { repetitions: 10, completed: true },
      { repetitions: 5, weight: 50, completed: false },
    ]);
    await logTraining(s.trainingA, "2026-03-11T10:00:00Z", 1800, [{ exerciseId: s.remada.id, sets: [{ repetitions: 12, completed: true }] }]);
    const res = await t.get("/api/exercises/personal-records", { token: s.student.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe("GET /api/users/metrics", () => {
  const MONDAYS = ["2026-01-26", "2026-02-02", "2026-02-09", "2026-02-16", "2026-02-23", "2026-03-02", "2026-03-09", "2026-03-16"];

  it("counts both kinds of execution, sums their time and gives 8 ISO weeks oldest first", async () => {
    const { supino, remada, agachamento, trainingA, trainingB } = s;
    // T1: Sunday before the 8 weeks — in the totals, not in weeklyProgress.
    await logTraining(trainingA, "2026-01-25T22:00:00Z", 3600, [{ exerciseId: supino.id, sets: [{ repetitions: 5, weight: 40, completed: true }] }]);
    // T2: the first second of the oldest week; not completed.
    await logTraining(
      trainingA,
      "2026-01-26T00:00:00Z",
      1200,
      [
        { exerciseId: supino.id, sets: [{ repetitions: 5, weight: 42.5, completed: true }] },
        { exerciseId: remada.id, sets: [{ repetitions: 10, completed: false }] },
      ],
      false,
    );
    // T3: starts on Sunday 15 March, ends on Monday: dated by its start, week of 9 March.
    await logTraining(trainingB, "2026-03-15T23:30:00Z", 3600, [{ exerciseId: agachamento.id, sets: [{ repetitions: 5, weight: 100, completed: true }] }]);
    // T4: this week.
    await logTraining(trainingA, "2026-03-16T08:00:00Z", 2400, [
      { exerciseId: supino.id, sets: [{ repetitions: 3, weight: 33.75, completed: true }] },
      { exerciseId: remada.id, sets: [{ repetitions: 12, weight: 27.5, completed: true }] },
    ]);
    // Exercises logged on their own: Sunday 1 March (week of 23 Feb), and two this week (one without a duration).
    await logAlone("2026-03-01T10:00:00Z", remada, [{ repetitions: 8, weight: 30, completed: true }], 300);
    await logAlone("2026-03-17T10:00:00Z", supino, [{ repetitions: 1, weight: 45, completed: true }], 450);
    await logAlone("2026-03-17T11:00:00Z", agachamento, [{ repetitions: 10, completed: true }]);
    // Another user's executions count nowhere.
    await logTraining(
      trainingA,
      "2026-03-16T09:00:00Z",
      5000,
      [{ exerciseId: supino.id, sets: [{ repetitions: 1, weight: 10, completed: true }] }],
      true,
      s.trainer,
    );

    // Weight history from the profile: every PUT that sets weight, oldest first.
    t.clock.set(new Date("2026-02-01T09:00:00.000Z"));
    expect((await t.put("/api/users/profile", { token: s.student.token, body: { weight: 80.5 } })).status).toBe(200);
    t.clock.set(new Date("2026-02-15T09:00:00.000Z"));
    expect((await t.put("/api/users/profile", { token: s.student.token, body: { phone: "11999990000" } })).status).toBe(200);
    t.clock.set(new Date("2026-03-01T09:00:00.000Z"));
    expect((await t.put("/api/users/profile", { token: s.student.token, body: { weight: 79.25, height: 170 } })).status).toBe(200);
    t.clock.set(NOW);

    const res = await t.get("/api/users/metrics", { token: s.student.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      userId: s.student.id,
      totalTrainings: 4,
      completedTrainings: 3,
      totalExercises: 9, // 1 + 2 + 1 + 2 inside trainings, 3 on their own
      totalTime: 11_550, // 3600 + 1200 + 3600 + 2400 trainings, 300 + 450 on their own
    });
    expect(res.body.weeklyProgress).toEqual([
      { date: "2026-01-26", trainingsCount: 1, totalTime: 1200 },
      { date: "2026-02-02", trainingsCount: 0, totalTime: 0 },
      { date: "2026-02-09", trainingsCount: 0, totalTime: 0 },
      { date: "2026-02-16", trainingsCount: 0, totalTime: 0 },
      { date: "2026-02-23", trainingsCount: 0, totalTime: 300 },
      { date: "2026-03-02", trainingsCount: 0, totalTime: 0 },
      { date: "2026-03-09", trainingsCount: 1, totalTime: 3600 },
      { date: "2026-03-16", trainingsCount: 1, totalTime: 2850 }, // 2400 + 450
    ]);
    expect(res.body.weightHistory).toEqual([
      { date: "2026-02-01T09:00:00.000Z", value: 80.5 },
      { date: "2026-03-01T09:00:00.000Z", value: 79.25 },
    ]);
    const records = [...res.body.personalRecords].sort((a, b) => a.exerciseName.localeCompare(b.exerciseName));
    expect(records).toHaveLength(3);
    expect(records[0]).toMatchObject({ exerciseName: "Agachamento livre", value: 100, unit: "kg", date: "2026-03-16T00:30:00.000Z" });
    expect(records[1]).toMatchObject({ exerciseName: "Remada curvada", value: 30, unit: "kg", date: "2026-03-01T10:00:00.000Z" });
    expect(records[2]).toMatchObject({ exerciseName: "Supino reto", value: 45, unit: "kg", date: "2026-03-17T10:00:00.000Z" });
    // The same records as GET /exercises/personal-records.
    const own = (await t.get("/api/exercises/personal-records", { token: s.student.token })).body;
    expect(res.body.personalRecords.map((r: any) => [r.exerciseName, r.value, r.date]).sort()).toEqual(
      own.map((r: any) => [r.exerciseName, r.value, r.date]).sort(),
    );
    // PostgreSQL writes this answer's text, sent as it is: compact, byte for byte as every other answer (res.json).
    expect(res.text).toBe(JSON.stringify(res.body));
  });

  it("moves its 8 weeks with the clock, keeping Mondays even when the clock is on a Monday or Sunday", async () => {
    await logTraining(s.trainingA, "2026-03-16T00:00:00Z", 100, [{ exerciseId: s.supino.id, sets: [{ repetitions: 1, completed: true }] }]);
    // Monday 16 March, 00:00: that day is the newest week.
    t.clock.set(new Date("2026-03-16T00:00:00.000Z"));
    let weeks = (await t.get("/api/users/metrics", { token: s.student.token })).body.weeklyProgress;
    expect(weeks.map((w: { date: string }) => w.date)).toEqual(MONDAYS);
    expect(weeks[7]).toEqual({ date: "2026-03-16", trainingsCount: 1, totalTime: 100 });
    // Sunday 15 March, 23:59: the week of 9 March is the newest.
    t.clock.set(new Date("2026-03-15T23:59:59.999Z"));
    weeks = (await t.get("/api/users/metrics", { token: s.student.token })).body.weeklyProgress;
    expect(weeks.map((w: { date: string }) => w.date)).toEqual(["2026-01-19", ...MONDAYS.slice(0, 7)]);
    // Across a new year: Wednesday 6 January 2027 → weeks from Monday 16 November 2026 to Monday 4 January 2027.
    t.clock.set(new Date("2027-01-06T12:00:00.000Z"));
    const relogged = await t.post("/api/users/login", { body: { email: s.student.email, password: s.student.password } });
    weeks = (await t.get("/api/users/metrics", { token: relogged.body.token })).body.weeklyProgress;
    expect(weeks.map((w: { date: string }) => w.date)).toEqual([
      "2026-11-16",
      "2026-11-23",
      "2026-11-30",
      "2026-12-07",
      "2026-12-14",
      "2026-12-21",
      "2026-12-28",
      "2027-01-04",
    ]);
  });

  it("answers zeros and empty lists for a user with no history, and 401 without a token", async () => {
    const res = await t.get("/api/users/metrics", { token: s.student.token });
    expect(res.body).toEqual({
      userId: s.student.id,
      totalTrainings: 0,
      completedTrainings: 0,
      totalExercises: 0,
      totalTime: 0,
      weeklyProgress: MONDAYS.map((date) => ({ date, trainingsCount: 0, totalTime: 0 })),
      weightHistory: [],
      personalRecords: [],
    });
    expect(res.text).toBe(JSON.stringify(res.body));
    expect(await t.get("/api/users/metrics")).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });
});

// Keep the hand-arithmetic helpers honest.
describe("sums past the 32-bit integer range", () => {
  it("gives metrics of a history with more than 2^31 seconds exactly, not a 500", async () => {
    const { trainingA, supino } = s;
    await logTraining(trainingA, "2026-03-16T08:00:00Z", 3600, [{ exerciseId: supino.id, sets: [{ repetitions: 5, weight: 40, completed: true }] }]);
    // Arranged in SQL, as 25,000 requests would take minutes: 25,000 sessions of 24 hours this week.
    await t.db.execute(sql`
      insert into training_executions (user_id, training_id, training_name, start_time, end_time, duration_seconds, completed)
      select ${s.student.id}, ${trainingA.id}, 'Treino A', timestamptz '2026-03-16T00:00:00Z' + g * interval '1 second',
        timestamptz '2026-03-17T00:00:00Z' + g * interval '1 second', 86400, true
      from generate_series(1, 25000) g`);
    const seconds = 25_000 * 86_400 + 3600;
    expect(seconds).toBeGreaterThan(2 ** 31);

    const res = await t.get("/api/users/metrics", { token: s.student.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalTrainings: 25_001, completedTrainings: 25_001, totalTime: seconds });
    expect(res.body.weeklyProgress.at(-1)).toEqual({ date: "2026-03-16", trainingsCount: 25_001, totalTime: seconds });
  });
});

describe("hand arithmetic", () => {
  it("matches the examples of contract §7", () => {
    const sets = [
      { repetitions: 10, weight: 42.5, completed: true },
      { repetitions: 8, weight: 33.75, completed: true },
      { repetitions: 6, weight: 45, completed: false },
      { repetitions: 12, completed: true },
    ];
    expect(figures(sets)).toEqual({
      totalSets: 3,
      totalReps: 30,
      volumeCents: 69_500,
      weightSumCents: 7625,
      weightedSets: 2,
      maxWeightCents: 4250,
      oneRepMaxCents: 5667,
    });
    expect(cents(0.1) * 1000).toBe(10_000);
  });
});
