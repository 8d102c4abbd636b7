import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import type { paths } from "../../client/api-types.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

/** A client generated from GET /api/openapi.json (openapi-typescript), over the test app's checked fetch. */
const api = () => createClient<paths>({ baseUrl: `${t.baseUrl}/api`, fetch: (request) => t.fetch(request) });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The answer's data of a call that must succeed: a failure shows its status and error body. */
function ok<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) throw new Error(`${answer.response.url} answered ${answer.response.status}: ${JSON.stringify(answer.error)}`);
  return answer.data;
}

describe("a client generated from the OpenAPI document", () => {
  it("runs a trainer's and a student's day with typed answers: accounts, content, a link, an assignment, a log, statistics", async () => {
    const client = api();
    const registered = ok(
      await client.POST("/users/register", {
        body: { name: "Treinadora", email: "treinadora@example.com", password: "senha-forte-1", userType: "PERSONAL", requestLocation: "WEB", confirmed: true },
      }),
    );
    expect(registered.user.userType).toBe("PERSONAL");
    ok(
      await client.POST("/users/register", {
        body: { name: "Aluna", email: "aluna@example.com", password: "senha-forte-1", userType: "ALUNO", requestLocation: "WEB", confirmed: true },
      }),
    );
    const trainer = ok(await client.POST("/users/login", { body: { email: "treinadora@example.com", password: "senha-forte-1" } }));
    const student = ok(await client.POST("/users/login", { body: { email: "aluna@example.com", password: "senha-forte-1" } }));
    expect(student.user.email).toBe("aluna@example.com");

    const exercise = ok(
      await client.POST("/exercises", {
        headers: bearer(trainer.token),
        body: { exercise: { name: "Supino reto", description: "Barra no banco plano", category: "PEITO", equipment: "BARRA" } },
        bodySerializer: (body) => {
          const form = new FormData();
          form.append("exercise", JSON.stringify(body.exercise));
          return form;
        },
      }),
    );
    expect(exercise.category).toBe("PEITO");
    const training = ok(
      await client.POST("/trainings", {
        headers: bearer(trainer.token),
        body: { name: "Peito A", exercises: [{ exerciseId: exercise.id, sets: 3, repetitions: 10, weight: 40 }] },
      }),
    );
    expect(training.exercises.map((line) => line.exerciseName)).toEqual(["Supino reto"]);
    const plan = ok(
      await client.POST("/training-plans", {
        headers: bearer(trainer.token),
        body: { name: "Semana 1", description: "Três dias", trainings: [{ trainingId: training.id, dayOfWeek: "MONDAY", order: 0 }] },
      }),
    );
    expect(plan.trainings[0].trainingName).toBe("Peito A");

    const invite = ok(await client.POST("/personal/students/invite", { headers: bearer(trainer.token), body: { studentEmail: "aluna@example.com" } }));
    const link = ok(await client.POST("/students/invites/{id}/accept", { headers: bearer(student.token), params: { path: { id: invite.id } } }));
    expect(link.status).toBe("ACTIVE");
    const assignment = ok(
      await client.POST("/training-plans/{id}/assign", {
        headers: bearer(trainer.token),
        params: { path: { id: plan.id } },
        body: { studentId: student.userId },
      }),
    );
    expect(assignment.status).toBe("PENDING");
    const accepted = ok(
      await client.POST("/training-plans/assignments/{id}/accept", { headers: bearer(student.token), params: { path: { id: assignment.id } } }),
    );
    expect(accepted.status).toBe("ACTIVE");

    const start = new Date(t.clock.now().getTime() - 60 * 60_000);
    const execution = ok(
      await client.POST("/trainings/{id}/execution", {
        headers: bearer(student.token),
        params: { path: { id: training.id } },
        body: {
          startTime: start.toISOString(),
          endTime: new Date(start.getTime() + 45 * 60_000).toISOString(),
          completed: true,
          exerciseExecutions: [{ exerciseId: exercise.id, sets: [{ repetitions: 10, weight: 40, completed: true }] }],
        },
      }),
    );
    expect(execution.duration).toBe(45 * 60);
    expect(execution.newRecords?.map((record) => record.kind)).toContain("MAX_WEIGHT");

    const statistics = ok(
      await client.GET("/trainings/{id}/statistics", {
        headers: bearer(trainer.token),
        params: { path: { id: training.id }, query: { userId: student.userId } },
      }),
    );
    expect(statistics).toMatchObject({ trainingName: "Peito A", totalExecutions: 1, completedExecutions: 1, totalVolume: 400 });
    expect(statistics.exerciseStatistics[0].maxWeight).toBe(40);
    const page = ok(
      await client.GET("/training-plans/assignments", { headers: bearer(trainer.token), params: { query: { status: "ACTIVE", sort: ["assignedAt,desc"] } } }),
    );
    expect(page.content.map((item) => item.planName)).toEqual(["Semana 1"]);
  });
});
