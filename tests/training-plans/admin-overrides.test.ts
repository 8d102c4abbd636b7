import { describe, expect, it } from "vitest";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent, moveAssignment } from "../factories/content.js";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com" });

async function assignedPlan() {
  const trainer = await makeTrainer(t);
  const student = await makeStudent(t);
  const linkId = await linkTrainerAndStudent(t, trainer, student);
  const exercise = await createExercise(t, trainer.token);
  const training = await createTraining(t, trainer.token, [exercise.id]);
  const plan = await createPlan(t, trainer.token, [training.id]);
  const assignment = await assignPlan(t, trainer.token, plan.id, student.id);
  return { trainer, student, linkId, assignment };
}

describe("administrators pass ownership checks (contract §3)", () => {
  it("lets an administrator cancel and complete another trainer's assignment", async () => {
    const { student, assignment } = await assignedPlan();
    const boss = await makeTrainer(t, { email: "boss@example.com" });
    const stranger = await makeTrainer(t);
    const refused = await t.post(`/api/training-plans/assignments/${assignment.id}/cancel`, { token: stranger.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "Acesso negado", success: false });

    expect((await moveAssignment(t, student.token, assignment.id, "accept")).status).toBe("ACTIVE");
    const completed = await moveAssignment(t, boss.token, assignment.id, "complete");
    expect(completed.status).toBe("COMPLETED");

    const { assignment: other } = await assignedPlan();
    const canceled = await moveAssignment(t, boss.token, other.id, "cancel");
    expect(canceled).toEqual({ ...other, status: "CANCELED" });
    const listed = await t.get("/api/training-plans/assignments?sort=id,asc", { token: boss.token });
    expect(listed.body.content.map((item: { id: number; status: string }) => [item.id, item.status])).toEqual([
      [assignment.id, "COMPLETED"],
      [other.id, "CANCELED"],
    ]);
  });

  it("lets an administrator end another trainer's link, telling the student", async () => {
    const { student, linkId } = await assignedPlan();
    const boss = await makeTrainer(t, { email: "boss@example.com" });
    const stranger = await makeTrainer(t);
    expect((await t.delete(`/api/personal/students/${linkId}`, { token: stranger.token })).status).toBe(403);

    const removed = await t.delete(`/api/personal/students/${linkId}`, { token: boss.token });
    expect(removed.status).toBe(204);
    const links = await t.get("/api/students/personals?status=INACTIVE", { token: student.token });
    expect(links.body.content.map((link: { id: number }) => link.id)).toEqual([linkId]);
    await t.deliverMail();
    expect(t.smtp.to(student.email).map((mail) => mail.subject)).toContain("Vínculo encerrado");
  });
});
