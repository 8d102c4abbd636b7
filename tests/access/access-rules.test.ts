import { and, inArray, type SQL } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { ActivityAccess } from "../../src/modules/access/activity-access.js";
import { exerciseVisibleTo, planVisibleTo, trainingExecutableBy, trainingVisibleTo } from "../../src/modules/access/content.js";
import { activityReadableBy } from "../../src/modules/access/links.js";
import { userReadableBy } from "../../src/modules/access/users.js";
import { exercises } from "../../src/tables/exercise.table.js";
import { trainings } from "../../src/tables/training.table.js";
import { trainingPlans } from "../../src/tables/training-plan.table.js";
import { users } from "../../src/tables/user.table.js";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent, moveAssignment } from "../factories/content.js";

// The rules of src/modules/access against real rows made through the endpoints: who may and who may not read. Each
// rule is asked as the SQL predicate reads embed, and (for the activity rule) as the TypeScript check, which must agree.
const t = useTestApp();

/** A trainer, its ACTIVE-linked student, a student and a trainer linked to nobody. */
let trainer: MadeUser, student: MadeUser, stranger: MadeUser, otherTrainer: MadeUser;
let linkId: number;
beforeEach(async () => {
  [trainer, student, stranger, otherTrainer] = [await makeTrainer(t), await makeStudent(t), await makeStudent(t), await makeTrainer(t)];
  linkId = await linkTrainerAndStudent(t, trainer, student);
});

const reader = (user: MadeUser) => ({ id: user.id, isAdmin: false });
const ADMIN = { id: -1, isAdmin: true };

/** Those of `ids` (rows of `table`) the condition keeps, in id order. */
async function kept(table: typeof users | typeof exercises | typeof trainings | typeof trainingPlans, ids: number[], condition: SQL | undefined) {
  const rows = await t.db
    .select({ id: table.id })
    .from(table)
    .where(and(inArray(table.id, ids), condition))
    .orderBy(table.id);
  return rows.map((row) => row.id);
}

describe("the activity rule (activityReadableBy, ActivityAccess)", () => {
  it("lets a user, its ACTIVE-linked trainer and administrators read its activity, and nobody else", async () => {
    const everyone = [trainer, student, stranger, otherTrainer].map((user) => user.id).sort((a, b) => a - b);
    const expected = new Map([
      [trainer, [trainer.id, student.id].sort((a, b) => a - b)],
      [student, [student.id]],
      [stranger, [stranger.id]],
      [otherTrainer, [otherTrainer.id]],
    ]);
    const access = new ActivityAccess({ db: t.db });
    for (const [user, readable] of expected) {
      expect(await kept(users, everyone, activityReadableBy(reader(user), users.id))).toEqual(readable);
      const answers = await access.mayReadActivities(everyone.map((id) => ({ reader: reader(user), userIds: [id] })));
      expect(everyone.filter((_, index) => answers[index])).toEqual(readable);
    }
    expect(await kept(users, everyone, activityReadableBy(ADMIN, users.id))).toEqual(everyone);
    expect(await access.mayReadActivities([{ reader: ADMIN, userIds: everyone }])).toEqual([true]);
  });

  it("refuses a trainer whose link ended", async () => {
    const access = new ActivityAccess({ db: t.db });
    expect((await t.delete(`/api/personal/students/${linkId}`, { token: trainer.token })).status).toBe(204);
    expect(await kept(users, [student.id], activityReadableBy(reader(trainer), users.id))).toEqual([]);
    expect(await access.isTrainerOf(trainer.id, student.id)).toBe(false);
  });
});

describe("reading a user in full (userReadableBy)", () => {
  it("lets the parties of an ACTIVE link read each other, and nobody else but administrators", async () => {
    const asked = [trainer.id, student.id].sort((a, b) => a - b);
    const as = (user: MadeUser, type: string) => userReadableBy({ id: user.id, userType: type, isAdmin: false });
    expect(await kept(users, asked, as(trainer, "PERSONAL"))).toEqual(asked);
    expect(await kept(users, asked, as(student, "ALUNO"))).toEqual(asked);
    expect(await kept(users, asked, as(stranger, "ALUNO"))).toEqual([]);
    expect(await kept(users, asked, as(otherTrainer, "PERSONAL"))).toEqual([]);
    expect(await kept(users, asked, userReadableBy({ ...ADMIN, userType: "PERSONAL" }))).toEqual(asked);
  });
});

describe("seeing content (exerciseVisibleTo, trainingVisibleTo, planVisibleTo, trainingExecutableBy)", () => {
  it("shows a student's private exercise to it and its ACTIVE-linked trainer only", async () => {
    const exercise = await createExercise(t, student.token, { isPublic: false });
    expect(await kept(exercises, [exercise.id], exerciseVisibleTo(reader(student)))).toEqual([exercise.id]);
    expect(await kept(exercises, [exercise.id], exerciseVisibleTo(reader(trainer)))).toEqual([exercise.id]);
    expect(await kept(exercises, [exercise.id], exerciseVisibleTo(reader(otherTrainer)))).toEqual([]);
    expect(await kept(exercises, [exercise.id], exerciseVisibleTo(reader(stranger)))).toEqual([]);
    expect(await kept(exercises, [exercise.id], exerciseVisibleTo(null))).toEqual([]);
    expect(exerciseVisibleTo(ADMIN)).toBeUndefined();
  });

  it("shows a trainer's private plan content to the student of a live assignment, until it ends", async () => {
    const exercise = await createExercise(t, trainer.token, { isPublic: false });
    const training = await createTraining(t, trainer.token, [exercise.id], { isPublic: false });
    const plan = await createPlan(t, trainer.token, [training.id], { isPublic: false });
    const assignment = await assignPlan(t, trainer.token, plan.id, student.id);

    for (const [user, sees] of [
      [student, true],
      [stranger, false],
      [otherTrainer, false],
    ] as const) {
      expect(await kept(exercises, [exercise.id], exerciseVisibleTo(reader(user)))).toEqual(sees ? [exercise.id] : []);
      expect(await kept(trainings, [training.id], trainingVisibleTo(reader(user)))).toEqual(sees ? [training.id] : []);
      expect(await kept(trainings, [training.id], trainingExecutableBy(user.id))).toEqual(sees ? [training.id] : []);
      expect(await kept(trainingPlans, [plan.id], planVisibleTo(reader(user)))).toEqual(sees ? [plan.id] : []);
    }
    expect(await kept(trainings, [training.id], trainingExecutableBy(trainer.id))).toEqual([training.id]);

    await moveAssignment(t, trainer.token, assignment.id, "cancel");
    expect(await kept(exercises, [exercise.id], exerciseVisibleTo(reader(student)))).toEqual([]);
    expect(await kept(trainings, [training.id], trainingVisibleTo(reader(student)))).toEqual([]);
    expect(await kept(trainings, [training.id], trainingExecutableBy(student.id))).toEqual([]);
    // A plan stays visible to each student it was ever assigned to, whatever the assignment's status (contract §5).
    expect(await kept(trainingPlans, [plan.id], planVisibleTo(reader(student)))).toEqual([plan.id]);
  });
});
