import { requireTrainer } from "../../platform/auth/access.js";
import type { Actor } from "../../platform/auth/actor.js";
import { AppError } from "../../platform/errors.js";
import type { StudentAdherenceDto } from "../adherence/adherence.dto.js";
import type { AdherenceService } from "../adherence/adherence.service.js";
import type { SubscriptionService } from "../billing/subscription.service.js";
import type { CoachingService } from "../coaching/coaching.service.js";
import type { PlanAssignmentService } from "../training-plans/plan-assignment.service.js";
import type { RecentRecordDto, TrainerDashboardDto } from "./dashboard.dto.js";

export interface DashboardServiceDeps {
  coaching: CoachingService;
  planAssignments: PlanAssignmentService;
  adherence: AdherenceService;
  subscriptions: SubscriptionService;
}

/**
 * The trainer's dashboard (contract §12.3): what the other modules know of a trainer and its students, each asked
 * once for all the students, so its cost in SQL statements does not grow with them. It owns no data.
 */
export class DashboardService {
  constructor(private readonly deps: DashboardServiceDeps) {}

  async trainerDashboard(actor: Actor): Promise<TrainerDashboardDto> {
    const trainer = requireTrainer(actor);
    const [students, assignments, adherence, [subscription]] = await Promise.all([
      this.deps.coaching.seatsOf(trainer.id),
      this.deps.planAssignments.countLiveOf(trainer.id),
      this.deps.adherence.trainerOverview(trainer.id),
      this.deps.subscriptions.currentOfUsers(trainer, [trainer.id]),
    ]);
    // A trainer always reads its own subscription; an error here would be a bug, not an answer.
    if (subscription instanceof AppError) throw subscription;
    return {
      students,
      assignments,
      adherence30d: adherence.meanAdherence,
      sessionsThisWeek: adherence.sessionsThisWeek,
      needsAttention: adherence.students.filter((student) => student.needsAttention).map(({ userId, studentName, reasons }) => ({ studentId: userId, studentName, reasons })),
      recentRecords: await this.recentRecordsOf(adherence.students),
      subscription: subscription && { planName: subscription.planName, status: subscription.status, endDate: subscription.endDate?.toISOString() ?? null },
    };
  }

  /**
   * The students' records of the last 7 days, newest first, at most 20 (contract §12.3). NOT CONNECTED YET: the
   * record kinds of §12.1 come with the records module, which is not on main; until its service is asked here (one
   * call for all the students), the dashboard lists no records.
   */
  private async recentRecordsOf(_students: readonly StudentAdherenceDto[]): Promise<RecentRecordDto[]> {
    return [];
  }
}
