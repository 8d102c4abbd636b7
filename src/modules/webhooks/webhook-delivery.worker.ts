import type { ActivityAccess } from "../access/activity-access.js";
import { isOwnerOrAdmin } from "../access/ownership.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import type { Logger } from "../../platform/logger.js";
import { afterCommit } from "../../platform/db/after-commit.js";
import { advanceReadPositions } from "../../platform/db/read-routing.js";
import type { MailOutbox } from "../../platform/mail/outbox.js";
import type { UrlPolicy } from "./webhook-address.js";
import { signatureHeader, type SecretBox } from "./webhook-secrets.js";
import { ATTEMPT_TIMEOUT_MS, sendWebhook, type AttemptOutcome } from "./webhook-sender.js";
import { webhookMails } from "./webhook.mails.js";
import { webhookRepository, type DeliveryShare, type DomainEventRow, type EndpointRow, type LeasedDelivery } from "./webhook.repository.js";
import { WEBHOOK_EVENT_RULES, type DomainEventType } from "../../tables/events.table.js";

/** Waits after the n-th failed attempt (contract §14.1); a failure past the last one is final (FAILED). */
/** The background job that runs the worker (src/app.ts). */
export const WEBHOOK_DELIVERY_JOB = "webhook-delivery";

export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
/** An endpoint whose deliveries have all failed for this long is disabled and its owner told. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;
/** A lease outlasts the attempt it covers by this much (settling it); a worker that dies frees it this soon after. */
const LEASE_MARGIN_MS = 5_000;
const DISPATCH_BATCH = 100;
/** While deliveries are under way, new due ones are looked for this often (a slow receiver holds one slot only). */
const POLL_WHILE_BUSY_MS = 250;
/** Attempts one instance makes at once: each is a socket and a timer, so many cost little while receivers hang. */
const DEFAULT_CONCURRENCY = 32;
/**
 * Attempts under way at once to one endpoint and to one owner's endpoints, across instances: receivers that never
 * answer hold this many slots for 10 s each, never every slot of an instance, so everyone else's deliveries go on.
 */
const SHARE: DeliveryShare = { perEndpoint: 2, perOwner: 4 };
/** Events (and their deliveries) are kept this long once nothing of them is pending; pruned at most once an hour. */
export const EVENT_RETENTION_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 5_000;

export interface WebhookDeliveryWorkerDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  secrets: SecretBox;
  urlPolicy: UrlPolicy;
  access: ActivityAccess;
  mail: MailOutbox;
  /** The users module's account reader (an endpoint's owner, to e-mail when it is disabled). */
  users: { findById(id: number, db: Db): Promise<{ email: string; name: string } | null> };
  concurrency?: number;
}

/**
 * Turns the outbox of domain events into deliveries and makes them (contract §14.1).
 *
 * Dispatch: each event, once, in a transaction, becomes one delivery per enabled endpoint subscribed to its type whose
 * owner may read it then (by the type's rule over its subject users). Delivery: each due delivery is leased (committed)
 * for longer than an attempt may take, attempted over HTTP outside any transaction, then settled while its lease
 * holds; several at once, the oldest due first among endpoints and owners below their SHARE of attempts under way, so
 * a slow receiver holds up only its own. A worker that dies mid-attempt leaves the lease to run out and the delivery
 * is attempted again: at least once.
 */
