import { beforeEach, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { linkTrainerAndStudent } from "../factories/content.js";
import { logExerciseExecution, logTrainingExecution, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, makeUser, type MadeUser, relogin } from "../factories/users.js";
import {
  asRead,
  DENIED,
  EXECUTION_NOT_FOUND,
  EXERCISE_NOT_FOUND,
  invalidParameter,
  ISO,
  makeScene,
  PAGE_KEYS,
  TRAINING_NOT_FOUND,
  UNAUTHORIZED,
  USER_NOT_FOUND,
  type Scene,
} from "./support.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com", FREE_TRAINER_MAX_STUDENTS: "10" });

const NOW = new Date("2026-03-18T12:00:00.000Z");
/** The short form of a training execution in a training's listing; the user listing adds trainingName. */
const SHORT_KEYS = ["clientId", "completed", "duration", "endTime", "id", "notes", "startTime", "trainingId", "userId"];
const EXERCISE_EXECUTION_KEYS = ["clientId", "duration", "executedAt", "exerciseId", "id", "notes", "personalRecord", "sets", "trainingId", "userId"];

let s: Scene;
let boss: MadeUser;
let stranger: MadeUser;
let otherTrainer: MadeUser;

beforeEach(async () => {
  t.clock.set(NOW);
  s = await makeScene(t, { accept: true });
  boss = await makeUser(t, { email: "boss@example.com", userType: "PERSONAL", name: "Chefe" });
  stranger = await makeStudent(t, { name: "Carla Estranha" });
  otherTrainer = await makeTrainer(t, { name: "Diego Personal" });
});

const idsOf = (body: { content: { id: number }[] }) => body.content.map((item) => item.id);

/** Logs Treino A for the student starting at `start` (supino 10 × 40 kg, remada 12 × 30 kg). */
function logA(start: string, seconds = 1800, completed = true, user: MadeUser = s.student) {
  return logTrainingExecution(
    t,
    user.token,
    s.trainingA.id,
    trainingExecutionBody(
      start,
      seconds,
      [
        { exerciseId: s.supino.id, sets: [{ repetitions: 10, weight: 40, completed: true }] },
        { exerciseId: s.remada.id, sets: [{ repetitions: 12, weight: 30, completed: true }] },
      ],
      { completed },
    ),
  );
}

