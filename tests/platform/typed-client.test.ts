import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import createClient from "openapi-fetch";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { paths } from "../../client/api-types.js";
import { clientTypesOf } from "../../scripts/client-types.js";
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

/** Under the project's node_modules, so the program finds openapi-fetch as a client project would. */
const scratchRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../node_modules/.cache");

/**
 * A client's program over types generated afresh from the served document: the change feed narrowed by `op` and
 * `entity`, the export, an image upload sent as a Blob, and the webhook events a receiver gets. Each value it reads
 * goes into a variable of a precise type, and `known` refuses `unknown` and `any`; no cast anywhere.
 */
const PROGRAM = `
import createClient from "openapi-fetch";
import type { components, paths, webhooks } from "./api-types.js";

type Schemas = components["schemas"];
/** Compiles only for a value of a declared type: \`unknown\` and untyped values are refused. */
function known<T>(value: T, isKnown: unknown extends T ? false : true): T {
  void isKnown;
  return value;
}

const client = createClient<paths>({ baseUrl: "https://fitness.invalid/api" });

export async function syncOnce(token: string, since: string | undefined): Promise<string> {
  const { data, error } = await client.GET("/sync/changes", { headers: { Authorization: \`Bearer \${token}\` }, params: { query: { since, limit: 100 } } });
  if (!data) throw new Error(error.message);
  for (const change of data.changes) {
    if (change.op === "DELETE") {
      // A deletion's data is null; openapi-fetch 0.17 drops null-only properties from answers (openapi-typescript #1637).
      const entity: Schemas["SyncEntity"] = change.entity;
      console.log(entity, change.id);
      continue;
    }
    known(change.data, true);
    switch (change.entity) {
      case "profile": {
        const email: string = change.data.email;
        console.log(email);
        break;
      }
      case "exercise": {
        const category: Schemas["ExerciseCategory"] = change.data.category;
        const name: string = change.data.name;
        console.log(category, name);
        break;
      }
      case "training": {
        const lines: number = change.data.exercises.length;
        console.log(lines);
        break;
      }
      case "trainingPlan": {
        const trainings: number = change.data.trainings.length;
        console.log(trainings);
        break;
      }
      case "planAssignment":
      case "link":
      case "subscription": {
        const id: number = change.data.id;
        console.log(id, known(change.data.status, true));
        break;
      }
      case "invite": {
        const invited: number = change.data.id;
        console.log(invited);
        break;
      }
      case "trainingExecution": {
        const exercises: number = change.data.exerciseExecutions.length;
        console.log(exercises);
        break;
      }
      case "exerciseExecution": {
        const sets: number = change.data.sets.length;
        console.log(sets);
        break;
      }
    }
  }
  return data.cursor;
}

export async function exportMine(token: string): Promise<number> {
  const { data } = await client.GET("/users/me/export", { headers: { Authorization: \`Bearer \${token}\` } });
  if (!data) return 0;
  const exportedAt: string = data.exportedAt;
  const weights: number[] = data.weightHistory.map((entry) => entry.weight);
  const names: string[] = [...data.exercises.map((exercise) => exercise.name), ...data.trainings.map((training) => training.name)];
  const paid: number[] = data.payments.map((payment) => payment.amount);
  console.log(exportedAt, weights, names, paid, known(data.profile, true), known(data.links, true), known(data.invites, true));
  return data.records.length + data.trainingExecutions.length + data.planAssignments.length + data.subscriptions.length;
}

export async function uploadPhoto(token: string, userId: number, photo: Blob): Promise<string | null> {
  const { data } = await client.POST("/users/{userId}/update-profile-photo", {
    headers: { Authorization: \`Bearer \${token}\` },
    params: { path: { userId } },
    body: { file: photo },
    bodySerializer: (body) => {
      const form = new FormData();
      form.append("file", body.file);
      return form;
    },
  });
  return data ? data.profilePicture : null;
}

type Event = webhooks[keyof webhooks]["post"]["requestBody"]["content"]["application/json"];

export function onEvent(event: Event): string {
  known(event.data, true);
  switch (event.type) {
    case "personal_record.achieved": {
      const value: number = event.data.value;
      return \`\${event.data.exerciseName}: \${value}\`;
    }
    case "payment.completed": {
      const amount: number = event.data.amount;
      return \`\${event.id} \${amount}\`;
    }
    case "training_execution.created":
      return event.data.newRecords.map((record) => record.kind).join(",");
    case "ping":
      return event.data.url;
    default:
      return known(event.data.id, true).toString();
  }
}
`;

describe("a client generated afresh from the served document (openapi-typescript)", () => {
  it("compiles a program over the change feed, the export, an upload and the webhook events with no cast and nothing unknown", async () => {
    const document = await (await fetch(`${t.baseUrl}/api/openapi.json`)).text();
    mkdirSync(scratchRoot, { recursive: true });
    const dir = mkdtempSync(path.join(scratchRoot, "typed-client-"));
    try {
      writeFileSync(path.join(dir, "api-types.ts"), await clientTypesOf(document, path.join(dir, "api-types.ts")));
      writeFileSync(path.join(dir, "program.ts"), PROGRAM);
      expect(PROGRAM).not.toMatch(/\bas\s+(?!const\b)\w|<\w+>\s*\w|\bany\b/);
      const program = ts.createProgram([path.join(dir, "program.ts")], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2023,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
        types: [],
        skipLibCheck: true,
      });
      const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
