import { Repeater, SlidingBuffer } from "@repeaterjs/repeater";
import type { Actor, UserActor } from "../../platform/auth/actor.js";
import { requireUser } from "../../platform/auth/actor.js";
import { AppError } from "../../platform/errors.js";
import type { InstanceBus } from "../../platform/instance-bus.js";
import type { CoachingService } from "../coaching/coaching.service.js";

/** The bus topic live events travel on between instances. */
const TOPIC = "live-events";
/** Events a subscriber has not taken yet are kept up to this many, the oldest dropped first (a slow socket costs no more). */
const UNREAD_EVENTS_KEPT = 100;
/** Events whose data this instance keeps, so that many subscribers of one event cost one read. */
const EVENTS_KEPT = 500;

/** What each subscription field of contract §14.2 follows, and whose events it may see. */
export const LIVE_FIELDS = {
  trainingExecutionLogged: { type: "training_execution.created", audience: "activity" },
  personalRecordAchieved: { type: "personal_record.achieved", audience: "activity" },
  inviteUpdated: { type: "invite.updated", audience: "parties" },
  assignmentUpdated: { type: "plan_assignment.updated", audience: "parties" },
} as const;
export type LiveField = keyof typeof LIVE_FIELDS;
const FOLLOWED_TYPES = new Set<string>(Object.values(LIVE_FIELDS).map((field) => field.type));

/**
 * What instances tell each other once an event's transaction has committed (its data stays in the database: a NOTIFY
 * payload is at most 8000 bytes). `userIds`: for activity events, the user whose activity it is first; for invites
 * and assignments, the parties.
 */
export interface LiveNotice {
  eventId: number;
  /** The event's public id, unique for all time: what this instance keeps its data under. */
  publicId: string;
  type: string;
  userIds: number[];
}

/** Where an event's data is read (the webhooks module's events). */
export interface LiveEventSource {
  dataOf(eventIds: readonly number[]): Promise<Map<number, unknown>>;
}

export interface LiveUpdatesDeps {
  bus: InstanceBus;
  coaching: CoachingService;
  events: LiveEventSource;
}

export const LIVE_UPDATES_INTERRUPTED = "Atualizações ao vivo interrompidas; assine novamente";

/**
 * GraphQL subscriptions' events (contract §14.2): announced on the instance bus after the commit of the change that
 * caused them, so subscribers on every instance hear of them, and each given to a subscriber only if it may read the
 * event's subject at that moment (checked at subscribe, then for every event: a link removed stops a student's events).
 */
export class LiveUpdatesService {
  private readonly kept = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: LiveUpdatesDeps) {}

  /**
   * Tells every instance's subscribers of committed events (the webhooks module's outbox calls it after each commit):
   * those a subscription field follows, one bus message each.
   */
  async announce(events: readonly { id: number; publicId: string; type: string; subjectUserIds: number[] }[]): Promise<void> {
    for (const event of events) {
      if (!FOLLOWED_TYPES.has(event.type)) continue;
      const notice: LiveNotice = { eventId: event.id, publicId: event.publicId, type: event.type, userIds: event.subjectUserIds };
      await this.deps.bus.publish(TOPIC, JSON.stringify(notice));
    }
  }

  /**
   * The events of `field` the caller may see, from now on; with `studentId` (activity fields), only that student's,
   * which the caller must be allowed to read (403 otherwise). Ends with a 503 error when the instance stops hearing the
   * others (events may have been missed: the client subscribes again and reads what it missed).
   */
  async follow(actor: Actor, field: LiveField, studentId?: number | null): Promise<AsyncIterable<unknown>> {
    const caller = requireUser(actor);
    const { type, audience } = LIVE_FIELDS[field];
    // Only the activity fields take a studentId (the schema's arguments).
    if (studentId !== undefined && studentId !== null) await this.deps.coaching.ensureMayReadActivity(caller, studentId);
    return new Repeater<unknown>(async (push, stop) => {
      // One check at a time, in the order events arrive.
      let order = Promise.resolve();
      const unsubscribe = this.deps.bus.subscribe(TOPIC, {
        message: (body) => {
          const notice = JSON.parse(body) as LiveNotice;
          if (notice.type !== type) return;
          order = order
            .then(async () => {
              if (!(await this.mayReceive(caller, notice, audience, studentId ?? null))) return;
              const data = await this.dataOf(notice);
              if (data !== undefined) void push(data);
            })
            .catch((error: unknown) => stop(error));
        },
        interrupted: () => stop(new AppError(503, LIVE_UPDATES_INTERRUPTED)),
      });
      await stop;
      unsubscribe();
    }, new SlidingBuffer(UNREAD_EVENTS_KEPT));
  }

  private async mayReceive(caller: UserActor, notice: LiveNotice, audience: "activity" | "parties", studentId: number | null): Promise<boolean> {
    if (audience === "parties") return notice.userIds.includes(caller.id);
    const [subject] = notice.userIds;
    if (studentId !== null && subject !== studentId) return false;
    return (await this.deps.coaching.activityReadableAmong(caller, [subject])).has(subject);
  }

  private dataOf(notice: LiveNotice): Promise<unknown> {
    let data = this.kept.get(notice.publicId);
    if (!data) {
      data = this.deps.events.dataOf([notice.eventId]).then((found) => found.get(notice.eventId));
      // A failed read is not kept: the next subscriber reads again.
      data.catch(() => this.kept.delete(notice.publicId));
      if (this.kept.size >= EVENTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(notice.publicId, data);
    }
    return data;
  }
}
