import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DAY_MS } from "../../src/platform/dates.js";
import { rowsOf } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";
import { planId, subscribeByCard } from "../factories/billing.js";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent, moveAssignment, planBody, trainingBody } from "../factories/content.js";
import { logExerciseExecution, logTrainingExecution, setsOf, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, relogin, type MadeUser } from "../factories/users.js";
import { exerciseForm } from "../factories/content.js";
import { Follower, Picture, expectSameAsFreshSync, feedPage, keyOf, ops, readFeed } from "./support.js";

const t = useTestApp({ FREE_TRAINER_MAX_STUDENTS: "10" });

/** A trainer and its linked student, assigned a plan of one training of two of the trainer's exercises. */
async function coachedStudent() {
  const trainer = await makeTrainer(t, { name: "Bruno Lima" });
  const student = await makeStudent(t, { name: "Ana Souza" });
  const linkId = await linkTrainerAndStudent(t, trainer, student);
  const squat = await createExercise(t, trainer.token, { name: "Agachamento", isPublic: true });
  const row = await createExercise(t, trainer.token, { name: "Remada" });
  const training = await createTraining(t, trainer.token, [squat.id, row.id], { name: "Treino A" });
  const plan = await createPlan(t, trainer.token, [training.id], { name: "Plano Força" });
  const assignment = await assignPlan(t, trainer.token, plan.id, student.id);
  return { trainer, student, linkId, squat, row, training, plan, assignment };
}

/** The REST GET of an entity, as the caller reads it (listings' items where there is no GET by id). */
async function restDto(user: MadeUser, entity: string, id: number): Promise<any> {
  const get = async (url: string) => {
    const res = await t.get(url, { token: user.token });
    expect(res.status, `${url}: ${res.text}`).toBe(200);
    return res.body;
  };
  const item = async (url: string) => (await get(url)).content.find((found: { id: number }) => found.id === id);
  switch (entity) {
    case "profile":
      return get("/api/users/profile");
    case "exercise":
      return get(`/api/exercises/${id}`);
    case "training":
      return get(`/api/trainings/${id}`);
    case "trainingPlan":
      return get(`/api/training-plans/${id}`);
    case "planAssignment":
      return item("/api/training-plans/assignments?size=100");
    case "link":
      return item(user.user.userType === "PERSONAL" ? "/api/personal/students?size=100" : "/api/students/personals?size=100");
    case "invite":
      return item(user.user.userType === "PERSONAL" ? "/api/personal/invites?size=100" : "/api/students/invites?size=100");
    case "trainingExecution":
      return get(`/api/trainings/executions/${id}`);
    case "exerciseExecution":
      return item(`/api/exercises/executions/user/${user.id}?size=100`);
    case "subscription":
      return get(`/api/subscriptions/${id}`);
    default:
      throw new Error(entity);
  }
}

/** Every UPSERT of the picture carries what the REST GET of its entity answers now. */
async function expectRestShapes(user: MadeUser, picture: Picture) {
  for (const key of picture.keys()) {
    const [entity, id] = key.split(":");
    expect(picture.items.get(key), key).toEqual(await restDto(user, entity, Number(id)));
  }
}

