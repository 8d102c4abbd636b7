import { describe, expect, it } from "vitest";
import { planId, subscribeByCard } from "../factories/billing.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import { useSecondInstance, useTestApp } from "../helpers/test-app.js";
import { inviteRows, invited, linkRows, mailsTo, statuses } from "./support.js";

const t = useTestApp();
const second = useSecondInstance(t);

const LIMIT_REACHED = { message: "Você atingiu o limite de alunos para seu plano atual", success: false };

/** A trainer on Básico (5 students) who invites `n` students, then cancels at once: back to the free limit (2). */
async function downgradedTrainerWithInvites(n: number) {
  const trainer = await makeTrainer(t);
  const subscribed = await subscribeByCard(t, trainer, await planId(t, "Básico"));
  expect(subscribed.status, subscribed.text).toBe(201);
  const students: MadeUser[] = [];
  const inviteIds: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const student = await makeStudent(t);
    students.push(student);
    inviteIds.push(await invited(t, trainer, student));
  }
  const canceled = await t.post(`/api/subscriptions/${subscribed.body.id}/cancel`, { token: trainer.token, body: { cancelImmediately: true } });
  expect(canceled.status, canceled.text).toBe(200);
  await t.deliverMail();
  t.smtp.clear();
  return { trainer, students, inviteIds };
}

describe("the student limit on accepting an invite", () => {
  it("lets only 2 of 5 invites sent before a downgrade be accepted, also at once on two instances; the others stay PENDING", async () => {
    const { trainer, students, inviteIds } = await downgradedTrainerWithInvites(5);

    const results = await Promise.all(
      students.map((student, i) => (i % 2 === 0 ? t : second).post(`/api/students/invites/${inviteIds[i]}/accept`, { token: student.token })),
    );

    expect(statuses(results)).toEqual([200, 200, 422, 422, 422]);
    for (const res of results.filter((r) => r.status === 422)) expect(res.body).toEqual(LIMIT_REACHED);
    const links = await linkRows(t);
    expect(links.filter((link) => link.status === "ACTIVE")).toHaveLength(2);
    expect(links).toHaveLength(2);
    // A refused accept changes nothing: the invite still waits for the student (and counts against the limit).
    const byId = new Map((await inviteRows(t)).map((row) => [row.id, row.status]));
    results.forEach((res, i) => expect(byId.get(inviteIds[i])).toBe(res.status === 200 ? "ACCEPTED" : "PENDING"));
    expect(await mailsTo(t, trainer.email)).toHaveLength(2);
  });

  it("lets a refused invite be accepted once a link ends and frees a place", async () => {
    const { trainer, students, inviteIds } = await downgradedTrainerWithInvites(3);
    const [first] = await Promise.all([0, 1].map((i) => t.post(`/api/students/invites/${inviteIds[i]}/accept`, { token: students[i].token })));
    const refused = await second.post(`/api/students/invites/${inviteIds[2]}/accept`, { token: students[2].token });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(LIMIT_REACHED);

    expect((await t.delete(`/api/personal/students/${first.body.id}`, { token: trainer.token })).status).toBe(204);
    const accepted = await second.post(`/api/students/invites/${inviteIds[2]}/accept`, { token: students[2].token });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ personalId: trainer.id, studentId: students[2].id, status: "ACTIVE" });
    expect((await linkRows(t)).filter((link) => link.status === "ACTIVE")).toHaveLength(2);
  });
});
