import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { exercises } from "../../src/tables/exercise.table.js";
import { exerciseFeedAudience } from "../../src/modules/exercises/exercise.fragments.js";
import { MAX_AHEAD } from "../../src/modules/sync/change-feed.cursor.js";
import { recordAudience, recordChanges } from "../../src/modules/sync/change-feed.recorder.js";
import { openDatabase, type Db } from "../../src/platform/db/database.js";
import { rowsOf, serviceDatabase } from "../helpers/database.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";
import {
  assignPlan,
  createExercise,
  createPlan,
  createTraining,
  exerciseForm,
  linkTrainerAndStudent,
  moveAssignment,
  trainingBody,
} from "../factories/content.js";
import { logExerciseExecution, logTrainingExecution, setsOf, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import { Follower, Picture, expectSameAsFreshSync, feedPage, keyOf, readFeed, type Change } from "./support.js";

/*
 * Issue 13's feed test: many writers on two instances of the service, some transactions held open while later ones
 * commit, and a reader polling the feed throughout. Its final picture must be the database's, every change handed out
 * once. Transactions held open need PostgreSQL (PGlite runs one transaction at a time): there the writers run
 * interleaved on one connection.
 */
const t = useTestApp();
const second = useSecondInstance(t);
const onPostgres = Boolean(process.env.DATABASE_URL);

interface Held {
  /** The id of the exercise its transaction inserted (resolves once inserted and recorded, before it commits). */
  exerciseId: Promise<number>;
  /** The id of its change row. */
  changeId: Promise<number>;
  commit(): void;
  done: Promise<void>;
}

/**
 * A transaction on a connection of its own that inserts an exercise of `owner` and records its change with the same
 * recorder the services use, then stays open until `commit()`: a writer that began before others and commits after.
 */
function holdTransaction(db: Db, owner: MadeUser, name: string): Held {
  let commit!: () => void;
  const released = new Promise<void>((resolve) => (commit = resolve));
  let inserted!: (ids: { exerciseId: number; changeId: number }) => void;
  const ids = new Promise<{ exerciseId: number; changeId: number }>((resolve) => (inserted = resolve));
  const done = db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .insert(exercises)
      .values({ name, description: "Em uma transação longa", category: "COSTAS", createdBy: owner.id, createdAt: now, updatedAt: now })
      .returning();
    await recordChanges(tx, now, { entity: "exercise", ids: [row.id], userIds: [owner.id] });
    const [change] = rowsOf<{ id: string }>(await tx.execute(sql`select max(id)::text as id from sync_changes where entity_id = ${row.id}`));
    inserted({ exerciseId: row.id, changeId: Number(change.id) });
    await released;
  });
  return { exerciseId: ids.then((x) => x.exerciseId), changeId: ids.then((x) => x.changeId), commit, done };
}

/** A writer: creates, renames and deletes exercises, composes and renames a training, logs sessions; through `instances` in turn. */
async function writer(instances: TestApp[], owner: MadeUser, n: number, rounds: number) {
  const on = (i: number) => instances[i % instances.length];
  for (let round = 0; round < rounds; round += 1) {
    const app = on(round);
    const kept = await createExercise(app, owner.token, { name: `w${n} r${round} mantido` });
    const gone = await createExercise(on(round + 1), owner.token, { name: `w${n} r${round} apagado` });
    const renamed = await app.put(`/api/exercises/${kept.id}`, { token: owner.token, raw: exerciseForm({ ...kept, name: `w${n} r${round} renomeado` }) });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await on(round + 1).delete(`/api/exercises/${gone.id}`, { token: owner.token })).status).toBe(204);
    const training = await createTraining(app, owner.token, [kept.id], { name: `w${n} r${round} treino` });
    const edited = await on(round + 1).put(`/api/trainings/${training.id}`, {
      token: owner.token,
      body: trainingBody([kept.id], { name: `w${n} r${round} treino B` }),
    });
    expect(edited.status, edited.text).toBe(200);
    await logTrainingExecution(
      app,
      owner.token,
      training.id,
      trainingExecutionBody(new Date(Date.UTC(2030, 0, 1, n, round)), 600, [
        { exerciseId: kept.id, sets: setsOf(2, { repetitions: 8, weight: 40, completed: true }) },
      ]),
    );
  }
}

/** Each change: as many of `received` per entity as rows the user's change log got after `afterId`, none more. */
async function expectEachLoggedOnce(user: MadeUser, afterId: number, received: Change[]) {
  const rows = rowsOf<{ entity: string; entity_id: number; n: number }>(
    await t.db.execute(sql`select entity, entity_id, count(*)::int as n from sync_changes where user_id = ${user.id} and id > ${afterId} group by 1, 2`),
  );
  const handedOut = new Map<string, number>();
  for (const change of received) handedOut.set(keyOf(change), (handedOut.get(keyOf(change)) ?? 0) + 1);
  expect(handedOut).toEqual(new Map(rows.map((row) => [`${row.entity}:${row.entity_id}`, row.n])));
}

