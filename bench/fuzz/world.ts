import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { createApp, type App } from "../../src/app.js";
import { AccessTokens, type AccessTokenSubject } from "../../src/platform/auth/access-tokens.js";
import { systemClock } from "../../src/platform/clock.js";
import { loadConfig } from "../../src/platform/config.js";
import { openDatabase, type DatabaseHandle } from "../../src/platform/db/database.js";
import { createLogger } from "../../src/platform/logger.js";
import { send } from "./client.js";

/** The people of the run: the three roles requests are sent as, and the owners of "someone else's" rows. */
export type Role = "trainer" | "student" | "admin" | "otherTrainer" | "otherStudent";
export const ACTING_ROLES = ["trainer", "student", "admin"] as const;

export type FixtureKind =
  | "user"
  | "exercise"
  | "training"
  | "plan"
  | "invite"
  | "link"
  | "assignment"
  | "trainingExecution"
  | "subscription"
  | "payment"
  | "invoice"
  | "pixTransaction"
  | "subscriptionPlan";

/** A real row of each kind (`mine`: the trainer's or the student's) and one of the other trainer or student. */
export type Fixtures = Record<FixtureKind, { mine: string; other: string }>;

export interface Person {
  id: number;
  email: string;
  subject: AccessTokenSubject;
}

/** What the server logged at error level: the cause behind a 500, a failing job. */
export interface ServerError {
  where: string;
  error: string;
}

export interface World {
  base: URL;
  agent: http.Agent;
  database: string;
  people: Record<Role, Person>;
  fixtures: Fixtures;
  jwtSecret: string;
  webhookSecret: string;
  /** A fresh token of `role` (its own jti): a request that revokes it (logout, refresh) leaves the others valid. */
  token(role: Role): string;
  serverErrors: ServerError[];
  app: App;
  close(): Promise<void>;
}

const JWT_SECRET = "fuzz-jwt-secret-0123456789-abcdefghijklmnop";
const WEBHOOK_SECRET = "fuzz-webhook-secret-0123456789";
const PASSWORD = "senha-forte-1";
const SEED_TIMEOUT_MS = 30_000;
/** A 1×1 PNG. */
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** The `exercise` part of POST/PUT /exercises with every field set. */
export const exercisePart = (isPublic: boolean) => ({
  name: "Supino fuzz",
  description: "Exercício criado pelo fuzzer",
  category: "PEITO",
  isPublic,
  difficulty: "INICIANTE",
  equipment: "BARRA",
  videoUrl: "https://example.com/video",
  instructions: ["Deite no banco", "Empurre a barra"],
  muscleGroups: ["PEITO", "TRICEPS"],
});

