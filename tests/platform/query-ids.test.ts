import { describe, expect, it } from "vitest";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

describe("ids in query filters", () => {
  it.each([
    ["/api/exercises?createdBy=9999999999", "createdBy"],
    ["/api/trainings?createdBy=9999999999", "createdBy"],
    ["/api/training-plans?createdBy=2147483648", "createdBy"],
    ["/api/training-plans/assignments?planId=9999999999", "planId"],
    ["/api/payments?userId=9999999999", "userId"],
    ["/api/trainings/executions/user/1?trainingId=9999999999", "trainingId"],
    ["/api/exercises/executions/user/1?exerciseId=0", "exerciseId"],
  ])("answers 400 to an id past the integer range or below 1: %s", async (url, param) => {
    const trainer = await makeTrainer(t);
    const res = await t.get(url.replace("/user/1", `/user/${trainer.id}`), { invalidRequest: true, token: trainer.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
  });

  it.each([
    ["/api/exercises?createdBy=007", "createdBy"],
    ["/api/trainings?createdBy=0001", "createdBy"],
    ["/api/training-plans/assignments?planId=01", "planId"],
    ["/api/payments?userId=01", "userId"],
  ])("answers 400 to an id written with leading zeros, as to any malformed id: %s", async (url, param) => {
    const trainer = await makeTrainer(t);
    const res = await t.get(url, { token: trainer.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
  });

  it("still filters by a valid id", async () => {
    const student = await makeStudent(t);
    const res = await t.get(`/api/exercises?createdBy=${student.id}`, { token: student.token });
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(0);
  });
});

describe("ids in paths", () => {
  it("answers 400 Parâmetro inválido: id to an id written with leading zeros, as to abc, and still serves the id itself", async () => {
    const student = await makeStudent(t);
    for (const id of [`0${student.id}`, `0000${student.id}`, "abc"]) {
      const res = await t.get(`/api/users/${id}`, { invalidRequest: true, token: student.token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: "Parâmetro inválido: id", success: false });
    }
    const exercise = await t.get(`/api/exercises/0${student.id}`, { token: student.token });
    expect(exercise.status).toBe(400);
    expect(exercise.body).toEqual({ message: "Parâmetro inválido: id", success: false });
    expect((await t.get(`/api/users/${student.id}`, { token: student.token })).status).toBe(200);
  });
});

describe("ids in JSON bodies", () => {
  it("answers 400 on the field to an exercise id past the integer range, writing nothing", async () => {
    const trainer = await makeTrainer(t);
    const res = await t.post("/api/trainings", {
      invalidRequest: true,
      token: trainer.token,
      body: { name: "Treino", exercises: [{ exerciseId: 9_999_999_999, sets: 3 }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((error: { field: string }) => error.field)).toEqual(["exercises[0].exerciseId"]);
    expect((await t.get("/api/trainings/my-trainings", { token: trainer.token })).body.totalElements).toBe(0);
  });
});
