import { beforeEach, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { createExercise, createTraining, linkTrainerAndStudent, moveAssignment } from "../factories/content.js";
import { logExerciseExecution, logTrainingExecution, trainingExecutionBody, type SetBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, makeUser } from "../factories/users.js";
import { asRead, DENIED, EXERCISE_NOT_FOUND, executionCounts, fieldsOf, ISO, makeScene, TRAINING_NOT_FOUND, UNAUTHORIZED, type Scene } from "./support.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com", FREE_TRAINER_MAX_STUDENTS: "10" });

const NOW = new Date("2026-03-18T12:00:00.000Z");

let s: Scene;

beforeEach(async () => {
  t.clock.set(NOW);
  s = await makeScene(t);
});

/** A valid body for Treino A: supino then remada. */
function bodyA(overrides: Record<string, unknown> = {}) {
  return {
    startTime: "2026-03-17T10:00:00.000Z",
    endTime: "2026-03-17T11:02:05.000Z",
    completed: true,
    notes: "Bom treino",
    exerciseExecutions: [
      {
        exerciseId: s.supino.id,
        sets: [
          { repetitions: 10, weight: 42.5, completed: true },
          { repetitions: 8, weight: 33.75, completed: true },
          { repetitions: 6, weight: 45, completed: false },
        ],
      },
      { exerciseId: s.remada.id, sets: [{ repetitions: 15, completed: true }], notes: "Sem carga" },
    ],
    ...overrides,
  };
}

const logA = (token: string, body: unknown = bodyA()) => t.post(`/api/trainings/${s.trainingA.id}/execution`, { token, body });