export function multipartBody(boundary: string, parts: Array<{ name: string; filename?: string; type?: string; data: Buffer | string }>): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ""}`;
    const type = part.type ? `\r\nContent-Type: ${part.type}` : "";
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(part.data), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as { ver: number; role?: string };

/**
 * Boots the service in this process on a random loopback port: PGlite in memory, or with DATABASE_URL a scratch
 * PostgreSQL database created here and dropped by `close()`. Files (uploads, mail as `.eml`) go to a temporary
 * directory, payments to the sandbox gateways; webhooks have a secret. Then registers the people and creates one row of every kind through the API.
 */
export async function startWorld(concurrency: number): Promise<World> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-fuzz-"));
  const adminUrl = process.env.DATABASE_URL;
  const scratchName = `fitness_fuzz_${process.pid}`;
  const admin = adminUrl ? postgres(adminUrl, { max: 1, onnotice: () => undefined }) : undefined;
  let database: DatabaseHandle | undefined;
  let pglite: PGlite | undefined;
  let app: App | undefined;
  const server = http.createServer();
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app?.close().catch(() => undefined);
    await database?.close().catch(() => undefined);
    await pglite?.close().catch(() => undefined);
    if (admin) {
      await admin
        .unsafe(`drop database if exists ${scratchName} with (force)`)
        .catch((error: unknown) => console.error(`could not drop ${scratchName}:`, error));
      await admin.end({ timeout: 5 });
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    let databaseUrl: string | undefined;
    let label = "PGlite (in memory)";
    if (admin && adminUrl) {
      const [{ version }] = await admin<{ version: string }[]>`select current_setting('server_version') as version`;
      await admin.unsafe(`drop database if exists ${scratchName} with (force)`);
      await admin.unsafe(`create database ${scratchName}`);
      const url = new URL(adminUrl);
      url.pathname = `/${scratchName}`;
      databaseUrl = url.toString();
      label = `PostgreSQL ${version} (scratch database ${scratchName})`;
    }
    // PGlite in memory: migrating one on disk takes twice as long, and the data is thrown away anyway.
    if (!databaseUrl) pglite = new PGlite();
    database = await openDatabase({ databaseUrl, pglite });
    await database.migrate();

    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const adminEmail = "fuzz-admin@example.com";
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      JWT_SECRET,
      PUBLIC_BASE_URL: base.origin,
      WEBHOOK_SECRET,
      ADMIN_EMAILS: adminEmail,
      // The limits would answer most of the run 429 before any handler looked at the payload.
      AUTH_RATE_LIMIT_PER_MINUTE: "1000000",
      LOGIN_FAILURES_PER_EMAIL: "1000000",
      FREE_TRAINER_MAX_STUDENTS: "1000",
      LOG_LEVEL: "error",
    });
    const serverErrors: ServerError[] = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        for (const line of String(chunk).split("\n").filter(Boolean)) {
          try {
            const entry = JSON.parse(line) as {
              msg?: string;
              method?: string;
              url?: string;
              job?: string;
              err?: { type?: string; message?: string; stack?: string };
            };
            const where = entry.job ? `job ${entry.job}` : entry.method ? `${entry.method} ${entry.url}` : (entry.msg ?? "?");
            // A failed query's message is the statement; what the database said is its cause, at the end of the stack.
            const causedBy = /\ncaused by: ([^\n]+)/.exec(entry.err?.stack ?? "")?.[1];
            const cause = causedBy ? ` (cause: ${causedBy.slice(0, 160)})` : "";
            serverErrors.push({ where, error: `${entry.err?.type ?? ""}: ${(entry.err?.message ?? entry.msg ?? "").split("\n")[0].slice(0, 160)}${cause}` });
          } catch {
            serverErrors.push({ where: "log", error: line.slice(0, 200) });
          }
        }
        callback();
      },
    });
    app = await createApp({ config, database, clock: systemClock, logger: createLogger(config.logLevel, sink) });
    server.on("request", app.express);
    await app.jobs.start();

    const tokens = new AccessTokens(JWT_SECRET, systemClock);
    const people = {} as Record<Role, Person>;
    const world: World = {
      base,
      agent,
      database: label,
      people,
      fixtures: {} as Fixtures,
      jwtSecret: JWT_SECRET,
      webhookSecret: WEBHOOK_SECRET,
      token: (role) => tokens.issue(people[role].subject).token,
      serverErrors,
      app,
      close,
    };
    await seed(world, adminEmail);
    return world;
  } catch (error) {
    await close();
    throw error;
  }
}

/** One call of the seeding, which must answer `expected`. */
async function call(
  world: World,
  method: string,
  url: string,
  expected: number,
  options: { as?: Role; json?: unknown; multipart?: Parameters<typeof multipartBody>[1] } = {},
) {
  const headers: Record<string, string> = {};
  let body: Buffer | undefined;
  if (options.as) headers.authorization = `Bearer ${world.token(options.as)}`;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = Buffer.from(JSON.stringify(options.json));
  } else if (options.multipart) {
    headers["content-type"] = "multipart/form-data; boundary=fuzz-seed";
    body = multipartBody("fuzz-seed", options.multipart);
  }
  const answer = await send(
    world.agent,
    world.base,
    { operation: "seed", label: "seed", as: options.as ?? "anonymous", method, path: `/api${url}`, headers, body },
    SEED_TIMEOUT_MS,
  );
  if (answer.status !== expected)
    throw new Error(`seeding: ${method} ${url} answered ${answer.status} (expected ${expected}) ${answer.error ?? answer.body.toString().slice(0, 500)}`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return JSON.parse(answer.body.toString() || "null") as any;
}

async function seed(world: World, adminEmail: string) {
  const register = async (role: Role, userType: "ALUNO" | "PERSONAL", email: string) => {
    const session = await call(world, "POST", "/users/register", 201, {
      json: { name: `Fuzz ${role}`, email, password: PASSWORD, userType, requestLocation: "WEB", confirmed: true },
    });
    const claims = claimsOf(session.token);
    world.people[role] = {
      id: session.userId,
      email,
      subject: { id: session.userId, name: session.user.name, email, userType, isAdmin: claims.role === "ADMIN", sessionVersion: claims.ver },
    };
  };
  await register("trainer", "PERSONAL", "fuzz-trainer@example.com");
  await register("student", "ALUNO", "fuzz-student@example.com");
  await register("admin", "PERSONAL", adminEmail);
  await register("otherTrainer", "PERSONAL", "fuzz-other-trainer@example.com");
  await register("otherStudent", "ALUNO", "fuzz-other-student@example.com");
  const { people } = world;
  if (!people.admin.subject.isAdmin) throw new Error("seeding: ADMIN_EMAILS did not make the admin an administrator");

  const exercise = (as: Role, isPublic: boolean) =>
    call(world, "POST", "/exercises", 201, {
      as,
      multipart: [
        { name: "exercise", data: JSON.stringify(exercisePart(isPublic)) },
        { name: "file", filename: "foto.png", type: "image/png", data: PNG },
      ],
    });
  const myExercise = await exercise("trainer", true);
  const otherExercise = await exercise("otherTrainer", false);
  const training = (as: Role, exerciseId: number, isPublic: boolean) =>
    call(world, "POST", "/trainings", 201, {
      as,
      json: { name: "Treino fuzz", description: "Treino", isPublic, exercises: [{ exerciseId, sets: 3, repetitions: 10 }] },
    });
  const myTraining = await training("trainer", myExercise.id, true);
  const otherTraining = await training("otherTrainer", otherExercise.id, false);
  const plan = (as: Role, trainingId: number) =>
    call(world, "POST", "/training-plans", 201, {
      as,
      json: { name: "Plano fuzz", description: "Plano", trainings: [{ trainingId, dayOfWeek: "MONDAY", order: 0 }] },
    });
  const myPlan = await plan("trainer", myTraining.id);
  const otherPlan = await plan("otherTrainer", otherTraining.id);

  const invite = (as: Role, student: Role) => call(world, "POST", "/personal/students/invite", 201, { as, json: { studentEmail: people[student].email } });
  const myLink = await call(world, "POST", `/students/invites/${(await invite("trainer", "student")).id}/accept`, 200, { as: "student" });
  const otherLink = await call(world, "POST", `/students/invites/${(await invite("otherTrainer", "otherStudent")).id}/accept`, 200, { as: "otherStudent" });
  const myInvite = await invite("otherTrainer", "student");
  const otherInvite = await invite("trainer", "otherStudent");

  const myAssignment = await call(world, "POST", `/training-plans/${myPlan.id}/assign`, 201, { as: "trainer", json: { studentId: people.student.id } });
  const otherAssignment = await call(world, "POST", `/training-plans/${otherPlan.id}/assign`, 201, {
    as: "otherTrainer",
    json: { studentId: people.otherStudent.id },
  });

  const execution = (as: Role, trainingId: number, exerciseId: number) => {
    const end = Date.now() - 60_000;
    return call(world, "POST", `/trainings/${trainingId}/execution`, 201, {
      as,
      json: {
        startTime: new Date(end - 3_600_000).toISOString(),
        endTime: new Date(end).toISOString(),
        completed: true,
        exerciseExecutions: [{ exerciseId, sets: [{ repetitions: 10, weight: 40, completed: true }] }],
      },
    });
  };
  const myExecution = await execution("student", myTraining.id, myExercise.id);
  const otherExecution = await execution("otherStudent", otherTraining.id, otherExercise.id);
  await call(world, "POST", `/exercises/${myExercise.id}/execution`, 201, {
    as: "student",
    json: { trainingId: myTraining.id, sets: [{ repetitions: 8, weight: 42.5, completed: true }] },
  });

  const plans: Array<{ id: number; userType: string }> = await call(world, "GET", "/subscription-plans", 200, { as: "student" });
  const studentPlan = plans.find((p) => p.userType === "ALUNO");
  const trainerPlan = plans.find((p) => p.userType === "PERSONAL");
  if (!studentPlan || !trainerPlan) throw new Error("seeding: the plan catalogue lacks a student or a trainer plan");
  const card = {
    paymentMethod: "CREDIT_CARD",
    cardNumber: "4242424242424242",
    cardHolderName: "FUZZ",
    cardExpirationMonth: "12",
    cardExpirationYear: String(new Date().getUTCFullYear() + 3),
    cardCvv: "123",
  };
  const subscribe = (as: Role) => call(world, "POST", "/subscriptions", 201, { as, json: { planId: studentPlan.id, ...card } });
  const mySubscription = await subscribe("student");
  const otherSubscription = await subscribe("otherStudent");
  const first = async (as: Role, url: string) => {
    const page = await call(world, "GET", url, 200, { as });
    const row = (Array.isArray(page) ? page : page.content)[0];
    if (!row) throw new Error(`seeding: ${url} is empty for ${as}`);
    return row.id as number;
  };
  const pix = (as: Role) => call(world, "POST", "/payments/subscribe", 201, { as, json: { planId: trainerPlan.id, paymentMethod: "PIX" } });
  const myPix = await pix("trainer");
  const otherPix = await pix("otherTrainer");

  const pair = (mine: unknown, other: unknown) => ({ mine: String(mine), other: String(other) });
  world.fixtures = {
    user: pair(people.student.id, people.otherStudent.id),
    exercise: pair(myExercise.id, otherExercise.id),
    training: pair(myTraining.id, otherTraining.id),
    plan: pair(myPlan.id, otherPlan.id),
    invite: pair(myInvite.id, otherInvite.id),
    link: pair(myLink.id, otherLink.id),
    assignment: pair(myAssignment.id, otherAssignment.id),
    trainingExecution: pair(myExecution.id, otherExecution.id),
    subscription: pair(mySubscription.id, otherSubscription.id),
    payment: pair(await first("student", "/payments"), await first("otherStudent", "/payments")),
    invoice: pair(await first("student", "/invoices"), await first("otherStudent", "/invoices")),
    pixTransaction: pair(myPix.id, otherPix.id),
    subscriptionPlan: pair(studentPlan.id, trainerPlan.id),
  };
}
