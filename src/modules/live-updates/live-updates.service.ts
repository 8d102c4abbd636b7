import { Repeater, SlidingBuffer } from "@repeaterjs/repeater";
import type { Actor, UserActor } from "../../platform/auth/actor.js";
import { requireUser } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { advanceReadPositions } from "../../platform/db/read-routing.js";
import { AppError } from "../../platform/errors.js";
import type { InstanceBus } from "../../platform/instance-bus.js";
import type { ActivityAccess } from "../access/activity-access.js";

/** The bus topic live events travel on between instances. */
const TOPIC = "live-events";
/** Events a subscriber has not taken yet are kept up to this many, the oldest dropped first (a slow socket costs no more). */
const UNREAD_EVENTS_KEPT = 100;
/** Batches of events committed together whose access answers an instance keeps (they arrive one after another). */
const BATCHES_KEPT = 50;

/** What each subscription field of contract §14.2 follows, and whose events it may see. */
export const LIVE_FIELDS = {
  trainingExecutionLogged: { type: "training_execution.created", audience: "activity" },
  personalRecordAchieved: { type: "personal_record.achieved", audience: "activity" },
  inviteUpdated: { type: "invite.updated", audience: "parties" },
  assignmentUpdated: { type: "plan_assignment.updated", audience: "parties" },
} as const;
export type LiveField = keyof typeof LIVE_FIELDS;
const FIELD_OF_TYPE = new Map<string, LiveField>(Object.entries(LIVE_FIELDS).map(([field, { type }]) => [type, field as LiveField]));
const FOLLOWED_TYPES = new Set<string>(FIELD_OF_TYPE.keys());

/**
 * What instances tell each other once an event's transaction has committed (its data stays in the database: a NOTIFY
 * payload is at most 8000 bytes). `userIds`: for activity events, the user whose activity it is first; for invites
 * and assignments, the parties.
 */
export interface LiveNotice {
  eventId: number;
  /** The event's public id, unique for all time: earlier versions kept its data under it (a rolling deploy mixes them). */
  publicId: string;
  type: string;
  userIds: number[];
  /**
   * The public id of the first event committed with it (one announce): such events are checked at one moment, so a
   * reader is asked about their subject once. Absent from earlier versions' notices.
   */
  batch?: string;
}

/** Where an event's data is read (the webhooks module's events). */
export interface LiveEventSource {
  dataOf(eventIds: readonly number[]): Promise<Map<number, unknown>>;
}

export interface LiveUpdatesDeps {
  /** Where the receivers' read positions are advanced before an event reaches them. */
  db: Db;
  bus: InstanceBus;
  access: Pick<ActivityAccess, "ensureMayReadActivity" | "mayReadActivities">;
  events: LiveEventSource;
}

export const LIVE_UPDATES_INTERRUPTED = "Atualizações ao vivo interrompidas; assine novamente";

/** One subscription served on this instance: who follows, and where its events go. */
interface Follower {
  caller: UserActor;
  push(data: unknown): void;
  stop(error: unknown): void;
}

/**
 * The followers of one event type, indexed so that an event reaches only those it may be for: what it costs does not
 * grow with the subscriptions of users it is not about.
 */
interface FollowersOfType {
  /** By the one user whose events they watch: the caller (invites, assignments) or the student named (activity). */
  byWatchedUser: Map<number, Set<Follower>>;
  /** Activity followers without a student, by caller: each event of the type may be for them (a linked trainer's). */
  byReader: Map<number, Set<Follower>>;
}

/**
 * GraphQL subscriptions' events (contract §14.2): announced on the instance bus after the commit of the change that
 * caused them, so subscribers on every instance hear of them, and each given to a subscriber only if it may read the
 * event's subject at that moment (checked at subscribe, then for every event: a link removed stops a student's events).
 * An instance listens once for all its subscriptions and checks an event's possible receivers together, in at most one
 * statement whatever their number (and once for the events committed with it), then reads its data once for them all.
 */
export class LiveUpdatesService {
  private readonly followers = new Map<string, FollowersOfType>();
  private listening = false;
  /** By batch and subject: whether each reader asked about it may read that subject's activity. */
  private readonly answered = new Map<string, Map<number, Promise<boolean>>>();
  /** Events are given out in the order they arrived, each once its check is done (checks run side by side). */
  private delivered = Promise.resolve();

  constructor(private readonly deps: LiveUpdatesDeps) {}

