import { z } from "zod";
import { isOwnerOrAdmin, requireTrainer } from "../access/ownership.js";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { conflict, forbidden, notFound } from "../../platform/errors.js";
import { toPage, type Page } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import type { ActivityAccess } from "../access/activity-access.js";
import type { UserService } from "../users/user.service.js";
import type { AssignInput, AssignmentListQuery } from "./training-plan.inputs.js";
import { type PlanAssignmentDto, planAssignmentSchema } from "./training-plan.dto.js";
import { trainingPlanRepository, type AssignmentRecord } from "./training-plan.repository.js";
import type { AssignmentStatus } from "../../tables/training-plan.table.js";
import { PLAN_NOT_FOUND, TRAINERS_ONLY, type TrainingPlanService } from "./training-plan.service.js";
import { DAY_MS } from "../../platform/dates.js";
import { emit, type DomainEventOf } from "../events/emit.js";
import type { FeedSource } from "../events/feed-source.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

const STUDENT_NOT_LINKED = "Aluno não vinculado a este personal";
const ASSIGNMENT_NOT_FOUND = "Atribuição não encontrada";
const INVALID_TRANSITION = "Transição de status inválida";

export type { PlanAssignmentDto };

/** The transitions of contract §5: who may ask, from which states. */
const TRANSITIONS: Record<"accept" | "cancel" | "complete", { by: ("student" | "trainer")[]; from: AssignmentStatus[]; to: AssignmentStatus }> = {
  accept: { by: ["student"], from: ["PENDING"], to: "ACTIVE" },
  cancel: { by: ["student", "trainer"], from: ["PENDING", "ACTIVE"], to: "CANCELED" },
  complete: { by: ["trainer"], from: ["ACTIVE"], to: "COMPLETED" },
};

/** What the data export holds of this module (contract §15). */
const planAssignmentExport = z.object({ planAssignments: z.array(planAssignmentSchema).describe("The plans assigned to the user, or by the user") });

/** Assigning plans to linked students, and the life of an assignment. */
export class PlanAssignmentService {
  constructor(private readonly deps: { db: Db; clock: Clock; plans: TrainingPlanService; access: ActivityAccess; users: UserService }) {}

  /**
   * A trainer assigns a plan to an ACTIVE-linked student; PENDING until the student accepts. Another trainer's plan
   * is assigned as the assigning trainer's own copy (TrainingPlanService.planToAssign).
   */
  async assign(actor: Actor, planId: number, readInput: InputReader<AssignInput>): Promise<PlanAssignmentDto> {
    const trainer = requireTrainer(actor, TRAINERS_ONLY);
    const input = readInput();
    const { db, clock } = this.deps;
    await this.deps.plans.loadVisible(trainer, planId);
    const student = await this.deps.users.getStudent(input.studentId);
    if (!(await this.deps.access.isTrainerOf(trainer.id, student.id))) throw forbidden(STUDENT_NOT_LINKED);
    const now = clock.now();
    const startDate = input.startDate ?? now.toISOString().slice(0, 10);
    const id = await db.transaction(async (tx) => {
      // Under the plan's row lock, a concurrent delete cannot remove the plan under a new assignment (a delete that
      // got there first, after the visibility check above, leaves no plan); another trainer's plan is copied.
      const plan = await this.deps.plans.planToAssign(tx, trainer.id, planId, now);
      if (!plan) throw notFound(PLAN_NOT_FOUND);
      await this.deps.plans.lockContent(tx, plan.id);
      const endDate = plan.durationWeeks ? addDays(startDate, plan.durationWeeks * 7 - 1) : null;
      const assignmentId = await trainingPlanRepository.insertAssignment(tx, {
        planId: plan.id,
        studentId: student.id,
        personalId: trainer.id,
        status: "PENDING",
        assignedAt: now,
        startDate,
        endDate,
        notes: input.notes ?? null,
        updatedAt: now,
      });
      await emit(tx, now, ...(await assignmentEvents(tx, [assignmentId])));
      return assignmentId;
    });
    return (await trainingPlanRepository.findAssignment(db, id))!;
  }

  /** The assignments the caller sees: a trainer's own, a student's own, administrators all. */
  async list(actor: Actor, readQuery: InputReader<AssignmentListQuery>): Promise<Page<PlanAssignmentDto>> {
    const caller = requireUser(actor);
    const { filter, page: request } = readQuery();
    // The scope comes last so a filter can narrow it but never widen it.
    const scope: { personalId?: number; studentId?: number } = caller.isAdmin
      ? {}
      : caller.userType === "PERSONAL"
        ? { personalId: caller.id }
        : { studentId: caller.id };
    // A student asking for another student's assignments gets none (the filter narrows; it is not dropped).
    if (scope.studentId !== undefined && filter.studentId !== undefined && filter.studentId !== scope.studentId) return toPage([], 0, request);
    const { rows, total } = await trainingPlanRepository.listAssignments(mayBeStale(this.deps.db), { ...filter, ...scope }, request);
    return toPage(rows, total, request);
  }

