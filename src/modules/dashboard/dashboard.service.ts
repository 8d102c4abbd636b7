import { requireTrainer } from "../access/ownership.js";
import type { Actor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import { DAY_MS, isoInstant } from "../../platform/dates.js";
import { AppError } from "../../platform/errors.js";
import type { StudentAdherenceDto } from "../adherence/adherence.dto.js";
import type { AdherenceService } from "../adherence/adherence.service.js";
import type { SubscriptionService } from "../billing/subscription.service.js";
import type { LinkService } from "../coaching/link.service.js";
import type { RecordService } from "../records/records.service.js";
import type { PlanAssignmentService } from "../training-plans/plan-assignment.service.js";
import type { RecentRecordDto, TrainerDashboardDto } from "./dashboard.dto.js";

/** The records listed: those of the last 7 days (today's included, UTC), at most 20 (contract §12.3). */
const RECENT_RECORD_DAYS = 7;
export const RECENT_RECORDS_LISTED = 20;

export interface DashboardServiceDeps {
  clock: Clock;
  links: LinkService;
  planAssignments: PlanAssignmentService;
  adherence: AdherenceService;
  subscriptions: SubscriptionService;
  records: RecordService;
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
      this.deps.links.seatsOf(trainer.id),
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
      needsAttention: adherence.students
        .filter((student) => student.needsAttention)
        .map(({ userId, studentName, reasons }) => ({ studentId: userId, studentName, reasons })),
      recentRecords: await this.recentRecordsOf(adherence.students),
      subscription: subscription && {
        planName: subscription.planName,
        status: subscription.status,
        endDate: subscription.endDate && isoInstant(subscription.endDate),
      },
    };
  }

  /** The records the students set in the last 7 days, newest first, at most 20, in one query. */
  private async recentRecordsOf(students: readonly StudentAdherenceDto[]): Promise<RecentRecordDto[]> {
    const now = this.deps.clock.now();
    const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const from = new Date(tomorrow - RECENT_RECORD_DAYS * DAY_MS);
    const names = new Map(students.map((student) => [student.userId, student.studentName]));
    const records = await this.deps.records.recentOfUsers([...names.keys()], from, new Date(tomorrow), RECENT_RECORDS_LISTED);
    return records.map((record) => ({
      studentId: record.userId,
      studentName: names.get(record.userId)!,
      exerciseId: record.exerciseId,
      exerciseName: record.exerciseName,
      kind: record.kind,
      value: record.value,
      unit: record.unit,
      achievedAt: isoInstant(record.achievedAt)!,
    }));
  }
}