describe("POST /api/trainings/{id}/execution", () => {
  it("answers 201 with ids, names, the duration in seconds and the sets as sent", async () => {
    const res = await logA(s.student.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      trainingId: s.trainingA.id,
      trainingName: "Treino A",
      userId: s.student.id,
      userName: "Ana Aluna",
      startTime: "2026-03-17T10:00:00.000Z",
      endTime: "2026-03-17T11:02:05.000Z",
      duration: 3725,
      completed: true,
      notes: "Bom treino",
    });
    expect(res.body.exerciseExecutions).toHaveLength(2);
    expect(res.body.exerciseExecutions[0]).toMatchObject({
      id: expect.any(Number),
      exerciseId: s.supino.id,
      exerciseName: "Supino reto",
      sets: [
        { repetitions: 10, weight: 42.5, completed: true },
        { repetitions: 8, weight: 33.75, completed: true },
        { repetitions: 6, weight: 45, completed: false },
      ],
    });
    expect(res.body.exerciseExecutions[1]).toMatchObject({
      id: expect.any(Number),
      exerciseId: s.remada.id,
      exerciseName: "Remada curvada",
      sets: [{ repetitions: 15, weight: null, completed: true }],
    });
    expect(new Set(res.body.exerciseExecutions.map((item: { id: number }) => item.id)).size).toBe(2);

    // The same execution reads back identically.
    const read = await t.get(`/api/trainings/executions/${res.body.id}`, { token: s.student.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(asRead(res.body));

    // The first log of each exercise sets every record its completed sets qualify for (contract §12.1).
    const kg = (exerciseId: number, kind: string, value: number) => ({ exerciseId, kind, value, unit: "kg", previousValue: null });
    expect(res.body.newRecords).toEqual([
      kg(s.supino.id, "MAX_WEIGHT", 42.5),
      kg(s.supino.id, "ESTIMATED_1RM", 56.67), // 42.5 × 40/30 = 56.666… (33.75 × 38/30 = 42.75)
      kg(s.supino.id, "BEST_SET_VOLUME", 425), // 10 × 42.5 (8 × 33.75 = 270)
      kg(s.supino.id, "BEST_SESSION_VOLUME", 695), // 425 + 270; the 6 × 45 set was not completed
      { exerciseId: s.supino.id, kind: "MAX_REPS", value: 10, unit: "reps", previousValue: null },
      kg(s.supino.id, "REP_MAX_3", 42.5),
      kg(s.supino.id, "REP_MAX_5", 42.5),
      kg(s.supino.id, "REP_MAX_10", 42.5),
      // Bodyweight work: repetitions only.
      { exerciseId: s.remada.id, kind: "MAX_REPS", value: 15, unit: "reps", previousValue: null },
    ]);
  });

  it("takes timestamps with offsets and answers them in UTC; an execution may be logged after the fact", async () => {
    const res = await logA(
      s.student.token,
      bodyA({ startTime: "2025-01-05T07:00:00-03:00", endTime: "2025-01-05T08:30:00-03:00", completed: false, notes: undefined }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      startTime: "2025-01-05T10:00:00.000Z",
      endTime: "2025-01-05T11:30:00.000Z",
      duration: 5400,
      completed: false,
      notes: null,
    });
  });

  it("accepts an execution that ends when it starts (duration 0)", async () => {
    const res = await logA(s.student.token, bodyA({ endTime: "2026-03-17T10:00:00.000Z" }));
    expect(res.status).toBe(201);
    expect(res.body.duration).toBe(0);
  });

  it("turns each exercise into an exercise execution dated at the training's endTime", async () => {
    const logged = (await logA(s.student.token)).body;
    const res = await t.get(`/api/exercises/executions/user/${s.student.id}?sort=id,asc`, { token: s.student.token });
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(2);
    const [supino, remada] = res.body.content;
    expect(supino).toMatchObject({
      id: logged.exerciseExecutions[0].id,
      exerciseId: s.supino.id,
      exerciseName: "Supino reto",
      userId: s.student.id,
      trainingId: s.trainingA.id,
      trainingName: "Treino A",
      executedAt: "2026-03-17T11:02:05.000Z",
      sets: logged.exerciseExecutions[0].sets,
      personalRecord: true,
    });
    expect(remada).toMatchObject({
      id: logged.exerciseExecutions[1].id,
      exerciseId: s.remada.id,
      exerciseName: "Remada curvada",
      trainingId: s.trainingA.id,
      trainingName: "Treino A",
      executedAt: "2026-03-17T11:02:05.000Z",
      notes: "Sem carga",
      sets: [{ repetitions: 15, weight: null, completed: true }],
      personalRecord: false,
    });
    expect(await executionCounts(t)).toEqual({ trainings: 1, exercises: 2, sets: 4 });
  });

  describe("who may log", () => {
    it("lets the training's creator log it", async () => {
      const res = await logA(s.trainer.token);
      expect(res.status).toBe(201);
      expect(res.body.userId).toBe(s.trainer.id);
    });

    it("lets a student log a training of a PENDING assignment, then of the same assignment once ACTIVE", async () => {
      expect(s.assignment.status).toBe("PENDING");
      expect((await logA(s.student.token)).status).toBe(201);
      await moveAssignment(t, s.student.token, s.assignment.id, "accept");
      expect((await logA(s.student.token)).status).toBe(201);
      expect(
        (
          await t.post(`/api/trainings/${s.trainingB.id}/execution`, {
            token: s.student.token,
            body: bodyA({ exerciseExecutions: [{ exerciseId: s.agachamento.id, sets: [{ repetitions: 5, weight: 100, completed: true }] }] }),
          })
        ).status,
      ).toBe(201);
      expect((await executionCounts(t)).trainings).toBe(3);
    });

    it("refuses a stranger, a linked student without an assignment, and a student after the assignment is canceled or completed", async () => {
      const stranger = await makeStudent(t);
      const otherTrainer = await makeTrainer(t);
      expect(await logA(stranger.token)).toMatchObject({ status: 403, body: DENIED });
      expect(await logA(otherTrainer.token)).toMatchObject({ status: 403, body: DENIED });

      // Linked to the same trainer, but the plan is not assigned to this one.
      const unassigned = await makeStudent(t);
      await linkTrainerAndStudent(t, s.trainer, unassigned);
      expect(await logA(unassigned.token)).toMatchObject({ status: 403, body: DENIED });

      await moveAssignment(t, s.student.token, s.assignment.id, "cancel");
      expect(await logA(s.student.token)).toMatchObject({ status: 403, body: DENIED });
      expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 0, sets: 0 });
    });

    it("refuses a student whose assignment was completed", async () => {
      await moveAssignment(t, s.student.token, s.assignment.id, "accept");
      await moveAssignment(t, s.trainer.token, s.assignment.id, "complete");
      expect(await logA(s.student.token)).toMatchObject({ status: 403, body: DENIED });
    });

    it("lets a student log their own private training, and nobody else", async () => {
      const own = await createExercise(t, s.student.token, { name: "Prancha" });
      const training = await createTraining(t, s.student.token, [own.id], { name: "Core" });
      const body = bodyA({ exerciseExecutions: [{ exerciseId: own.id, sets: [{ repetitions: 1, completed: true }] }] });
      expect((await t.post(`/api/trainings/${training.id}/execution`, { token: s.student.token, body })).status).toBe(201);
      expect(await t.post(`/api/trainings/${training.id}/execution`, { token: s.trainer.token, body })).toMatchObject({ status: 403, body: DENIED });
    });

    it("answers 401 without a token and 404 for an unknown training", async () => {
      expect(await t.post(`/api/trainings/${s.trainingA.id}/execution`, { body: bodyA() })).toMatchObject({ status: 401, body: UNAUTHORIZED });
      expect(await t.post("/api/trainings/999999/execution", { token: s.student.token, body: bodyA() })).toMatchObject({
        status: 404,
        body: TRAINING_NOT_FOUND,
      });
      expect(await t.post("/api/trainings/abc/execution", { invalidRequest: true, token: s.student.token, body: bodyA() })).toMatchObject({
        status: 400,
        body: { message: "Parâmetro inválido: id", success: false },
      });
      expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 0, sets: 0 });
    });
  });

  describe("validation (400, nothing written)", () => {
    async function expectInvalid(body: unknown, fields: string[]) {
      const res = await t.withInvalidRequests(() => logA(s.student.token, body));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: "Validation failed", success: false });
      expect(fieldsOf(res.body)).toEqual([...fields].sort());
      for (const error of res.body.errors) expect(error.message).toEqual(expect.any(String));
      expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 0, sets: 0 });
      return res;
    }

    it("refuses an exercise that is not in the training, naming its place", async () => {
      const res = await expectInvalid(
        bodyA({ exerciseExecutions: [{ exerciseId: s.agachamento.id, sets: [{ repetitions: 5, completed: true }] }, bodyA().exerciseExecutions[0]] }),
        ["exerciseExecutions[0].exerciseId"],
      );
      expect(res.body.errors[0].field).toBe("exerciseExecutions[0].exerciseId");
      // An id of no exercise at all is refused the same way.
      await expectInvalid(bodyA({ exerciseExecutions: [bodyA().exerciseExecutions[0], { exerciseId: 999999, sets: [{ repetitions: 5, completed: true }] }] }), [
        "exerciseExecutions[1].exerciseId",
      ]);
    });

    it("refuses an endTime before the startTime", async () => {
      await expectInvalid(bodyA({ startTime: "2026-03-17T10:00:00.000Z", endTime: "2026-03-17T09:59:59.000Z" }), ["endTime"]);
    });

    it("refuses a duration over 86400 s, notes over 2000 characters and ids that are not positive integers", async () => {
      await expectInvalid(bodyA({ startTime: "2026-03-16T10:00:00.000Z", endTime: "2026-03-17T10:00:01.000Z" }), ["endTime"]);
      await expectInvalid(
        bodyA({
          notes: "x".repeat(2001),
          exerciseExecutions: [
            { exerciseId: "1", sets: [{ repetitions: 1, completed: true }] },
            { exerciseId: 1.5, sets: [{ repetitions: 1, completed: true }], notes: "y".repeat(2001) },
            { exerciseId: 0, sets: [{ repetitions: 1, completed: true }] },
          ],
        }),
        ["notes", "exerciseExecutions[0].exerciseId", "exerciseExecutions[1].exerciseId", "exerciseExecutions[1].notes", "exerciseExecutions[2].exerciseId"],
      );
      const longest = await logA(
        s.student.token,
        bodyA({ startTime: "2026-03-16T10:00:00.000Z", endTime: "2026-03-17T10:00:00.000Z", notes: "x".repeat(2000) }),
      );
      expect(longest.status).toBe(201);
      expect(longest.body.duration).toBe(86_400);
    });

    it("refuses times outside 1900 … 2999 (year 0000 once failed in the database with a 500, year 0001 read back as 2001)", async () => {
      const SPAN = "Data fora do intervalo aceito (1900-01-01 a 2999-12-31)";
      await expectInvalid(bodyA({ startTime: "0000-01-01T00:00:00Z", endTime: "0000-01-01T01:00:00Z" }), ["endTime", "startTime"]);
      const res = await expectInvalid(bodyA({ startTime: "0001-01-01T00:00:00Z", endTime: "0001-01-01T01:00:00Z" }), ["endTime", "startTime"]);
      expect(res.body.errors).toEqual([
        { field: "startTime", message: SPAN },
        { field: "endTime", message: SPAN },
      ]);
      await expectInvalid(bodyA({ startTime: "1899-12-31T23:59:59.999Z", endTime: "1900-01-01T00:00:00.000Z" }), ["startTime"]);
      // Year 10000 once reached the database through an offset, and answered 500.
      await expectInvalid(bodyA({ startTime: "9999-12-31T23:00:00-05:00", endTime: "9999-12-31T23:30:00-05:00" }), ["endTime", "startTime"]);
      await expectInvalid(bodyA({ startTime: "2999-12-31T23:00:00.000Z", endTime: "3000-01-01T00:00:00.000Z" }), ["endTime"]);

      // The edges themselves are times like any other, and read back as sent.
      for (const [startTime, endTime] of [
        ["1900-01-01T00:00:00.000Z", "1900-01-01T01:00:00.000Z"],
        ["2999-12-31T22:59:59.000Z", "2999-12-31T23:59:59.999Z"],
      ]) {
        const logged = await logA(s.student.token, bodyA({ startTime, endTime }));
        expect(logged.status).toBe(201);
        expect(logged.body).toMatchObject({ startTime, endTime });
        expect((await t.get(`/api/trainings/executions/${logged.body.id}`, { token: s.student.token })).body).toEqual(asRead(logged.body));
      }
    });

    it("refuses missing or malformed times and a missing completed flag", async () => {
      await expectInvalid(bodyA({ startTime: undefined, endTime: "ontem", completed: "sim" }), ["completed", "endTime", "startTime"]);
    });

    it("refuses an exercise without sets, and an execution without exercises", async () => {
      await expectInvalid(bodyA({ exerciseExecutions: [{ exerciseId: s.supino.id, sets: [] }] }), ["exerciseExecutions[0].sets"]);
      await expectInvalid(bodyA({ exerciseExecutions: [{ exerciseId: s.supino.id }] }), ["exerciseExecutions[0].sets"]);
      await expectInvalid(bodyA({ exerciseExecutions: [] }), ["exerciseExecutions"]);
      await expectInvalid(bodyA({ exerciseExecutions: undefined }), ["exerciseExecutions"]);
    });

    it("refuses out-of-range repetitions and weights, and a non-boolean completed, by JSON path, all together", async () => {
      const sets: unknown[] = [
        { repetitions: -1, weight: 10, completed: true },
        { repetitions: 10_001, completed: true },
        { repetitions: 5, weight: 2001, completed: true },
        { repetitions: 5, weight: 42.125, completed: true },
        { repetitions: 5, weight: 40, completed: "true" },
        { repetitions: 2.5, weight: -0.5, completed: true },
        { weight: 10, completed: true },
        { repetitions: 5, weight: 10 },
      ];
      await expectInvalid(
        bodyA({
          exerciseExecutions: [
            { exerciseId: s.supino.id, sets: [{ repetitions: 1, completed: true }] },
            { exerciseId: s.remada.id, sets },
          ],
        }),
        [
          "exerciseExecutions[1].sets[0].repetitions",
          "exerciseExecutions[1].sets[1].repetitions",
          "exerciseExecutions[1].sets[2].weight",
          "exerciseExecutions[1].sets[3].weight",
          "exerciseExecutions[1].sets[4].completed",
          "exerciseExecutions[1].sets[5].repetitions",
          "exerciseExecutions[1].sets[5].weight",
          "exerciseExecutions[1].sets[6].repetitions",
          "exerciseExecutions[1].sets[7].completed",
        ],
      );
    });

    it("takes the limits themselves: 0 and 10000 repetitions, 0 and 2000 kg, two decimals", async () => {
      const sets: SetBody[] = [
        { repetitions: 0, weight: 0, completed: true },
        { repetitions: 10_000, weight: 2000, completed: true },
        { repetitions: 3, weight: 0.01, completed: false },
        { repetitions: 3, weight: 99.99, completed: true },
      ];
      const res = await logA(s.student.token, bodyA({ exerciseExecutions: [{ exerciseId: s.supino.id, sets }] }));
      expect(res.status).toBe(201);
      expect(res.body.exerciseExecutions[0].sets).toEqual(sets);
    });

    it("answers 400 JSON inválido for a malformed body", async () => {
      const res = await t.post(`/api/trainings/${s.trainingA.id}/execution`, {
        invalidRequest: true,
        token: s.student.token,
        raw: "{",
        headers: { "content-type": "application/json" },
      });
      expect(res).toMatchObject({ status: 400, body: { message: "JSON inválido", success: false } });
      expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 0, sets: 0 });
    });
  });
});