async function changeRows(user: MadeUser): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from sync_changes where user_id = ${user.id}`));
  return row.n;
}

describe("GET /api/sync/changes without since: an initial sync", () => {
  it("lists every entity the student sees as UPSERT with its REST DTO, then a cursor with nothing new", async () => {
    const { trainer, student, linkId, squat, row, training, plan, assignment } = await coachedStudent();
    // Not the student's: the trainer's exercise outside the plan, another trainer's public exercise.
    await createExercise(t, trainer.token, { name: "Supino" });
    await createExercise(t, (await makeTrainer(t)).token, { name: "Terra", isPublic: true });
    const own = await createExercise(t, student.token, { name: "Prancha" });

    const { changes, cursor } = await readFeed(t, student.token);
    expect(changes.every((change) => change.op === "UPSERT")).toBe(true);
    const picture = new Picture().apply(changes);
    expect(picture.keys()).toEqual(
      [
        `profile:${student.id}`,
        `exercise:${squat.id}`,
        `exercise:${row.id}`,
        `exercise:${own.id}`,
        `training:${training.id}`,
        `trainingPlan:${plan.id}`,
        `planAssignment:${assignment.id}`,
        `link:${linkId}`,
        `invite:1`,
      ].sort(),
    );
    // In the order of the kinds, each by id: a client has what an entity refers to before it.
    expect(changes.map((change) => change.entity)).toEqual([
      "profile",
      "exercise",
      "exercise",
      "exercise",
      "training",
      "trainingPlan",
      "planAssignment",
      "link",
      "invite",
    ]);
    await expectRestShapes(student, picture);

    const next = await feedPage(t, student.token, cursor);
    expect(next).toMatchObject({ changes: [], hasMore: false });
  });

  it("lists the trainer's own content and both sides' executions and subscriptions", async () => {
    const { trainer, student, training, squat } = await coachedStudent();
    const supino = await createExercise(t, trainer.token, { name: "Supino" });
    const session = await logTrainingExecution(
      t,
      student.token,
      training.id,
      trainingExecutionBody("2030-01-01T10:00:00Z", 3600, [{ exerciseId: squat.id, sets: setsOf(3, { repetitions: 8, weight: 60, completed: true }) }]),
    );
    const single = await logExerciseExecution(t, student.token, squat.id, training.id, setsOf(2, { repetitions: 5, weight: 80, completed: true }));
    const subscribed = await subscribeByCard(t, student, await planId(t));
    expect(subscribed.status, subscribed.text).toBe(201);

    const mine = new Picture().apply((await readFeed(t, student.token)).changes);
    const inSession = session.exerciseExecutions[0].id;
    expect(mine.keys("trainingExecution")).toEqual([`trainingExecution:${session.id}`]);
    expect(mine.keys("exerciseExecution")).toEqual([`exerciseExecution:${inSession}`, `exerciseExecution:${single.id}`].sort());
    expect(mine.keys("subscription")).toEqual([`subscription:${subscribed.body.id}`]);
    expect(mine.get("profile", student.id).subscriptionType).toBe("PREMIUM_MENSAL");
    await expectRestShapes(student, mine);

    const theirs = new Picture().apply((await readFeed(t, trainer.token)).changes);
    expect(theirs.keys("exercise")).toContain(`exercise:${supino.id}`);
    expect(theirs.keys("trainingExecution")).toEqual([]);
    expect(theirs.keys("profile")).toEqual([`profile:${trainer.id}`]);
    await expectRestShapes(trainer, theirs);
  });

  it("pages by limit with hasMore, each entity once, and ends where one page of 500 ends", async () => {
    const ana = await makeStudent(t);
    for (let i = 0; i < 7; i += 1) await createExercise(t, ana.token);
    const whole = await readFeed(t, ana.token, undefined, 500);
    expect(whole.pages).toBe(1);

    const sizes: number[] = [];
    const seen: string[] = [];
    let page = await feedPage(t, ana.token, undefined, 2);
    for (;;) {
      sizes.push(page.changes.length);
      seen.push(...page.changes.map(keyOf));
      if (!page.hasMore) break;
      page = await feedPage(t, ana.token, page.cursor, 2);
    }
    expect(sizes.every((size) => size <= 2)).toBe(true);
    expect(seen).toEqual(whole.changes.map(keyOf));
    expect(new Set(seen).size).toBe(8);
    // Both end on a cursor that hands out what changes next, once.
    const later = await createExercise(t, ana.token);
    expect(ops((await readFeed(t, ana.token, page.cursor)).changes)).toEqual([`UPSERT exercise:${later.id}`]);
    expect(ops((await readFeed(t, ana.token, whole.cursor)).changes)).toEqual([`UPSERT exercise:${later.id}`]);
  });

  it("hands out what changes while it is listing as changes after the listing", async () => {
    const ana = await makeStudent(t);
    const first = await createExercise(t, ana.token);
    const second = await createExercise(t, ana.token);
    const page = await feedPage(t, ana.token, undefined, 2); // the profile and the first exercise
    expect(ops(page.changes)).toEqual([`UPSERT profile:${ana.id}`, `UPSERT exercise:${first.id}`]);
    // Meanwhile: the first is edited (already listed), the second deleted (not listed yet), a third created.
    await t.put(`/api/exercises/${first.id}`, { token: ana.token, raw: exerciseForm({ ...first, name: "Renomeado" }) });
    expect((await t.delete(`/api/exercises/${second.id}`, { token: ana.token })).status).toBe(204);
    const third = await createExercise(t, ana.token);

    const follower = new Follower(t, ana.token);
    follower.picture.apply(page.changes);
    follower.cursor = page.cursor;
    await follower.poll();
    // Caught up when hasMore is false: nothing more comes.
    expect(await follower.poll()).toEqual([]);
    expect(follower.picture.keys()).toEqual([`exercise:${first.id}`, `exercise:${third.id}`, `profile:${ana.id}`].sort());
    expect(follower.picture.get("exercise", first.id).name).toBe("Renomeado");
    await expectSameAsFreshSync(t, follower);
  });
});

describe("GET /api/sync/changes with since: each write through REST reaches the feed", () => {
  it("profile, exercise, training and plan: UPSERT with the REST DTO on create and update, DELETE on delete", async () => {
    const coach = await makeTrainer(t);
    const follower = await new Follower(t, coach.token).start();

    expect((await t.put("/api/users/profile", { token: coach.token, body: { phone: "11999990000", weight: 80 } })).status).toBe(200);
    const exercise = await createExercise(t, coach.token, { name: "Agachamento" });
    const training = await createTraining(t, coach.token, [exercise.id]);
    const plan = await createPlan(t, coach.token, [training.id]);
    expect(ops(await follower.poll())).toEqual([
      `UPSERT profile:${coach.id}`,
      `UPSERT exercise:${exercise.id}`,
      `UPSERT training:${training.id}`,
      `UPSERT trainingPlan:${plan.id}`,
    ]);
    expect(follower.picture.get("profile", coach.id).phone).toBe("11999990000");
    await expectRestShapes(coach, follower.picture);

    const renamed = await t.put(`/api/exercises/${exercise.id}`, { token: coach.token, raw: exerciseForm({ ...exercise, name: "Agachamento livre" }) });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await t.put(`/api/trainings/${training.id}`, { token: coach.token, body: trainingBody([exercise.id], { name: "Treino B" }) })).status).toBe(200);
    expect((await t.put(`/api/training-plans/${plan.id}`, { token: coach.token, body: planBody([training.id], { name: "Plano B" }) })).status).toBe(200);
    const updates = await follower.poll();
    // The training shows the exercise's new name, the plan the training's: each is heard of again with them.
    expect(new Set(ops(updates))).toEqual(new Set([`UPSERT exercise:${exercise.id}`, `UPSERT training:${training.id}`, `UPSERT trainingPlan:${plan.id}`]));
    expect(follower.picture.get("training", training.id).exercises[0].exerciseName).toBe("Agachamento livre");
    expect(follower.picture.get("trainingPlan", plan.id).trainings[0].trainingName).toBe("Treino B");
    await expectRestShapes(coach, follower.picture);

    expect((await t.delete(`/api/training-plans/${plan.id}`, { token: coach.token })).status).toBe(204);
    expect((await t.delete(`/api/trainings/${training.id}`, { token: coach.token })).status).toBe(204);
    expect((await t.delete(`/api/exercises/${exercise.id}`, { token: coach.token })).status).toBe(204);
    expect(ops(await follower.poll())).toEqual([`DELETE trainingPlan:${plan.id}`, `DELETE training:${training.id}`, `DELETE exercise:${exercise.id}`]);
    expect(follower.picture.keys()).toEqual([`profile:${coach.id}`]);
    await expectSameAsFreshSync(t, follower);
  });

  it("a plan's edit reaches its creator when no assignment of it is live: never assigned, or its assignment ended", async () => {
    const { trainer, student, squat, training, plan, assignment } = await coachedStudent();
    const bare = await createPlan(t, trainer.token, [training.id], { name: "Plano sem aluno" });
    const other = await createTraining(t, trainer.token, [squat.id], { name: "Treino C" });
    const coach = await new Follower(t, trainer.token).start();

    // Never assigned: a new name and one more training (the training itself unchanged, so nothing else is heard of).
    const edited = await t.put(`/api/training-plans/${bare.id}`, { token: trainer.token, body: planBody([training.id, other.id], { name: "Plano editado" }) });
    expect(edited.status, edited.text).toBe(200);
    expect(ops(await coach.poll())).toEqual([`UPSERT trainingPlan:${bare.id}`]);
    expect(coach.picture.get("trainingPlan", bare.id)).toEqual(edited.body);

    // Its training removed again.
    expect((await t.put(`/api/training-plans/${bare.id}`, { token: trainer.token, body: planBody([other.id], { name: "Plano editado" }) })).status).toBe(200);
    expect(ops(await coach.poll())).toEqual([`UPSERT trainingPlan:${bare.id}`]);
    expect(coach.picture.get("trainingPlan", bare.id).trainings.map((item: { trainingId: number }) => item.trainingId)).toEqual([other.id]);

    // Its only assignment canceled: the student no longer hears of it, its creator still does.
    await moveAssignment(t, student.token, assignment.id, "cancel");
    await coach.poll();
    const ana = await new Follower(t, student.token).start();
    expect((await t.put(`/api/training-plans/${plan.id}`, { token: trainer.token, body: planBody([training.id], { name: "Plano Força 2" }) })).status).toBe(
      200,
    );
    expect(ops(await coach.poll())).toEqual([`UPSERT trainingPlan:${plan.id}`, `UPSERT planAssignment:${assignment.id}`]);
    expect(coach.picture.get("trainingPlan", plan.id).name).toBe("Plano Força 2");
    expect(ops(await ana.poll())).toEqual([`UPSERT planAssignment:${assignment.id}`]);
    await expectRestShapes(trainer, coach.picture);
    await expectSameAsFreshSync(t, coach);
  });

  it("invites and links: both parties hear of them, each in its own listing's shape", async () => {
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const student = await makeStudent(t, { name: "Ana Souza" });
    const [coach, ana] = [await new Follower(t, trainer.token).start(), await new Follower(t, student.token).start()];

    const sent = await t.post("/api/personal/students/invite", { token: trainer.token, body: { studentEmail: student.email } });
    expect(sent.status).toBe(201);
    expect(ops(await coach.poll())).toEqual([`UPSERT invite:${sent.body.id}`]);
    expect(ops(await ana.poll())).toEqual([`UPSERT invite:${sent.body.id}`]);
    expect(coach.picture.get("invite", sent.body.id)).toHaveProperty("studentEmail", student.email);
    expect(ana.picture.get("invite", sent.body.id)).toHaveProperty("personalEmail", trainer.email);

    const accepted = await t.post(`/api/students/invites/${sent.body.id}/accept`, { token: student.token });
    expect(accepted.status).toBe(200);
    for (const side of [coach, ana]) {
      expect(ops(await side.poll())).toEqual([`UPSERT invite:${sent.body.id}`, `UPSERT link:${accepted.body.id}`]);
      expect(side.picture.get("invite", sent.body.id).status).toBe("ACCEPTED");
    }
    await expectRestShapes(trainer, coach.picture);
    await expectRestShapes(student, ana.picture);

    // A rename shows in the other party's link and invite.
    expect((await t.patch(`/api/users/${trainer.id}`, { token: trainer.token, body: { name: "Bruno L." } })).status).toBe(200);
    expect(ops(await coach.poll())).toEqual([`UPSERT profile:${trainer.id}`, `UPSERT link:${accepted.body.id}`, `UPSERT invite:${sent.body.id}`]);
    await ana.poll();
    expect(ana.picture.get("link", accepted.body.id).personalName).toBe("Bruno L.");
    expect(ana.picture.get("invite", sent.body.id).personalName).toBe("Bruno L.");
    await expectRestShapes(student, ana.picture);

    // A removed link is one neither party sees any more.
    expect((await t.delete(`/api/students/personals/${accepted.body.id}`, { token: student.token })).status).toBe(204);
    expect(ops(await coach.poll())).toEqual([`DELETE link:${accepted.body.id}`]);
    expect(ops(await ana.poll())).toEqual([`DELETE link:${accepted.body.id}`]);
    await expectSameAsFreshSync(t, coach);
    await expectSameAsFreshSync(t, ana);
  });

  it("invites answered, rejected or swept as EXPIRED by the job", async () => {
    const trainer = await makeTrainer(t);
    const [ana, bia] = [await makeStudent(t), await makeStudent(t)];
    const coach = await new Follower(t, trainer.token).start();
    const toAna = (await t.post("/api/personal/students/invite", { token: trainer.token, body: { studentEmail: ana.email } })).body.id;
    const toBia = (await t.post("/api/personal/students/invite", { token: trainer.token, body: { studentEmail: bia.email } })).body.id;
    const biaFeed = await new Follower(t, bia.token).start();
    await coach.poll();

    expect((await t.post(`/api/students/invites/${toAna}/reject`, { token: ana.token })).status).toBe(200);
    t.clock.advance(8 * DAY_MS);
    expect(await t.app.services.invites.expireInvites()).toBe(1);
    await relogin(t, trainer, bia);
    coach.token = trainer.token;
    biaFeed.token = bia.token;
    expect(ops(await coach.poll())).toEqual([`UPSERT invite:${toAna}`, `UPSERT invite:${toBia}`]);
    expect(coach.picture.get("invite", toAna).status).toBe("REJECTED");
    expect(coach.picture.get("invite", toBia).status).toBe("EXPIRED");
    expect(ops(await biaFeed.poll())).toEqual([`UPSERT invite:${toBia}`]);
    expect(biaFeed.picture.get("invite", toBia).status).toBe("EXPIRED");
  });

  it("assignments: both parties hear of each transition; the student gets the plan's content and loses it when it ends", async () => {
    const { trainer, student, squat, row, training, plan, assignment } = await coachedStudent();
    const [coach, ana] = [await new Follower(t, trainer.token).start(), await new Follower(t, student.token).start()];
    const content = [`exercise:${squat.id}`, `exercise:${row.id}`, `training:${training.id}`, `trainingPlan:${plan.id}`];
    expect(ana.picture.keys().filter((key) => content.includes(key))).toEqual(content.sort());

    await moveAssignment(t, student.token, assignment.id, "accept");
    expect(ops(await ana.poll())).toEqual([`UPSERT planAssignment:${assignment.id}`]);
    expect(ana.picture.get("planAssignment", assignment.id).status).toBe("ACTIVE");

    await moveAssignment(t, student.token, assignment.id, "cancel");
    const lost = await ana.poll();
    expect(new Set(ops(lost))).toEqual(
      new Set([
        `UPSERT planAssignment:${assignment.id}`,
        `DELETE trainingPlan:${plan.id}`,
        `DELETE training:${training.id}`,
        `DELETE exercise:${squat.id}`,
        `DELETE exercise:${row.id}`,
      ]),
    );
    expect(ana.picture.get("planAssignment", assignment.id).status).toBe("CANCELED");
    expect(ana.picture.keys().filter((key) => content.includes(key))).toEqual([]);
    // The trainer still sees its plan and content: created by it.
    await coach.poll();
    expect(coach.picture.keys().filter((key) => content.includes(key))).toEqual(content.sort());
    expect(coach.picture.get("planAssignment", assignment.id).status).toBe("CANCELED");
    await expectSameAsFreshSync(t, ana);
    await expectSameAsFreshSync(t, coach);
    await expectRestShapes(student, ana.picture);
  });

  it("a plan another live assignment still gives stays UPSERT when one assignment ends", async () => {
    const { trainer, student, plan, assignment } = await coachedStudent();
    const second = await assignPlan(t, trainer.token, plan.id, student.id);
    const ana = await new Follower(t, student.token).start();
    await moveAssignment(t, trainer.token, assignment.id, "cancel");
    const changes = await ana.poll();
    expect(changes.filter((change) => change.entity !== "planAssignment").every((change) => change.op === "UPSERT")).toBe(true);
    expect(ana.picture.get("trainingPlan", plan.id)).toBeDefined();
    expect(ana.picture.get("planAssignment", second.id).status).toBe("PENDING");
    await expectSameAsFreshSync(t, ana);
  });

  it("the completion job ends an assignment past its end: DELETE of its content for the student", async () => {
    t.clock.set(new Date("2030-03-04T09:00:00Z"));
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    await linkTrainerAndStudent(t, trainer, student);
    const exercise = await createExercise(t, trainer.token);
    const training = await createTraining(t, trainer.token, [exercise.id]);
    const plan = await createPlan(t, trainer.token, [training.id], { duration: 1 });
    const assignment = await assignPlan(t, trainer.token, plan.id, student.id, { startDate: "2030-03-04" });
    await moveAssignment(t, student.token, assignment.id, "accept");
    const ana = await new Follower(t, student.token).start();
    expect(ana.picture.get("training", training.id)).toBeDefined();

    t.clock.set(new Date("2030-03-12T01:00:00Z"));
    expect(await t.app.services.planAssignments.completeEnded()).toBe(1);
    await relogin(t, student);
    ana.token = student.token;
    expect(new Set(ops(await ana.poll()))).toEqual(
      new Set([`UPSERT planAssignment:${assignment.id}`, `DELETE trainingPlan:${plan.id}`, `DELETE training:${training.id}`, `DELETE exercise:${exercise.id}`]),
    );
    expect(ana.picture.get("planAssignment", assignment.id).status).toBe("COMPLETED");
    await expectSameAsFreshSync(t, ana);
  });

  it("edits of a live plan's trainings reach the student: a dropped training is DELETE, an added exercise UPSERT", async () => {
    const { trainer, student, squat, row, training, plan } = await coachedStudent();
    const lunge = await createExercise(t, trainer.token, { name: "Avanço" });
    const other = await createTraining(t, trainer.token, [lunge.id], { name: "Treino B" });
    const ana = await new Follower(t, student.token).start();

    // The training takes up an exercise: the student sees it.
    const plank = await createExercise(t, trainer.token, { name: "Prancha" });
    expect((await t.put(`/api/trainings/${training.id}`, { token: trainer.token, body: trainingBody([squat.id, row.id, plank.id]) })).status).toBe(200);
    await ana.poll();
    expect(ana.picture.get("exercise", plank.id)).toEqual(await restDto(student, "exercise", plank.id));
    expect(ana.picture.get("training", training.id).exercises).toHaveLength(3);

    // The plan swaps its training: the old one and its exercises leave the student's feed, the new one comes.
    expect((await t.put(`/api/training-plans/${plan.id}`, { token: trainer.token, body: planBody([other.id]) })).status).toBe(200);
    const swapped = await ana.poll();
    for (const key of [`training:${training.id}`, `exercise:${squat.id}`, `exercise:${row.id}`, `exercise:${plank.id}`]) {
      expect(ops(swapped)).toContain(`DELETE ${key}`);
    }
    expect(ana.picture.keys("training")).toEqual([`training:${other.id}`]);
    expect(ana.picture.keys("exercise")).toEqual([`exercise:${lunge.id}`]);
    await expectSameAsFreshSync(t, ana);
    await expectRestShapes(student, ana.picture);
  });

  it("executions: UPSERT when logged; a deleted training leaves them with a null trainingId", async () => {
    const ana = await makeStudent(t);
    const exercise = await createExercise(t, ana.token);
    const training = await createTraining(t, ana.token, [exercise.id]);
    const follower = await new Follower(t, ana.token).start();
    const session = await logTrainingExecution(
      t,
      ana.token,
      training.id,
      trainingExecutionBody("2030-01-02T10:00:00Z", 1800, [{ exerciseId: exercise.id, sets: setsOf(2, { repetitions: 10, weight: 20, completed: true }) }]),
    );
    const single = await logExerciseExecution(t, ana.token, exercise.id, training.id, setsOf(1, { repetitions: 10, weight: 25, completed: true }));
    const inSession = session.exerciseExecutions[0].id;
    expect(ops(await follower.poll())).toEqual([
      `UPSERT trainingExecution:${session.id}`,
      `UPSERT exerciseExecution:${inSession}`,
      `UPSERT exerciseExecution:${single.id}`,
    ]);
    await expectRestShapes(ana, follower.picture);

    expect((await t.delete(`/api/trainings/${training.id}`, { token: ana.token })).status).toBe(204);
    expect(new Set(ops(await follower.poll()))).toEqual(
      new Set([
        `DELETE training:${training.id}`,
        `UPSERT trainingExecution:${session.id}`,
        `UPSERT exerciseExecution:${inSession}`,
        `UPSERT exerciseExecution:${single.id}`,
      ]),
    );
    expect(follower.picture.get("trainingExecution", session.id).trainingId).toBeNull();
    expect(follower.picture.get("exerciseExecution", single.id).trainingId).toBeNull();

    expect((await t.delete(`/api/exercises/${exercise.id}`, { token: ana.token })).status).toBe(204);
    await follower.poll();
    expect(follower.picture.get("exerciseExecution", single.id).exerciseId).toBeNull();
    expect(follower.picture.get("trainingExecution", session.id).exerciseExecutions[0].exerciseId).toBeNull();
    await expectRestShapes(ana, follower.picture);
    await expectSameAsFreshSync(t, follower);
  });

  it("subscriptions: a PIX checkout, its cancellation, a card checkout and the profile's access with it", async () => {
    const ana = await makeStudent(t);
    const follower = await new Follower(t, ana.token).start();
    const pix = await t.post("/api/subscriptions", { token: ana.token, body: { planId: await planId(t), paymentMethod: "PIX" } });
    expect(pix.status, pix.text).toBe(201);
    expect(ops(await follower.poll())).toEqual([`UPSERT subscription:${pix.body.id}`]);
    expect(follower.picture.get("subscription", pix.body.id).status).toBe("PENDING");

    const canceled = await t.post(`/api/subscriptions/${pix.body.id}/cancel`, { token: ana.token, body: { cancelImmediately: true } });
    expect(canceled.status, canceled.text).toBe(200);
    await follower.poll();
    expect(follower.picture.get("subscription", pix.body.id).status).toBe("CANCELED");

    const card = await subscribeByCard(t, ana, await planId(t, "Trimestral"));
    expect(card.status, card.text).toBe(201);
    await follower.poll();
    expect(follower.picture.get("subscription", card.body.id).status).toBe("ACTIVE");
    expect(follower.picture.get("profile", ana.id).subscriptionType).toBe("PREMIUM_TRIMESTRAL");
    await expectRestShapes(ana, follower.picture);
    await expectSameAsFreshSync(t, follower);
  });

  it("someone else's writes reach only those who see them", async () => {
    const { trainer, student } = await coachedStudent();
    const stranger = await makeStudent(t);
    const [ana, other] = [await new Follower(t, student.token).start(), await new Follower(t, stranger.token).start()];
    await createExercise(t, trainer.token, { name: "Fora do plano", isPublic: true });
    await createExercise(t, stranger.token);
    expect(await ana.poll()).toEqual([]);
    expect(await other.poll()).toHaveLength(1);
  });
});

describe("GET /api/sync/changes: cursors and limits", () => {
  it("answers 401 without a token", async () => {
    expect((await t.get("/api/sync/changes")).status).toBe(401);
  });

  it("answers 400 Parâmetro inválido: since for a cursor that does not parse, was altered or is another user's", async () => {
    const ana = await makeStudent(t);
    const bia = await makeStudent(t);
    const { cursor } = await readFeed(t, ana.token);
    const altered = cursor.slice(0, -2) + (cursor.at(-2) === "A" ? "B" : "A") + cursor.at(-1);
    for (const since of ["", "abc", "%00", "!!!!", altered, Buffer.from("1.x.1.0.0").toString("base64url"), "A".repeat(5000)]) {
      const res = await t.get(`/api/sync/changes?since=${encodeURIComponent(since)}`, { invalidRequest: true, token: ana.token });
      expect(res.status, since).toBe(400);
      expect(res.body).toEqual({ message: "Parâmetro inválido: since", success: false });
    }
    const stolen = await t.get(`/api/sync/changes?since=${cursor}`, { token: bia.token });
    expect(stolen.status).toBe(400);
    expect((await t.get(`/api/sync/changes?since=${cursor}&since=${cursor}`, { invalidRequest: true, token: ana.token })).status).toBe(400);
  });

  it("takes a limit of 1 to 500 (100 by default), else 400 Parâmetro inválido: limit", async () => {
    const ana = await makeStudent(t);
    for (let i = 0; i < 101; i += 1) await t.app.services.exercises.create({ kind: "user", id: ana.id, userType: "ALUNO", isAdmin: false } as never, upload(i));
    const byDefault = await feedPage(t, ana.token);
    expect(byDefault.changes).toHaveLength(100);
    expect(byDefault.hasMore).toBe(true);
    expect((await feedPage(t, ana.token, undefined, 500)).changes).toHaveLength(102);
    expect((await feedPage(t, ana.token, undefined, 1)).changes).toHaveLength(1);
    for (const limit of ["0", "501", "-1", "1.5", "abc", "", "99999"]) {
      const res = await t.get(`/api/sync/changes?limit=${limit}`, { invalidRequest: true, token: ana.token });
      expect(res.status, limit).toBe(400);
      expect(res.body).toEqual({ message: "Parâmetro inválido: limit", success: false });
    }
  });

  it("answers 410 for a cursor not caught up within 90 days; the pruning job drops older changes, younger ones stay", async () => {
    const ana = await makeStudent(t);
    const { cursor: old } = await readFeed(t, ana.token);
    const listing = await feedPage(t, ana.token, undefined, 1);
    expect(listing.hasMore).toBe(true);
    await createExercise(t, ana.token);

    t.clock.advance(89 * DAY_MS);
    await relogin(t, ana);
    expect(await t.app.services.changeFeed.prune()).toBe(0);
    const young = await readFeed(t, ana.token, old);
    expect(young.changes).toHaveLength(1);
    const rowsBefore = await changeRows(ana);

    t.clock.advance(2 * DAY_MS); // 91 days after `old`, 2 after `young`
    await relogin(t, ana);
    for (const since of [old, listing.cursor]) {
      const gone = await t.get(`/api/sync/changes?since=${since}`, { token: ana.token });
      expect(gone.status).toBe(410);
      expect(gone.body).toEqual({ message: "Cursor expirado; sincronize novamente sem since", success: false });
    }
    expect((await readFeed(t, ana.token, young.cursor)).changes).toEqual([]);

    // The job keeps a day past the 90: on day 92 the first changes go.
    expect(await t.app.services.changeFeed.prune()).toBe(0);
    t.clock.advance(DAY_MS + 1);
    await relogin(t, ana);
    const fresh = await createExercise(t, ana.token);
    expect(await t.app.services.changeFeed.prune()).toBe(rowsBefore);
    expect(await changeRows(ana)).toBe(1);
    expect(ops((await readFeed(t, ana.token, young.cursor)).changes)).toEqual([`UPSERT exercise:${fresh.id}`]);
    // Starting over works.
    expect(ops((await readFeed(t, ana.token)).changes)).toHaveLength(3); // the profile and two exercises
  });
});

describe("GraphQL changes(since, limit)", () => {
  const CHANGES = `query ($since: String, $limit: Int) { changes(since: $since, limit: $limit) { changes { entity id op changedAt data } cursor hasMore } }`;

  it("answers what REST answers", async () => {
    const { student, squat } = await coachedStudent();
    const rest = await readFeed(t, student.token, undefined, 3);
    let since: string | undefined;
    const changes: unknown[] = [];
    for (;;) {
      const body = await t.graphql(CHANGES, { since, limit: 3 }, student.token);
      expect(body.errors).toBeUndefined();
      changes.push(...body.data.changes.changes);
      since = body.data.changes.cursor;
      if (!body.data.changes.hasMore) break;
    }
    expect(changes).toEqual(rest.changes);
    await t.put(`/api/exercises/${squat.id}`, { token: student.token, raw: exerciseForm({ ...squat, name: "x" }) }); // 403: not hers
    const body = await t.graphql(CHANGES, { since }, student.token);
    const viaRest = await feedPage(t, student.token, since);
    // Not the cursors: each names where its read caught up, which other transactions of the server move.
    expect(body.data.changes.changes).toEqual(viaRest.changes);
    expect(body.data.changes.hasMore).toBe(viaRest.hasMore);
  });

  it("gives the same errors", async () => {
    const ana = await makeStudent(t);
    const bad = await t.graphql(CHANGES, { since: "nope" }, ana.token);
    expect(bad.errors?.[0]).toMatchObject({ message: "Parâmetro inválido: since", extensions: { code: "BAD_USER_INPUT", status: 400 } });
    const limit = await t.graphql(CHANGES, { limit: 501 }, ana.token);
    expect(limit.errors?.[0]).toMatchObject({ message: "Parâmetro inválido: limit", extensions: { status: 400 } });
    const { cursor } = await readFeed(t, ana.token);
    t.clock.advance(91 * DAY_MS);
    await relogin(t, ana);
    const gone = await t.graphql(CHANGES, { since: cursor }, ana.token);
    expect(gone.errors?.[0]).toMatchObject({ message: "Cursor expirado; sincronize novamente sem since", extensions: { code: "GONE", status: 410 } });
    const anonymous = await t.graphql(CHANGES, {});
    expect(anonymous.errors?.[0].extensions.status).toBe(401);
  });
});

describe("reading the feed", () => {
  /** The SQL statements of one request. */
  async function statementsOf(request: () => Promise<unknown>) {
    let statements = 0;
    const stop = t.database.observeQueries(() => {
      statements += 1;
    });
    try {
      await request();
    } finally {
      stop();
    }
    return statements;
  }

  it("takes as many statements for a page of 200 changes of every kind as for one of 20", async () => {
    async function userWithHistory(n: number) {
      const { trainer, student, training, squat } = await coachedStudent();
      const follower = await new Follower(t, student.token).start();
      for (let i = 0; i < n; i += 1) {
        await logTrainingExecution(
          t,
          student.token,
          training.id,
          trainingExecutionBody(new Date(Date.UTC(2030, 0, 1 + i)), 600, [{ exerciseId: squat.id, sets: setsOf(2, { repetitions: 5, completed: true }) }]),
        );
        await createExercise(t, student.token);
      }
      await t.patch(`/api/users/${trainer.id}`, { token: trainer.token, body: { name: `Treinador ${n}` } });
      await subscribeByCard(t, student, await planId(t));
      await feedPage(t, student.token, follower.cursor); // the session is cached: what is measured is the feed's own
      return follower;
    }
    const [few, many] = [await userWithHistory(5), await userWithHistory(60)];
    const [small, large] = [await feedPage(t, few.token, few.cursor, 500), await feedPage(t, many.token, many.cursor, 500)];
    expect(small.changes.length).toBeLessThan(25);
    expect(large.changes.length).toBeGreaterThan(180);
    expect(new Set(large.changes.map((change) => change.entity))).toEqual(new Set(new Set(small.changes.map((change) => change.entity))));
    const following = [await statementsOf(() => feedPage(t, few.token, few.cursor, 500)), await statementsOf(() => feedPage(t, many.token, many.cursor, 500))];
    expect(following[0]).toBe(following[1]);
    const listing = [await statementsOf(() => feedPage(t, few.token, undefined, 500)), await statementsOf(() => feedPage(t, many.token, undefined, 500))];
    expect(listing[0]).toBe(listing[1]);
  });
});

/** A minimal exercise upload for the service (no image). */
function upload(i: number) {
  return {
    readExercise: async () => ({ name: `Exercício ${i}`, description: "d", category: "PEITO" as const, isPublic: false, instructions: [], muscleGroups: [] }),
    readFile: async () => undefined,
  };
}