async function lastChangeId(): Promise<number> {
  const [row] = rowsOf<{ id: string | null }>(await t.db.execute(sql`select max(id)::text as id from sync_changes`));
  return Number(row.id ?? 0);
}

describe("the change feed under concurrent writers", () => {
  it("gives a reader polling throughout the database's final picture, each change once, while transactions commit out of order", async () => {
    const ana = await makeStudent(t, { name: "Ana Souza" });
    await createExercise(t, ana.token, { name: "Antes de tudo" });

    // The reader syncs once, then polls through both instances, a few changes a page, until told to stop.
    const picture = new Picture();
    const initial = await readFeed(t, ana.token, undefined, 5);
    picture.apply(initial.changes);
    const startedAfter = await lastChangeId();
    let cursor = initial.cursor;
    const received: Change[] = [];
    let polls = 0;
    let stop = false;
    const poll = async () => {
      for (;;) {
        const page = await feedPage(polls % 2 === 0 ? t : second, ana.token, cursor, 7);
        polls += 1;
        picture.apply(page.changes);
        received.push(...page.changes);
        cursor = page.cursor;
        if (!page.hasMore) return;
      }
    };
    const reader = (async () => {
      while (!stop) {
        await poll();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();

    // Transactions that begin first and commit last, in another order than they began (PostgreSQL only).
    const client = onPostgres ? await openDatabase(serviceDatabase(await currentDatabase(), 3)) : null;
    const held = client ? ["longa 1", "longa 2", "longa 3"].map((name) => holdTransaction(client.db, ana, name)) : [];
    const heldChangeIds = await Promise.all(held.map((h) => h.changeId));

    // Eight writers, alternating instances, commit dozens of transactions meanwhile; the held ones commit in between.
    const writers = Array.from({ length: 8 }, (_, n) => writer(n % 2 === 0 ? [t, second] : [second, t], ana, n, 3));
    const releases = (async () => {
      for (const i of held.length > 0 ? [2, 0, 1] : []) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        held[i].commit();
        await held[i].done;
      }
    })();
    try {
      await Promise.all([...writers, releases]);
    } finally {
      held.forEach((h) => h.commit());
      await client?.close();
      stop = true;
      await reader;
    }
    await poll(); // every transaction has ended: what comes now is the rest

    // The trap was there: rows of later transactions (higher ids) committed while the held ones were open, so a
    // cursor at the highest id seen would have skipped the held rows.
    if (held.length > 0) expect(await lastChangeId()).toBeGreaterThan(Math.max(...heldChangeIds));
    expect(polls).toBeGreaterThan(5);

    // The final picture is the database's: what a fresh sync lists, and what REST answers.
    const fresh = new Picture().apply((await readFeed(t, ana.token)).changes);
    expect(picture.toJSON()).toEqual(fresh.toJSON());
    const mine = await t.get("/api/exercises/my-exercises?size=100", { token: ana.token });
    expect(picture.keys("exercise")).toEqual(mine.body.content.map((exercise: { id: number }) => `exercise:${exercise.id}`).sort());
    expect(picture.keys("exercise")).toHaveLength(1 + 8 * 3 + held.length);
    for (const h of held) expect(picture.get("exercise", await h.exerciseId)).toMatchObject({ description: "Em uma transação longa" });
    expect(picture.keys("trainingExecution")).toHaveLength(8 * 3);
    for (const key of picture.keys("training")) expect(picture.items.get(key).name).toMatch(/treino B$/);

    // Each change once: as many items per entity as rows the writes recorded, none more.
    await expectEachLoggedOnce(ana, startedAfter, received);
  }, 120_000); // many writers, two instances and a reader polling throughout: past 30 s on a saturated machine
});

describe("a writer reading its own writes", () => {
  it("finds each write in the first page it reads after it, on either instance, while others write and older transactions stay open", async () => {
    const ana = await makeStudent(t, { name: "Ana Souza" });
    const others = [await makeStudent(t), await makeStudent(t)];
    const exercise = await createExercise(t, ana.token, { name: "Supino" });
    const training = await createTraining(t, ana.token, [exercise.id]);
    const initial = await readFeed(t, ana.token);
    const picture = new Picture().apply(initial.changes);
    let cursor = initial.cursor;
    const startedAfter = await lastChangeId();
    const received: Change[] = [];

    // Meanwhile: other users write through REST, and transactions of the service's own kind (a background job's)
    // begin before Ana's writes and commit after them, some recording a change for her (PostgreSQL only).
    let stop = false;
    const otherWriters = others.map(async (other, n) => {
      for (let round = 0; !stop; round += 1) await createExercise(round % 2 === 0 ? t : second, other.token, { name: `outro ${n} ${round}` });
    });
    const client = onPostgres ? await openDatabase(serviceDatabase(await currentDatabase(), 2)) : null;
    const jobs = client
      ? [0, 1].map(async (n) => {
          for (let round = 0; !stop; round += 1) {
            const held = holdTransaction(client.db, round % 3 === 0 ? ana : others[n], `job ${n} ${round}`);
            await held.changeId;
            await new Promise((resolve) => setTimeout(resolve, 20 + ((round * 37) % 150)));
            held.commit();
            await held.done;
          }
        })
      : [];

    try {
      for (let round = 0; round < 200; round += 1) {
        const [writeTo, readFrom] = round % 2 === 0 ? [t, second] : [second, t];
        let written: string;
        if (round % 4 < 2) {
          const logged = await logExerciseExecution(
            writeTo,
            ana.token,
            exercise.id,
            training.id,
            setsOf(1, { repetitions: 8, weight: round, completed: true }),
          );
          written = `exerciseExecution:${logged.id}`;
        } else {
          const edited = await writeTo.put("/api/users/profile", { token: ana.token, body: { weight: 50 + round / 10 } });
          expect(edited.status, edited.text).toBe(200);
          written = `profile:${ana.id}`;
        }
        const page = await feedPage(readFrom, ana.token, cursor);
        expect(page.changes.map(keyOf), `round ${round}`).toContain(written);
        picture.apply(page.changes);
        received.push(...page.changes);
        cursor = page.cursor;
        if (written.startsWith("profile")) expect(picture.get("profile", ana.id).weight).toBe(50 + round / 10);
      }
    } finally {
      stop = true;
      await Promise.all([...otherWriters, ...jobs]);
      await client?.close();
    }
    const rest = await readFeed(t, ana.token, cursor);
    picture.apply(rest.changes);
    received.push(...rest.changes);

    // Nothing missed: the picture is the database's. Nothing repeated: each change recorded was handed out once.
    expect(picture.toJSON()).toEqual(new Picture().apply((await readFeed(t, ana.token)).changes).toJSON());
    expect(picture.keys("exerciseExecution")).toHaveLength(100);
    await expectEachLoggedOnce(ana, startedAfter, received);
  }, 180_000); // 200 rounds of a write and a read beside other writers: long on a saturated machine

  it.runIf(onPostgres)("gets 16 writes ahead of a transaction held open, the next once it ends, each change once, pages cut inside a write", async () => {
    const ana = await makeStudent(t);
    const exerciseIds = [(await createExercise(t, ana.token)).id, (await createExercise(t, ana.token)).id];
    const training = await createTraining(t, ana.token, exerciseIds);
    const follower = await new Follower(t, ana.token).start();
    const startedAfter = await lastChangeId();

    const client = await openDatabase(serviceDatabase(await currentDatabase(), 1));
    const held = holdTransaction(client.db, ana, "longa");
    try {
      await held.changeId;
      for (let round = 0; round < 20; round += 1) {
        // Three changes in one transaction (the session and its two exercises), read two a page.
        const logged = await logTrainingExecution(
          round % 2 === 0 ? t : second,
          ana.token,
          training.id,
          trainingExecutionBody(
            new Date(Date.UTC(2030, 0, 1, 0, round)),
            600,
            exerciseIds.map((exerciseId) => ({ exerciseId, sets: setsOf(1, { repetitions: 5, completed: true }) })),
          ),
        );
        const keys = (await follower.poll(2)).map(keyOf);
        if (round < MAX_AHEAD) expect(keys, `round ${round}`).toContain(`trainingExecution:${logged.id}`);
        else expect(keys, `round ${round}`).toEqual([]);
      }
    } finally {
      held.commit();
      await held.done;
      await client.close();
    }
    const rest = (await follower.poll(2)).map(keyOf);
    expect(rest).toContain(`exercise:${await held.exerciseId}`);
    expect(rest.filter((key) => key.startsWith("trainingExecution"))).toHaveLength(20 - MAX_AHEAD);

    await expectSameAsFreshSync(t, follower);
    await expectEachLoggedOnce(ana, startedAfter, follower.received);
  });
});

describe("the change feed under content edits racing assignments", () => {
  it("gives the student the plan's content as it is when assignments come and go while the trainer edits it", async () => {
    const trainer = await makeTrainer(t);
    const ana = await makeStudent(t);
    await linkTrainerAndStudent(t, trainer, ana);
    const exerciseIds: number[] = [];
    for (let i = 0; i < 4; i += 1) exerciseIds.push((await createExercise(t, trainer.token, { name: `e${i}` })).id);
    const training = await createTraining(t, trainer.token, exerciseIds.slice(0, 2));
    const plan = await createPlan(t, trainer.token, [training.id]);
    const follower = await new Follower(t, ana.token).start();

    let stop = false;
    const reader = (async () => {
      while (!stop) await follower.poll(9);
    })();
    const editor = async (app: TestApp) => {
      for (let round = 0; round < 6; round += 1) {
        const id = exerciseIds[round % exerciseIds.length];
        const current = await app.get(`/api/exercises/${id}`, { token: trainer.token });
        const renamed = await app.put(`/api/exercises/${id}`, { token: trainer.token, raw: exerciseForm({ ...current.body, name: `e${id} v${round}` }) });
        expect(renamed.status, renamed.text).toBe(200);
        const lines = [exerciseIds[round % 4], exerciseIds[(round + 1) % 4]];
        const edited = await app.put(`/api/trainings/${training.id}`, { token: trainer.token, body: trainingBody(lines, { name: `t v${round}` }) });
        expect(edited.status, edited.text).toBe(200);
      }
    };
    const assigner = async (app: TestApp) => {
      for (let round = 0; round < 4; round += 1) {
        const assignment = await assignPlan(app, trainer.token, plan.id, ana.id);
        if (round < 3) await moveAssignment(app, trainer.token, assignment.id, "cancel");
      }
    };
    try {
      await Promise.all([editor(t), editor(second), assigner(second), assigner(t)]);
    } finally {
      stop = true;
      await reader;
    }
    await follower.poll();

    await expectSameAsFreshSync(t, follower);
    // Two assignments stay live: the student sees the plan, the training and the exercises it holds now.
    const lines = (await t.get(`/api/trainings/${training.id}`, { token: ana.token })).body.exercises.map((line: { exerciseId: number }) => line.exerciseId);
    expect(follower.picture.keys("exercise")).toEqual([...new Set(lines)].map((id) => `exercise:${id}`).sort());
    expect(follower.picture.get("training", training.id)).toEqual((await t.get(`/api/trainings/${training.id}`, { token: ana.token })).body);
  });
});

describe("audiences and concurrent grants", () => {
  it.runIf(onPostgres)("an assignment waits for an edit in progress of the content it gives; the student then reads the edit", async () => {
    const trainer = await makeTrainer(t);
    const ana = await makeStudent(t);
    await linkTrainerAndStudent(t, trainer, ana);
    const exercise = await createExercise(t, trainer.token, { name: "Antes" });
    const plan = await createPlan(t, trainer.token, [(await createTraining(t, trainer.token, [exercise.id])).id]);
    const follower = await new Follower(t, ana.token).start();

    // An edit of the exercise, as ExerciseService.update makes it, that has computed its audience and not committed.
    const client = await openDatabase(serviceDatabase(await currentDatabase(), 1));
    let commit!: () => void;
    const released = new Promise<void>((resolve) => (commit = resolve));
    let editing!: () => void;
    const edited = new Promise<void>((resolve) => (editing = resolve));
    const edit = client.db.transaction(async (tx) => {
      await tx.execute(sql`select id from exercises where id = ${exercise.id} for update`);
      await tx.execute(sql`update exercises set name = 'Depois' where id = ${exercise.id}`);
      await recordAudience(tx, new Date(), "exercise", exerciseFeedAudience(sql`${exercise.id}`));
      editing();
      await released;
    });
    await edited;

    const assigning = assignPlan(second, trainer.token, plan.id, ana.id);
    // The grant waits for the edit's row lock (FOR SHARE of the content it gives)...
    await until(async () => {
      const [row] = rowsOf<{ n: number }>(
        await t.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`),
      );
      return row.n > 0;
    });
    commit();
    await edit;
    await client.close();
    await assigning;

    // ...so it gives the exercise as edited, whatever order the two are read in.
    await follower.poll();
    expect(follower.picture.get("exercise", exercise.id)).toMatchObject({ name: "Depois" });
    await expectSameAsFreshSync(t, follower);
  });
});

/** Waits until `condition` holds (checked every 20 ms, for 10 s at most). */
async function until(condition: () => Promise<boolean>) {
  for (let tries = 0; tries < 500; tries += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the condition never held");
}

async function currentDatabase(): Promise<string> {
  const [row] = rowsOf<{ name: string }>(await t.db.execute(sql`select current_database() as name`));
  return row.name;
}
