import type http from "node:http";
import { bearer, request } from "./support.js";

const json = (token?: string) => ({ "content-type": "application/json", ...(token ? bearer(token) : {}) });

export interface BenchUser {
  id: number;
  token: string;
  email: string;
}

/** A call of the API that must answer `expected`; its JSON answer. */
export type BenchCall = (
  method: string,
  path: string,
  token: string | undefined,
  body: unknown,
  expected: number,
) => Promise<{ id: number; userId: number; token: string }>;

/**
 * Over the API of the service at `base`: a trainer's exercise in a training of a plan that `count` students accepted
 * (each an ACTIVE student who may log it), and the logging write (POST /exercises/{id}/execution) as a closed-loop
 * target, one student per client.
 */
export async function loggingWorld(base: URL, agent: http.Agent, count: number) {
  const call: BenchCall = async (method, path, token, body, expected) => {
    const reply = await request(agent, base, method, path, json(token), body === undefined ? undefined : JSON.stringify(body));
    if (reply.status !== expected) throw new Error(`${method} ${path}: ${reply.status} ${reply.body}`);
    return JSON.parse(reply.body || "null") as { id: number; userId: number; token: string };
  };
  const register = async (name: string, userType: "ALUNO" | "PERSONAL"): Promise<BenchUser> => {
    const body = { name, email: `${name}@bench.example.com`, password: "bench-password-1", userType, requestLocation: "WEB", confirmed: true };
    const created = await call("POST", "/api/users/register", undefined, body, 201);
    return { id: created.userId, token: created.token, email: body.email };
  };

  const trainer = await register("treinador", "PERSONAL");
  const form = new FormData();
  form.append("exercise", JSON.stringify({ name: "Supino reto", description: "Empurre a barra", category: "PEITO" }));
  const exercise = (await (await fetch(new URL("/api/exercises", base), { method: "POST", headers: bearer(trainer.token), body: form })).json()) as {
    id: number;
  };
  const training = await call("POST", "/api/trainings", trainer.token, { name: "Treino A", exercises: [{ exerciseId: exercise.id, sets: 3 }] }, 201);
  const plan = await call(
    "POST",
    "/api/training-plans",
    trainer.token,
    { name: "Plano", description: "Plano", trainings: [{ trainingId: training.id, dayOfWeek: "MONDAY", order: 0 }] },
    201,
  );
  const students: BenchUser[] = [];
  for (let i = 0; i < count; i++) {
    const student = await register(`aluno${i}`, "ALUNO");
    const invite = await call("POST", "/api/personal/students/invite", trainer.token, { studentEmail: student.email }, 201);
    await call("POST", `/api/students/invites/${invite.id}/accept`, student.token, undefined, 200);
    const assignment = await call("POST", `/api/training-plans/${plan.id}/assign`, trainer.token, { studentId: student.id }, 201);
    await call("POST", `/api/training-plans/assignments/${assignment.id}/accept`, student.token, undefined, 200);
    students.push(student);
  }

  const write = {
    base,
    method: "POST",
    path: `/api/exercises/${exercise.id}/execution`,
    headers: { "content-type": "application/json" } as Record<string, string>,
    body: JSON.stringify({ trainingId: training.id, sets: [{ repetitions: 8, weight: 60, completed: true }], notes: "Bench" }),
    okStatus: 201,
    callerHeaders: students.map((student) => bearer(student.token)),
  };
  return { call, trainer, students, write };
}