  /** Assignments of several plans for GraphQL, each list filtered to what the caller may see. */
  async listByPlanIds(actor: Actor, planIds: readonly number[]): Promise<PlanAssignmentDto[][]> {
    const caller = requireUser(actor);
    const rows = await trainingPlanRepository.assignmentsOfPlans(this.deps.db, planIds);
    const visible = rows.filter((row) => isOwnerOrAdmin(caller, row.personalId, row.studentId));
    return planIds.map((id) => visible.filter((row) => row.planId === id));
  }

  /** How many of a trainer's assignments wait for their students and how many run (no access check: the asking module has its own rule). */
  countLiveOf(trainerId: number): Promise<{ pending: number; active: number }> {
    return trainingPlanRepository.countLiveAssignmentsOf(mayBeStale(this.deps.db), trainerId);
  }

  accept(actor: Actor, id: number) {
    return this.transition(actor, id, "accept");
  }

  cancel(actor: Actor, id: number) {
    return this.transition(actor, id, "cancel");
  }

  complete(actor: Actor, id: number) {
    return this.transition(actor, id, "complete");
  }

  /** The daily job: ACTIVE assignments whose endDate has passed become COMPLETED. */
  async completeEnded(): Promise<number> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const completed = await trainingPlanRepository.completeEnded(tx, now.toISOString().slice(0, 10), now);
      await emit(
        tx,
        now,
        ...(await assignmentEvents(
          tx,
          completed.map((row) => row.id),
        )),
      );
      return completed.length;
    });
  }

  /** The assignments a user is a party to (contract §15); erasure cancels the PENDING and ACTIVE ones for both parties. */
  readonly personalData: PersonalDataHolder<typeof planAssignmentExport> = {
    exportSections: planAssignmentExport,
    exportPersonalData: async (db, userId) => ({ planAssignments: await trainingPlanRepository.assignmentsOfUser(db, userId) }),
    erasePersonalData: async (tx, userId, now) => {
      const canceled = await trainingPlanRepository.cancelLiveAssignmentsOf(tx, userId, now);
      await emit(
        tx,
        now,
        ...(await assignmentEvents(
          tx,
          canceled.map((row) => row.id),
        )),
      );
    },
  };

  /** The change feed's assignments (contract §13.3): those the reader is a party to, whatever their status. */
  readonly feed: FeedSource<PlanAssignmentDto> = {
    load: async (reader, ids) => new Map((await trainingPlanRepository.findAssignmentsOf(this.deps.db, reader.id, ids)).map((row) => [row.id, row])),
    idsAfter: (reader, afterId, limit) => trainingPlanRepository.assignmentIdsAfter(this.deps.db, reader.id, afterId, limit),
  };

  private async transition(actor: Actor, id: number, kind: keyof typeof TRANSITIONS): Promise<PlanAssignmentDto> {
    const caller = requireUser(actor);
    const rule = TRANSITIONS[kind];
    const assignment = await trainingPlanRepository.findAssignment(this.deps.db, id);
    if (!assignment) throw notFound(ASSIGNMENT_NOT_FOUND);
    if (!this.isParty(caller, assignment, rule.by)) throw forbidden();
    const moved = await this.deps.db.transaction(async (tx) => {
      const now = this.deps.clock.now();
      if (!(await trainingPlanRepository.transition(tx, id, rule.from, rule.to, now))) return false;
      await emit(tx, now, ...(await assignmentEvents(tx, [id])));
      return true;
    });
    if (!moved) throw conflict(INVALID_TRANSITION);
    return (await trainingPlanRepository.findAssignment(this.deps.db, id))!;
  }

  /** The party a transition belongs to (or an administrator). */
  private isParty(caller: UserActor, assignment: AssignmentRecord, parties: ("student" | "trainer")[]): boolean {
    return isOwnerOrAdmin(caller, ...parties.map((party) => (party === "student" ? assignment.studentId : assignment.personalId)));
  }
}

function addDays(isoDay: string, days: number): string {
  return new Date(new Date(`${isoDay}T00:00:00.000Z`).getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

/** The `plan_assignment.updated` events of assignments as they now are, for their two parties (contract §14.1). */
async function assignmentEvents(tx: Db, ids: readonly number[]): Promise<DomainEventOf<"plan_assignment.updated">[]> {
  const rows = await Promise.all(ids.map((id) => trainingPlanRepository.findAssignment(tx, id)));
  return rows.flatMap((row) =>
    row
      ? [
          {
            type: "plan_assignment.updated" as const,
            assignmentId: row.id,
            planId: row.planId,
            status: row.status,
            subjectUserIds: [row.studentId, row.personalId],
            data: row,
          },
        ]
      : [],
  );
}
