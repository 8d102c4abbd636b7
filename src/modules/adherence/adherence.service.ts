import { requireTrainer } from "../access/ownership.js";
import { requireUser, type Actor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import { DAY_MS, isoInstant } from "../../platform/dates.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, forbidden } from "../../platform/errors.js";
import { toPage, type Page } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import type { ActivityAccess } from "../access/activity-access.js";
import type { UserService } from "../users/user.service.js";
import type { AdherenceDto, AttentionReason, StudentAdherenceDto, TrainerAdherenceOverview } from "./adherence.dto.js";
import { DEFAULT_ADHERENCE_WINDOW, studentAdherencePaging, type AdherenceQuery, type StudentAdherenceListQuery } from "./adherence.inputs.js";
import { TrainerSummariesCache } from "./adherence.cache.js";
import { adherenceRepository, type AdherenceDays, type AdherenceSummaryRow, type TrainerSummaries } from "./adherence.repository.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

/** An adherence below this needs attention (contract §12.2). */
const LOW_ADHERENCE_BELOW = 0.5;
/** A drop of at least this much from the previous window needs attention, in thousandths (adherences have 3 decimals). */
const DROP_THOUSANDTHS = 200;
/** Days without a completed training after which a student needs attention. */
const INACTIVE_DAYS = 7;

/** A reading asked for GraphQL's User.adherence: whose, and with what arguments. */
export interface AdherenceRequest {
  userId: number;
  readQuery: InputReader<AdherenceQuery>;
}

/**
 * Adherence (contract §12.2): the sessions the students' weekly plans scheduled over a window of days and how many
 * were done, per student and for a trainer's students at once, each in a constant number of SQL statements.
 */
export class AdherenceService {
  /** The trainers' pages of figures, reused while nothing under them changes. */
  private readonly summaries = new TrainerSummariesCache();
  private readonly answered = new WeakMap<TrainerSummaries, StudentAdherenceDto[]>();

  constructor(private readonly deps: { db: Db; clock: Clock; users: UserService; access: ActivityAccess }) {}

  /** A user's adherence with its weeks and assignments: the user, its ACTIVE-linked trainer, administrators. */
  async ofUser(actor: Actor, userId: number, readQuery: InputReader<AdherenceQuery>): Promise<AdherenceDto> {
    const caller = requireUser(actor);
    await this.deps.users.ensureExists(userId);
    await this.deps.access.ensureMayReadActivity(caller, userId);
    const { window } = readQuery();
    const [adherence] = await this.details([userId], window);
    return adherence;
  }

  /**
   * Several readings for the GraphQL loaders, in the order asked: each the adherence, or in its place 403 for a user
   * the caller may not read and 400 for a window not offered; one query per window asked.
   */
  async ofUsers(actor: Actor, requests: readonly AdherenceRequest[]): Promise<(AdherenceDto | AppError)[]> {
    const caller = requireUser(actor);
    const readable = await this.deps.access.activityReadableAmong(caller, [...new Set(requests.map((request) => request.userId))]);
    const windows = requests.map((request) => (readable.has(request.userId) ? readWindow(request.readQuery) : forbidden()));
    const byWindow = new Map<number, Map<number, AdherenceDto>>();
    for (const window of new Set(windows.filter((window) => typeof window === "number"))) {
      const userIds = [...new Set(requests.filter((_, i) => windows[i] === window).map((request) => request.userId))];
      byWindow.set(window, new Map((await this.details(userIds, window)).map((adherence) => [adherence.userId, adherence])));
    }
    return requests.map((request, i) => {
      const window = windows[i];
      return typeof window === "number" ? byWindow.get(window)!.get(request.userId)! : window;
    });
  }

  /** A trainer's ACTIVE students with their figures, a page of them, by adherence (the lowest first) unless asked otherwise. */
  async pageOfStudents(actor: Actor, readQuery: InputReader<StudentAdherenceListQuery>): Promise<Page<StudentAdherenceDto>> {
    const trainer = requireTrainer(actor);
    const {
      page: request,
      filter: { window },
    } = readQuery();
    const days = adherenceDays(this.deps.clock.now(), window);
    const reading = await this.summaries.read(mayBeStale(this.deps.db), trainer.id, days, request);
    return toPage(this.studentsOf(reading, window, days), reading.studentIds.length, request);
  }

  /**
   * What a trainer's dashboard shows of its ACTIVE students' adherence over 30 days, in one query (no access check:
   * the asking module has its own rule).
   */
  async trainerOverview(trainerId: number): Promise<TrainerAdherenceOverview> {
    const window = DEFAULT_ADHERENCE_WINDOW;
    const days = adherenceDays(this.deps.clock.now(), window);
    const reading = await this.summaries.read(mayBeStale(this.deps.db), trainerId, days, { sort: studentAdherencePaging.fallbackSort });
    const { rows } = reading;
    const adherences = rows.flatMap((row) => (row.adherence === null ? [] : [row.adherence]));
    return {
      students: this.studentsOf(reading, window, days),
      meanAdherence: adherences.length === 0 ? null : Math.round((adherences.reduce((sum, value) => sum + value, 0) / adherences.length) * 1000) / 1000,
      sessionsThisWeek: {
        scheduled: rows.reduce((sum, row) => sum + row.week_scheduled, 0),
        completed: rows.reduce((sum, row) => sum + row.week_completed, 0),
      },
    };
  }

  /**
   * A reading's students as answered, made once per reading: the cache hands the same reading out while it holds, and
   * answers never change what they are given (JSON answers copy it, withIsoInstants).
   */
  private studentsOf(reading: TrainerSummaries, window: number, days: AdherenceDays): StudentAdherenceDto[] {
    let students = this.answered.get(reading);
    if (!students) this.answered.set(reading, (students = reading.rows.map((row) => studentAdherence(row, window, days))));
    return students;
  }

  private async details(userIds: readonly number[], window: number): Promise<AdherenceDto[]> {
    const days = adherenceDays(this.deps.clock.now(), window);
    const rows = await adherenceRepository.details(mayBeStale(this.deps.db), userIds, days);
    return rows.map((row) => ({
      ...summaryOf(row, window, days),
      weeks: row.weeks,
      assignments: row.assignments,
    }));
  }
}

/** The window a GraphQL reading asks for, or the error its arguments give. */
function readWindow(readQuery: InputReader<AdherenceQuery>): number | AppError {
  try {
    return readQuery().window;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** The days of a window of `window` days ending on `now`'s UTC day, the window before it, and the ISO week of today. */
export function adherenceDays(now: Date, window: number): AdherenceDays {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = today - (window - 1) * DAY_MS;
  const daysSinceMonday = (new Date(today).getUTCDay() + 6) % 7;
  return {
    today: isoDay(today),
    from: isoDay(from),
    previousFrom: isoDay(from - window * DAY_MS),
    previousTo: isoDay(from - DAY_MS),
    weekStart: isoDay(today - daysSinceMonday * DAY_MS),
  };
}

function summaryOf(row: AdherenceSummaryRow, window: number, days: AdherenceDays): Omit<StudentAdherenceDto, "studentName"> {
  const lastTrainingAt = row.last_training_at === null ? null : new Date(row.last_training_at);
  const reasons = row.has_active_assignment ? attentionReasons(row, lastTrainingAt, days) : [];
  return {
    userId: row.student_id,
    window,
    from: days.from,
    to: days.today,
    scheduled: row.scheduled,
    completed: row.completed,
    adherence: row.adherence,
    previousAdherence: row.previous_adherence,
    lastTrainingAt: lastTrainingAt && isoInstant(lastTrainingAt),
    needsAttention: reasons.length > 0,
    reasons,
  };
}

function studentAdherence(row: AdherenceSummaryRow, window: number, days: AdherenceDays): StudentAdherenceDto {
  return { ...summaryOf(row, window, days), studentName: row.student_name };
}

/** Why a student with an ACTIVE assignment needs attention (contract §12.2), in the contract's order. */
function attentionReasons(row: AdherenceSummaryRow, lastTrainingAt: Date | null, days: AdherenceDays): AttentionReason[] {
  const reasons: AttentionReason[] = [];
  const { adherence, previous_adherence: previous } = row;
  if (adherence !== null && adherence < LOW_ADHERENCE_BELOW) reasons.push("LOW_ADHERENCE");
  // Compared in thousandths: 0.5 ≤ 0.7 − 0.2 holds there, not in binary floating point.
  if (adherence !== null && previous !== null && thousandths(adherence) <= thousandths(previous) - DROP_THOUSANDTHS) reasons.push("DROPPING");
  const activeSince = Date.parse(`${days.today}T00:00:00.000Z`) - (INACTIVE_DAYS - 1) * DAY_MS;
  if (lastTrainingAt === null || lastTrainingAt.getTime() < activeSince) reasons.push("INACTIVE_7_DAYS");
  return reasons;
}

const thousandths = (share: number) => Math.round(share * 1000);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