describe("POST /api/exercises/{id}/execution", () => {
  const logOne = (token: string, exerciseId: number, body: unknown) => t.post(`/api/exercises/${exerciseId}/execution`, { token, body });

  it("answers 201 with the execution dated at the clock, its sets, duration and personalRecord", async () => {
    t.clock.set(new Date("2026-03-18T15:20:30.123Z"));
    const sets = [
      { repetitions: 12, weight: 42.5, completed: true },
      { repetitions: 10, completed: false },
    ];
    const res = await logOne(s.student.token, s.supino.id, { trainingId: s.trainingA.id, sets, notes: "Leve", duration: 600 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      exerciseId: s.supino.id,
      userId: s.student.id,
      trainingId: s.trainingA.id,
      sets: [
        { repetitions: 12, weight: 42.5, completed: true },
        { repetitions: 10, weight: null, completed: false },
      ],
      notes: "Leve",
      executedAt: "2026-03-18T15:20:30.123Z",
      duration: 600,
      personalRecord: true,
    });
    expect(res.body.executedAt).toMatch(ISO);
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 1, sets: 2 });
  });

  it("answers 400 when no set is sent, and validates sets, trainingId and duration by JSON path", async () => {
    for (const sets of [[], undefined]) {
      const res = await t.withInvalidRequests(() => logOne(s.student.token, s.supino.id, { trainingId: s.trainingA.id, sets }));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("Validation failed");
      expect(fieldsOf(res.body)).toEqual(["sets"]);
    }
    const res = await t.withInvalidRequests(() =>
      logOne(s.student.token, s.supino.id, { sets: [{ repetitions: 10_001, weight: 2000.01, completed: 1 }], duration: 86_401 }),
    );
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual(["duration", "sets[0].completed", "sets[0].repetitions", "sets[0].weight", "trainingId"]);
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 0, sets: 0 });
  });

  it("answers 404 for an unknown exercise or training, 403 for a training the caller may not execute, 401 without a token", async () => {
    const body = { trainingId: s.trainingA.id, sets: [{ repetitions: 5, weight: 20, completed: true }] };
    expect(await logOne(s.student.token, 999999, body)).toMatchObject({ status: 404, body: EXERCISE_NOT_FOUND });
    expect(await logOne(s.student.token, s.supino.id, { ...body, trainingId: 999999 })).toMatchObject({ status: 404, body: TRAINING_NOT_FOUND });
    const stranger = await makeStudent(t);
    expect(await logOne(stranger.token, s.supino.id, body)).toMatchObject({ status: 403, body: DENIED });
    expect(await t.post(`/api/exercises/${s.supino.id}/execution`, { body })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 0, sets: 0 });
  });
});