  /**
   * Tells every instance's subscribers of committed events (the webhooks module's outbox calls it after each commit):
   * those a subscription field follows, one bus message each.
   */
  async announce(events: readonly { id: number; publicId: string; type: string; subjectUserIds: number[] }[]): Promise<void> {
    const batch = events[0]?.publicId;
    for (const event of events) {
      if (!FOLLOWED_TYPES.has(event.type)) continue;
      const notice: LiveNotice = { eventId: event.id, publicId: event.publicId, type: event.type, userIds: event.subjectUserIds, batch };
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
    if (studentId !== undefined && studentId !== null) await this.deps.access.ensureMayReadActivity(caller, studentId);
    return new Repeater<unknown>(async (push, stop) => {
      this.listen();
      const follower: Follower = { caller, push: (data) => void push(data), stop };
      const followers = this.followersOf(type);
      const [index, key] =
        audience === "activity" && studentId != null
          ? [followers.byWatchedUser, studentId]
          : audience === "activity"
            ? [followers.byReader, caller.id]
            : [followers.byWatchedUser, caller.id];
      const set = index.get(key) ?? new Set<Follower>();
      index.set(key, set.add(follower));
      await stop;
      set.delete(follower);
      if (set.size === 0) index.delete(key);
    }, new SlidingBuffer(UNREAD_EVENTS_KEPT));
  }

  /** The subscriptions this instance serves now, by the event type they follow (the `live_subscriptions` gauge). */
  followingCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [type, { byWatchedUser, byReader }] of this.followers) {
      let count = 0;
      for (const set of [...byWatchedUser.values(), ...byReader.values()]) count += set.size;
      counts.set(type, count);
    }
    return counts;
  }

  /** Hears the bus once for every subscription of this instance. */
  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.deps.bus.subscribe(TOPIC, {
      message: (body) => this.heard(JSON.parse(body) as LiveNotice),
      interrupted: () => {
        const error = new AppError(503, LIVE_UPDATES_INTERRUPTED);
        for (const { byWatchedUser, byReader } of this.followers.values()) {
          for (const set of [...byWatchedUser.values(), ...byReader.values()]) for (const follower of set) follower.stop(error);
        }
      },
    });
  }

  private followersOf(type: string): FollowersOfType {
    let followers = this.followers.get(type);
    if (!followers) {
      followers = { byWatchedUser: new Map(), byReader: new Map() };
      this.followers.set(type, followers);
    }
    return followers;
  }

  private heard(notice: LiveNotice): void {
    const followers = this.followers.get(notice.type);
    if (!followers) return;
    const { audience } = LIVE_FIELDS[FIELD_OF_TYPE.get(notice.type)!];
    // Parties: the event's users' own followers. Activity: its subject's watchers, and whoever follows all it may read.
    const watched = audience === "parties" ? notice.userIds : notice.userIds.slice(0, 1);
    const candidates = [
      ...watched.flatMap((userId) => [...(followers.byWatchedUser.get(userId) ?? [])]),
      ...(audience === "activity" ? [...followers.byReader.values()].flatMap((set) => [...set]) : []),
    ];
    if (candidates.length === 0) return;
    const ready = this.receiversAmong(candidates, notice, audience)
      .then(async (receivers) => {
        if (receivers.length === 0) return { receivers, data: undefined };
        // Once the event has reached them, what its write changed shows in their stale-ok reads too (contract §17).
        const [data] = await Promise.all([
          this.dataOf(notice),
          advanceReadPositions(
            this.deps.db,
            receivers.map(({ caller }) => caller.id),
          ),
        ]);
        return { receivers, data };
      })
      .then(
        ({ receivers, data }) =>
          () => {
            if (data !== undefined) for (const receiver of receivers) receiver.push(data);
          },
        (error: unknown) => () => {
          for (const candidate of candidates) candidate.stop(error);
        },
      );
    this.delivered = this.delivered.then(() => ready).then((deliver) => deliver());
  }

  /** Those of `candidates` whose caller may read the event now: for activity, every distinct caller in one question. */
  private async receiversAmong(candidates: Follower[], notice: LiveNotice, audience: "activity" | "parties"): Promise<Follower[]> {
    if (audience === "parties") return candidates;
    const [subject] = notice.userIds;
    const readers = [...new Map(candidates.map(({ caller }) => [caller.id, caller])).values()];
    const answers = await Promise.all(this.answersFor(notice.batch, subject, readers));
    const allowed = new Set(readers.filter((_, i) => answers[i]).map((reader) => reader.id));
    return candidates.filter(({ caller }) => allowed.has(caller.id));
  }

  /** Whether each reader may read `subject`'s activity: those not asked yet about this batch, in one question. */
  private answersFor(batch: string | undefined, subject: number, readers: UserActor[]): Promise<boolean>[] {
    const key = batch === undefined ? undefined : `${batch}:${subject}`;
    const known = (key && this.answered.get(key)) || new Map<number, Promise<boolean>>();
    const unasked = readers.filter((reader) => !known.has(reader.id));
    if (unasked.length > 0) {
      const asked = this.deps.access.mayReadActivities(unasked.map((reader) => ({ reader, userIds: [subject] })));
      const answerOf = (i: number) => asked.then((answers) => answers[i]);
      unasked.forEach((reader, i) => known.set(reader.id, answerOf(i)));
    }
    if (key && !this.answered.has(key)) {
      if (this.answered.size >= BATCHES_KEPT) this.answered.delete(this.answered.keys().next().value!);
      this.answered.set(key, known);
    }
    return readers.map((reader) => known.get(reader.id)!);
  }

  private async dataOf(notice: LiveNotice): Promise<unknown> {
    return (await this.deps.events.dataOf([notice.eventId])).get(notice.eventId);
  }
}