export class WebhookDeliveryWorker {
  /** Attempts settled by this instance since it started, by outcome (the Prometheus counter reads them). */
  readonly outcomes = { succeeded: 0, retried: 0, failed: 0 };
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: WebhookDeliveryWorkerDeps) {}

  /**
   * Dispatches the pending events and makes every delivery due now (and, once an hour, prunes old settled events);
   * returns how many attempts succeeded.
   */
  async runOnce(): Promise<number> {
    if (this.deps.clock.now().getTime() - this.prunedAt >= PRUNE_EVERY_MS) await this.prune();
    await this.dispatch();
    const concurrency = this.deps.concurrency ?? DEFAULT_CONCURRENCY;
    const inFlight = new Set<Promise<void>>();
    let succeeded = 0;
    for (;;) {
      while (inFlight.size < concurrency) {
        const leased = await this.leaseNext();
        if (!leased) break;
        const attempt: Promise<void> = this.attempt(leased).then((ok) => {
          if (ok) succeeded++;
          inFlight.delete(attempt);
        });
        inFlight.add(attempt);
      }
      if (inFlight.size === 0) return succeeded;
      await Promise.race([...inFlight, new Promise((resolve) => setTimeout(resolve, POLL_WHILE_BUSY_MS))]);
      await this.dispatch();
    }
  }

  /** Fans the undispatched events out to the endpoints that receive them; returns how many events it dispatched. */
  async dispatch(): Promise<number> {
    let dispatched = 0;
    for (;;) {
      const count = await this.deps.db.transaction(async (tx) => {
        const events = await webhookRepository.takeUndispatchedEvents(tx, DISPATCH_BATCH);
        if (events.length === 0) return 0;
        const now = this.deps.clock.now();
        const latest = new Date(Math.max(...events.map((event) => event.createdAt.getTime())));
        const endpoints = await webhookRepository.subscribedEndpoints(tx, [...new Set(events.map((event) => event.type))], latest);
        const subscribed = events.flatMap((event) =>
          endpoints
            .filter((endpoint) => endpoint.events.includes(event.type) && endpoint.createdAt <= event.createdAt)
            .map((endpoint) => ({ endpoint, event })),
        );
        const allowed = await this.mayRead(tx, subscribed);
        const rows = subscribed
          .filter((_, i) => allowed[i])
          .map(({ endpoint, event }) => ({ endpointId: endpoint.id, eventId: event.id, nextAttemptAt: now, createdAt: now }));
        await webhookRepository.insertDeliveries(tx, rows);
        await webhookRepository.markDispatched(
          tx,
          events.map((event) => event.id),
          now,
        );
        return events.length;
      });
      dispatched += count;
      if (count < DISPATCH_BATCH) return dispatched;
    }
  }

  /** Deletes the events older than EVENT_RETENTION_MS with nothing pending, and their deliveries; returns how many events. */
  async prune(): Promise<number> {
    const now = this.deps.clock.now();
    this.prunedAt = now.getTime();
    const before = new Date(now.getTime() - EVENT_RETENTION_MS);
    let pruned = 0;
    for (;;) {
      const count = await webhookRepository.deleteSettledEvents(this.deps.db, before, PRUNE_BATCH);
      pruned += count;
      if (count < PRUNE_BATCH) return pruned;
    }
  }

  /**
   * Whether each endpoint's owner may read its event now, by the event type's rule: the activity rule asked for the
   * whole batch in at most one statement, whatever the number of endpoints.
   */
  private async mayRead(tx: Db, pairs: readonly { endpoint: { userId: number; ownerIsAdmin: boolean }; event: DomainEventRow }[]): Promise<boolean[]> {
    const readerOf = ({ endpoint }: (typeof pairs)[number]) => ({ id: endpoint.userId, isAdmin: endpoint.ownerIsAdmin });
    const byActivity = pairs.map(({ event }) => WEBHOOK_EVENT_RULES[event.type as DomainEventType] === "activity");
    const activityAnswers = await this.deps.access.mayReadActivities(
      pairs.filter((_, i) => byActivity[i]).map((pair) => ({ reader: readerOf(pair), userIds: pair.event.subjectUserIds })),
      tx,
    );
    let next = 0;
    return pairs.map((pair, i) => (byActivity[i] ? activityAnswers[next++] : isOwnerOrAdmin(readerOf(pair), ...pair.event.subjectUserIds)));
  }

  private leaseNext(): Promise<LeasedDelivery | undefined> {
    const now = this.deps.clock.now();
    return webhookRepository.leaseNextDelivery(this.deps.db, now, new Date(now.getTime() + ATTEMPT_TIMEOUT_MS + LEASE_MARGIN_MS), SHARE);
  }

  /** One attempt of a leased delivery, signed with every active secret of its endpoint, then settled; never throws. */
  private async attempt({ delivery, event, endpoint }: LeasedDelivery): Promise<boolean> {
    const { logger } = this.deps;
    const outcome = await this.send(event, endpoint).catch((error: unknown): AttemptOutcome => ({
      succeeded: false,
      statusCode: null,
      error: error instanceof Error ? error.message : String(error),
    }));
    try {
      await this.settle(delivery.id, delivery.attempts, endpoint.id, outcome);
    } catch (error) {
      // Unsettled, the lease runs out and the delivery is attempted again.
      logger.error({ err: error, deliveryId: delivery.id }, "webhook delivery not settled");
    }
    if (!outcome.succeeded)
      logger.warn({ deliveryId: delivery.id, endpointId: endpoint.id, attempts: delivery.attempts, reason: outcome.error }, "webhook delivery failed");
    return outcome.succeeded;
  }

  private async send(event: DomainEventRow, endpoint: EndpointRow): Promise<AttemptOutcome> {
    const { clock, secrets } = this.deps;
    const now = clock.now();
    const body = JSON.stringify({ id: event.publicId, type: event.type, createdAt: event.createdAt.toISOString(), data: event.data });
    const timestamp = Math.floor(now.getTime() / 1000);
    // A secret sealed under another JWT_SECRET does not open: the attempt fails with that reason.
    const keys = [secrets.open(endpoint.sealedSecret)];
    if (endpoint.sealedPreviousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now)
      keys.push(secrets.open(endpoint.sealedPreviousSecret));
    const headers = {
      "webhook-id": event.publicId,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signatureHeader(keys, event.publicId, timestamp, body),
    };
    // Once the event has reached its owner, what its write changed shows in the owner's stale-ok reads too (contract §17).
    await advanceReadPositions(this.deps.db, [endpoint.userId]);
    return sendWebhook({ url: endpoint.url, headers, body }, this.deps.urlPolicy);
  }

  private async settle(deliveryId: number, attempt: number, endpointId: number, outcome: AttemptOutcome): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock.now();
    await db.transaction(async (tx) => {
      if (outcome.succeeded) {
        const settled = await webhookRepository.settleDelivery(tx, deliveryId, attempt, {
          status: "SUCCEEDED",
          lastStatusCode: outcome.statusCode,
          lastError: null,
          nextAttemptAt: null,
          deliveredAt: now,
        });
        if (!settled) return;
        await webhookRepository.clearFailures(tx, endpointId);
        afterCommit(tx, () => this.outcomes.succeeded++);
        return;
      }
      const delay = RETRY_DELAYS_MS[attempt - 1];
      const settled = await webhookRepository.settleDelivery(tx, deliveryId, attempt, {
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        ...(delay === undefined ? { status: "FAILED", nextAttemptAt: null } : { nextAttemptAt: new Date(now.getTime() + delay) }),
      });
      if (!settled) return;
      afterCommit(tx, () => (delay === undefined ? this.outcomes.failed++ : this.outcomes.retried++));
      const disabled = await webhookRepository.noteFailure(tx, endpointId, now, new Date(now.getTime() - DISABLE_AFTER_FAILING_MS));
      if (!disabled) return;
      const owner = await this.deps.users.findById(disabled.userId, tx);
      if (owner) await this.deps.mail.enqueue(tx, webhookMails.endpointDisabled(owner.email, owner.name, disabled.url), now);
    });
  }
}