describe("personalRecord", () => {
  /** Logs supino on its own with these sets; its personalRecord flag. */
  async function flag(sets: SetBody[], token = s.student.token) {
    t.clock.advance(60_000);
    return (await logExerciseExecution(t, token, s.supino.id, s.trainingA.id, sets)).personalRecord as boolean;
  }

  it("is true only when a completed set beats every earlier weight of that user and exercise", async () => {
    expect(await flag([{ repetitions: 10, completed: true }])).toBe(false); // no weight at all
    expect(await flag([{ repetitions: 10, weight: 50, completed: false }])).toBe(false); // not completed
    expect(await flag([{ repetitions: 10, weight: 40, completed: true }])).toBe(true); // the first weighted one
    expect(await flag([{ repetitions: 8, weight: 40, completed: true }])).toBe(false); // equal is not a record
    expect(await flag([{ repetitions: 8, weight: 39.99, completed: true }])).toBe(false);
    expect(
      await flag([
        { repetitions: 3, weight: 60, completed: false },
        { repetitions: 8, weight: 40, completed: true },
      ]),
    ).toBe(false); // the heavier set was not completed
    expect(await flag([{ repetitions: 6, weight: 40.01, completed: true }])).toBe(true); // the uncompleted 60 never counted
    expect(
      await flag([
        { repetitions: 6, completed: true },
        { repetitions: 2, weight: 42.5, completed: true },
      ]),
    ).toBe(true);

    // Inside a training execution too, and in both directions.
    const inTraining = await logTrainingExecution(
      t,
      s.student.token,
      s.trainingA.id,
      trainingExecutionBody("2026-03-18T09:00:00Z", 1800, [
        { exerciseId: s.supino.id, sets: [{ repetitions: 5, weight: 42.5, completed: true }] },
        { exerciseId: s.remada.id, sets: [{ repetitions: 5, weight: 30, completed: true }] },
      ]),
    );
    expect(inTraining.exerciseExecutions.map((item: { personalRecord: boolean }) => item.personalRecord)).toEqual([false, true]);
    expect(await flag([{ repetitions: 1, weight: 45, completed: true }])).toBe(true);

    // Records are per user: another user's first weighted log is a record even if lighter.
    const other = await makeUser(t, { userType: "PERSONAL" });
    const ownExercise = await createExercise(t, other.token);
    const ownTraining = await createTraining(t, other.token, [ownExercise.id]);
    expect((await logExerciseExecution(t, other.token, ownExercise.id, ownTraining.id, [{ repetitions: 1, weight: 1, completed: true }])).personalRecord).toBe(
      true,
    );
    // And per exercise: remada's 30 does not stop supino's.
    const listed = await t.get(`/api/exercises/${s.supino.id}/executions?sort=id,asc&size=50`, { token: s.student.token });
    expect(listed.body.content.map((item: { personalRecord: boolean }) => item.personalRecord)).toEqual([
      false,
      false,
      true,
      false,
      false,
      false,
      true,
      true,
      false,
      true,
    ]);
  });

  it("two exercises of one training execution with the same new best: only the first is a record", async () => {
    const res = await logTrainingExecution(
      t,
      s.student.token,
      s.trainingA.id,
      trainingExecutionBody("2026-03-18T09:00:00Z", 1800, [
        { exerciseId: s.supino.id, sets: [{ repetitions: 5, weight: 50, completed: true }] },
        { exerciseId: s.supino.id, sets: [{ repetitions: 5, weight: 50, completed: true }] },
        { exerciseId: s.supino.id, sets: [{ repetitions: 5, weight: 50.5, completed: true }] },
      ]),
    );
    expect(res.exerciseExecutions.map((item: { personalRecord: boolean }) => item.personalRecord)).toEqual([true, false, true]);
  });

  it("10 concurrent logs of the same exercise with the same new best weight: exactly one is a record", async () => {
    await logExerciseExecution(t, s.student.token, s.supino.id, s.trainingA.id, [{ repetitions: 5, weight: 60, completed: true }]);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.post(`/api/exercises/${s.supino.id}/execution`, {
          token: s.student.token,
          body: { trainingId: s.trainingA.id, sets: [{ repetitions: 5, weight: 62.5, completed: true }] },
        }),
      ),
    );
    expect(results.map((res) => res.status)).toEqual(Array(10).fill(201));
    expect(results.filter((res) => res.body.personalRecord === true)).toHaveLength(1);

    // Mixed with training executions carrying the same weight: still one record among all of them.
    const mixed = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        t.post(`/api/exercises/${s.supino.id}/execution`, {
          token: s.student.token,
          body: { trainingId: s.trainingA.id, sets: [{ repetitions: 1, weight: 65, completed: true }] },
        }),
      ),
      ...Array.from({ length: 5 }, () =>
        t.post(`/api/trainings/${s.trainingA.id}/execution`, {
          token: s.student.token,
          body: trainingExecutionBody("2026-03-18T08:00:00Z", 600, [{ exerciseId: s.supino.id, sets: [{ repetitions: 1, weight: 65, completed: true }] }]),
        }),
      ),
    ]);
    expect(mixed.map((res) => res.status)).toEqual(Array(10).fill(201));
    const flags = mixed.map((res) => (res.body.exerciseExecutions ? res.body.exerciseExecutions[0].personalRecord : res.body.personalRecord));
    expect(flags.filter(Boolean)).toHaveLength(1);
    expect((await executionCounts(t)).exercises).toBe(21);
  });
});