describe("GET /api/trainings/executions/{id}", () => {
  it("gives the execution with names to its owner, an administrator and the owner's ACTIVE-linked trainer", async () => {
    const logged = await logA("2026-03-10T10:00:00Z", 2400);
    for (const reader of [s.student, boss, s.trainer]) {
      const res = await t.get(`/api/trainings/executions/${logged.id}`, { token: reader.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(asRead(logged));
    }
    const res = await t.get(`/api/trainings/executions/${logged.id}`, { token: s.trainer.token });
    expect(res.body).toMatchObject({ trainingName: "Treino A", userName: "Ana Aluna", duration: 2400, startTime: "2026-03-10T10:00:00.000Z" });
    expect(res.body.exerciseExecutions.map((item: { exerciseName: string }) => item.exerciseName)).toEqual(["Supino reto", "Remada curvada"]);
  });

  it("refuses a stranger and an unlinked trainer (403), and the trainer once the link is removed", async () => {
    const logged = await logA("2026-03-10T10:00:00Z");
    expect(await t.get(`/api/trainings/executions/${logged.id}`, { token: stranger.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get(`/api/trainings/executions/${logged.id}`, { token: otherTrainer.token })).toMatchObject({ status: 403, body: DENIED });
    expect((await t.delete(`/api/personal/students/${s.linkId}`, { token: s.trainer.token })).status).toBe(204);
    expect(await t.get(`/api/trainings/executions/${logged.id}`, { token: s.trainer.token })).toMatchObject({ status: 403, body: DENIED });
    // A student never reads its trainer's executions through the link.
    const own = await logA("2026-03-10T10:00:00Z", 60, true, s.trainer);
    expect(await t.get(`/api/trainings/executions/${own.id}`, { token: s.student.token })).toMatchObject({ status: 403, body: DENIED });
  });

  it("answers 404 Execução não encontrada, 400 for a non-numeric id, 401 without a token", async () => {
    expect(await t.get("/api/trainings/executions/424242", { token: s.student.token })).toMatchObject({ status: 404, body: EXECUTION_NOT_FOUND });
    expect(await t.get("/api/trainings/executions/x1", { invalidRequest: true, token: s.student.token })).toMatchObject({
      status: 400,
      body: invalidParameter("id"),
    });
    expect(await t.get("/api/trainings/executions/1", {})).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });
});

describe("GET /api/trainings/{id}/executions", () => {
  it("pages over 25 executions, newest first by default, startTime,asc when asked", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) ids.push((await logA(new Date(Date.UTC(2026, 1, 1, 6) + i * 3_600_000).toISOString())).id);

    const first = await t.get(`/api/trainings/${s.trainingA.id}/executions?size=10`, { token: s.student.token });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(PAGE_KEYS);
    expect(first.body).toMatchObject({ totalElements: 25, totalPages: 3, number: 0, size: 10, numberOfElements: 10, first: true, last: false });
    expect(idsOf(first.body)).toEqual([...ids].reverse().slice(0, 10));
    expect(Object.keys(first.body.content[0]).sort()).toEqual(SHORT_KEYS);
    expect(first.body.content[0]).toEqual({
      id: ids[24],
      trainingId: s.trainingA.id,
      userId: s.student.id,
      startTime: "2026-02-02T06:00:00.000Z",
      endTime: "2026-02-02T06:30:00.000Z",
      duration: 1800,
      completed: true,
      notes: null,
      clientId: null,
    });

    const pages = [];
    for (let page = 0; page < 3; page++) {
      const res = await t.get(`/api/trainings/${s.trainingA.id}/executions?sort=startTime,asc&size=10&page=${page}`, { token: s.student.token });
      expect(res.body).toMatchObject({ number: page, numberOfElements: page < 2 ? 10 : 5, last: page === 2 });
      pages.push(...idsOf(res.body));
    }
    expect(pages).toEqual(ids);
    const beyond = await t.get(`/api/trainings/${s.trainingA.id}/executions?page=3&size=10`, { token: s.student.token });
    expect(beyond.body).toMatchObject({ content: [], empty: true, totalElements: 25 });

    const defaults = await t.get(`/api/trainings/${s.trainingA.id}/executions`, { token: s.student.token });
    expect(defaults.body).toMatchObject({ size: 20, numberOfElements: 20, totalPages: 2 });
    const clamped = await t.get(`/api/trainings/${s.trainingA.id}/executions?size=1000`, { token: s.student.token });
    expect(clamped.body).toMatchObject({ size: 100, numberOfElements: 25 });
  });

  it("filters by inclusive UTC days (dated by startTime) and by completed", async () => {
    const before = await logA("2026-03-01T23:59:59.999Z", 3600); // ends on the 2nd, still dated the 1st
    const first = await logA("2026-03-02T00:00:00.000Z", 60, false);
    const last = await logA("2026-03-03T23:59:59.999Z", 60);
    const after = await logA("2026-03-04T00:00:00.000Z", 60, false);
    const url = `/api/trainings/${s.trainingA.id}/executions`;
    const get = async (query: string) => idsOf((await t.get(`${url}?sort=startTime,asc&${query}`, { token: s.student.token })).body);

    expect(await get("startDate=2026-03-02&endDate=2026-03-03")).toEqual([first.id, last.id]);
    expect(await get("startDate=2026-03-02")).toEqual([first.id, last.id, after.id]);
    expect(await get("endDate=2026-03-01")).toEqual([before.id]);
    expect(await get("startDate=2026-03-03&endDate=2026-03-03")).toEqual([last.id]);
    expect(await get("completed=true")).toEqual([before.id, last.id]);
    expect(await get("completed=false")).toEqual([first.id, after.id]);
    expect(await get("completed=false&startDate=2026-03-03")).toEqual([after.id]);
    expect(await get("sort=duration,desc&sort=id,asc")).toHaveLength(4);
  });

  it("lists only that training's executions of the caller, or of userId for an administrator or the linked trainer", async () => {
    const mine = await logA("2026-03-02T10:00:00Z");
    await logTrainingExecution(
      t,
      s.student.token,
      s.trainingB.id,
      trainingExecutionBody("2026-03-02T11:00:00Z", 60, [{ exerciseId: s.agachamento.id, sets: [{ repetitions: 5, completed: true }] }]),
    );
    const trainers = await logA("2026-03-02T12:00:00Z", 60, true, s.trainer);
    const url = `/api/trainings/${s.trainingA.id}/executions`;

    expect(idsOf((await t.get(url, { token: s.student.token })).body)).toEqual([mine.id]);
    expect(idsOf((await t.get(url, { token: s.trainer.token })).body)).toEqual([trainers.id]);
    expect(idsOf((await t.get(`${url}?userId=${s.student.id}`, { token: s.trainer.token })).body)).toEqual([mine.id]);
    expect(idsOf((await t.get(`${url}?userId=${s.student.id}`, { token: boss.token })).body)).toEqual([mine.id]);
    expect(idsOf((await t.get(`${url}?userId=${s.student.id}`, { token: s.student.token })).body)).toEqual([mine.id]);

    expect(await t.get(`${url}?userId=${s.student.id}`, { token: otherTrainer.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get(`${url}?userId=${s.trainer.id}`, { token: s.student.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get(`${url}?userId=${s.student.id}`, { token: stranger.token })).toMatchObject({ status: 403, body: DENIED });
  });

  it("answers 404 for an unknown training and 400 for bad parameters", async () => {
    const url = `/api/trainings/${s.trainingA.id}/executions`;
    expect(await t.get("/api/trainings/999999/executions", { token: s.student.token })).toMatchObject({ status: 404, body: TRAINING_NOT_FOUND });
    for (const [query, name] of [
      ["completed=yes", "completed"],
      ["startDate=2026-13-01", "startDate"],
      ["endDate=03/03/2026", "endDate"],
      ["userId=abc", "userId"],
      ["sort=userName,asc", "sort"],
      ["sort=startTime,up", "sort"],
      ["page=-1", "page"],
      ["size=0", "size"],
      ["page=x", "page"],
    ]) {
      expect(await t.get(`${url}?${query}`, { invalidRequest: true, token: s.student.token }), query).toMatchObject({
        status: 400,
        body: invalidParameter(name),
      });
    }
    expect(await t.get(url)).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });
});

describe("GET /api/trainings/executions/user/{userId}", () => {
  it("lists the user's executions of every training with trainingName, filtered by trainingId, completed and days", async () => {
    const a1 = await logA("2026-03-02T10:00:00Z");
    const b1 = await logTrainingExecution(
      t,
      s.student.token,
      s.trainingB.id,
      trainingExecutionBody("2026-03-03T10:00:00Z", 900, [{ exerciseId: s.agachamento.id, sets: [{ repetitions: 5, weight: 100, completed: true }] }], {
        completed: false,
        notes: "Cansada",
      }),
    );
    const a2 = await logA("2026-03-04T10:00:00Z");
    await logA("2026-03-04T10:00:00Z", 60, true, s.trainer);
    const url = `/api/trainings/executions/user/${s.student.id}`;

    const res = await t.get(url, { token: s.student.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(PAGE_KEYS);
    expect(idsOf(res.body)).toEqual([a2.id, b1.id, a1.id]);
    expect(res.body.content[1]).toEqual({
      id: b1.id,
      trainingId: s.trainingB.id,
      trainingName: "Treino B",
      userId: s.student.id,
      startTime: "2026-03-03T10:00:00.000Z",
      endTime: "2026-03-03T10:15:00.000Z",
      duration: 900,
      completed: false,
      notes: "Cansada",
      clientId: null,
    });
    const get = async (query: string) => idsOf((await t.get(`${url}?sort=startTime,asc&${query}`, { token: s.student.token })).body);
    expect(await get(`trainingId=${s.trainingA.id}`)).toEqual([a1.id, a2.id]);
    expect(await get("completed=false")).toEqual([b1.id]);
    expect(await get("startDate=2026-03-03&endDate=2026-03-04")).toEqual([b1.id, a2.id]);
    expect(await get(`trainingId=${s.trainingA.id}&endDate=2026-03-03`)).toEqual([a1.id]);
    expect(await t.get(`${url}?completed=nope`, { invalidRequest: true, token: s.student.token })).toMatchObject({
      status: 400,
      body: invalidParameter("completed"),
    });
  });

  it("lets the ACTIVE-linked trainer and administrators read; 403 otherwise; access stops when the link is removed", async () => {
    const logged = await logA("2026-03-02T10:00:00Z");
    const url = `/api/trainings/executions/user/${s.student.id}`;
    expect(idsOf((await t.get(url, { token: s.trainer.token })).body)).toEqual([logged.id]);
    expect(idsOf((await t.get(url, { token: boss.token })).body)).toEqual([logged.id]);
    expect(await t.get(url, { token: otherTrainer.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get(url, { token: stranger.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get(`/api/trainings/executions/user/${s.trainer.id}`, { token: s.student.token })).toMatchObject({ status: 403, body: DENIED });

    // Removed by the student this time: the trainer loses access at once.
    expect((await t.delete(`/api/students/personals/${s.linkId}`, { token: s.student.token })).status).toBe(204);
    expect(await t.get(url, { token: s.trainer.token })).toMatchObject({ status: 403, body: DENIED });
    // Linking again restores it.
    await linkTrainerAndStudent(t, s.trainer, s.student);
    expect(idsOf((await t.get(url, { token: s.trainer.token })).body)).toEqual([logged.id]);
  });

  it("answers 404 Usuário não encontrado for an unknown user (also to administrators)", async () => {
    expect(await t.get("/api/trainings/executions/user/999999", { token: s.trainer.token })).toMatchObject({ status: 404, body: USER_NOT_FOUND });
    expect(await t.get("/api/trainings/executions/user/999999", { token: boss.token })).toMatchObject({ status: 404, body: USER_NOT_FOUND });
    // The path parameter is named as in tests/users/profile-photo.test.ts (`/users/{userId}/...`).
    expect(await t.get("/api/trainings/executions/user/abc", { invalidRequest: true, token: boss.token })).toMatchObject({
      status: 400,
      body: invalidParameter("id"),
    });
    expect(await t.get("/api/exercises/executions/user/abc", { invalidRequest: true, token: boss.token })).toMatchObject({
      status: 400,
      body: invalidParameter("id"),
    });
  });
});

describe("exercise executions", () => {
  /** supino on its own at `at` (the clock), and Treino A ending at `trainingEnd`. */
  async function history() {
    t.clock.set(new Date("2026-03-05T08:00:00.000Z"));
    const alone1 = await logExerciseExecution(t, s.student.token, s.supino.id, s.trainingB.id, [{ repetitions: 8, weight: 50, completed: true }], {
      duration: 300,
      notes: "Sozinho",
    });
    const inA = await logA("2026-03-06T23:30:00Z", 3600); // its exercises are dated at endTime: 2026-03-07 00:30
    t.clock.set(new Date("2026-03-08T09:00:00.000Z"));
    const alone2 = await logExerciseExecution(t, s.student.token, s.remada.id, s.trainingA.id, [{ repetitions: 8, completed: false }]);
    t.clock.set(NOW);
    await relogin(t, s.student, s.trainer, boss, stranger, otherTrainer);
    return { alone1, inA, alone2, supinoInA: inA.exerciseExecutions[0].id, remadaInA: inA.exerciseExecutions[1].id };
  }

  it("GET /api/exercises/{id}/executions: the caller's executions of that exercise, both kinds, with filters and paging", async () => {
    const h = await history();
    const url = `/api/exercises/${s.supino.id}/executions`;
    const res = await t.get(url, { token: s.student.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(PAGE_KEYS);
    expect(idsOf(res.body)).toEqual([h.supinoInA, h.alone1.id]);
    expect(Object.keys(res.body.content[1]).sort()).toEqual(EXERCISE_EXECUTION_KEYS);
    expect(res.body.content[1]).toEqual({
      id: h.alone1.id,
      exerciseId: s.supino.id,
      userId: s.student.id,
      trainingId: s.trainingB.id,
      sets: [{ repetitions: 8, weight: 50, completed: true }],
      notes: "Sozinho",
      clientId: null,
      executedAt: "2026-03-05T08:00:00.000Z",
      duration: 300,
      personalRecord: true,
    });
    expect(res.body.content[0]).toMatchObject({ executedAt: "2026-03-07T00:30:00.000Z", trainingId: s.trainingA.id, personalRecord: false });
    expect(res.body.content[0].executedAt).toMatch(ISO);

    const get = async (query: string, token = s.student.token) => idsOf((await t.get(`${url}?${query}`, { token })).body);
    expect(await get("sort=executedAt,asc")).toEqual([h.alone1.id, h.supinoInA]);
    expect(await get("startDate=2026-03-07")).toEqual([h.supinoInA]);
    expect(await get("endDate=2026-03-06")).toEqual([h.alone1.id]);
    expect(await get("startDate=2026-03-06&endDate=2026-03-06")).toEqual([]);
    expect(await get("size=1&page=1&sort=executedAt,desc")).toEqual([h.alone1.id]);

    // Somebody else's, by userId: the linked trainer and an administrator; 403 for others.
    expect(await get(`userId=${s.student.id}`, s.trainer.token)).toEqual([h.supinoInA, h.alone1.id]);
    expect(await get(`userId=${s.student.id}`, boss.token)).toEqual([h.supinoInA, h.alone1.id]);
    expect(await get("", s.trainer.token)).toEqual([]);
    expect(await t.get(`${url}?userId=${s.student.id}`, { token: otherTrainer.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get(`${url}?userId=${s.student.id}`, { token: stranger.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get("/api/exercises/999999/executions", { token: s.student.token })).toMatchObject({ status: 404, body: EXERCISE_NOT_FOUND });
    expect(await t.get(`${url}?sort=weight,asc`, { invalidRequest: true, token: s.student.token })).toMatchObject({
      status: 400,
      body: invalidParameter("sort"),
    });
    expect(await t.get(`${url}?startDate=ontem`, { invalidRequest: true, token: s.student.token })).toMatchObject({
      status: 400,
      body: invalidParameter("startDate"),
    });
    expect(await t.get(url)).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });

  it("GET /api/exercises/executions/user/{userId}: every exercise execution of the user, named, with filters", async () => {
    const h = await history();
    const url = `/api/exercises/executions/user/${s.student.id}`;
    const res = await t.get(url, { token: s.student.token });
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([h.alone2.id, h.remadaInA, h.supinoInA, h.alone1.id]);
    expect(Object.keys(res.body.content[0]).sort()).toEqual([...EXERCISE_EXECUTION_KEYS, "exerciseName", "trainingName"].sort());
    expect(res.body.content.map((item: any) => [item.exerciseName, item.trainingName])).toEqual([
      ["Remada curvada", "Treino A"],
      ["Remada curvada", "Treino A"],
      ["Supino reto", "Treino A"],
      ["Supino reto", "Treino B"],
    ]);
    expect(res.body.content[0]).toMatchObject({
      id: h.alone2.id,
      exerciseId: s.remada.id,
      trainingId: s.trainingA.id,
      executedAt: "2026-03-08T09:00:00.000Z",
      sets: [{ repetitions: 8, weight: null, completed: false }],
      duration: null,
      notes: null,
      clientId: null,
      personalRecord: false,
    });

    const get = async (query: string, token = s.student.token) => idsOf((await t.get(`${url}?${query}`, { token })).body);
    expect(await get(`exerciseId=${s.remada.id}`)).toEqual([h.alone2.id, h.remadaInA]);
    expect(await get(`exerciseId=${s.remada.id}&sort=executedAt,asc`)).toEqual([h.remadaInA, h.alone2.id]);
    expect(await get("startDate=2026-03-06&endDate=2026-03-07")).toEqual([h.remadaInA, h.supinoInA].sort((a, b) => b - a));
    expect(await get("endDate=2026-03-05")).toEqual([h.alone1.id]);
    expect(await get("size=2&page=1")).toEqual([h.supinoInA, h.alone1.id]);
    expect(await get("", s.trainer.token)).toHaveLength(4);
    expect(await get("", boss.token)).toHaveLength(4);

    expect(await t.get(url, { token: otherTrainer.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get(url, { token: stranger.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get("/api/exercises/executions/user/999999", { token: s.student.token })).toMatchObject({ status: 404, body: USER_NOT_FOUND });
    expect(await t.get(`${url}?exerciseId=x`, { invalidRequest: true, token: s.student.token })).toMatchObject({
      status: 400,
      body: invalidParameter("exerciseId"),
    });

    expect((await t.delete(`/api/personal/students/${s.linkId}`, { token: s.trainer.token })).status).toBe(204);
    expect(await t.get(url, { token: s.trainer.token })).toMatchObject({ status: 403, body: DENIED });
    expect(await t.get(`/api/exercises/${s.supino.id}/executions?userId=${s.student.id}`, { token: s.trainer.token })).toMatchObject({
      status: 403,
      body: DENIED,
    });
  });
});

describe("date filters", () => {
  it("answer 400 for days outside 1900-01-01 … 2999-12-31 (years 0000 and 9999 once failed in the database with a 500)", async () => {
    await logA("2026-03-02T10:00:00Z");
    const urls = [
      `/api/trainings/${s.trainingA.id}/executions`,
      `/api/trainings/executions/user/${s.student.id}`,
      `/api/trainings/${s.trainingA.id}/statistics`,
      `/api/exercises/${s.supino.id}/executions`,
      `/api/exercises/executions/user/${s.student.id}`,
      `/api/exercises/${s.supino.id}/progress`,
    ];
    for (const url of urls) {
      for (const [query, name] of [
        ["startDate=0000-01-01", "startDate"],
        ["endDate=0000-01-01", "endDate"],
        ["startDate=1899-12-31", "startDate"],
        ["endDate=9999-12-31", "endDate"],
        ["startDate=9999-12-31", "startDate"],
        ["endDate=3000-01-01", "endDate"],
      ]) {
        expect(await t.get(`${url}?${query}`, { token: s.student.token }), `${url}?${query}`).toMatchObject({ status: 400, body: invalidParameter(name) });
      }
      // The edges themselves are days like any other.
      const widest = await t.get(`${url}?startDate=1900-01-01&endDate=2999-12-31`, { token: s.student.token });
      expect(widest.status, url).toBe(200);
      expect(widest.body, url).toEqual((await t.get(url, { token: s.student.token })).body);
    }
  });
});
