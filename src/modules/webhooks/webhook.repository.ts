import { and, asc, count, eq, inArray, isNotNull, isNull, lt, lte, notExists, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { ordering, pageOf } from "../../platform/db/pages.js";
import type { PageRequest } from "../../platform/paging.js";
import { users } from "../../tables/user.table.js";
import { webhookDeliveries, webhookEndpoints } from "../../tables/webhook.table.js";
import { domainEvents, type WebhookEventType } from "../../tables/events.table.js";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type DomainEventRow = typeof domainEvents.$inferSelect;

export const ENDPOINT_SORTS = { id: webhookEndpoints.id, createdAt: webhookEndpoints.createdAt, url: webhookEndpoints.url } as const;
export const DELIVERY_SORTS = { id: webhookDeliveries.id, createdAt: webhookDeliveries.createdAt, status: webhookDeliveries.status } as const;

/** A leased delivery with what its attempt needs: the event and the endpoint. */
export interface LeasedDelivery {
  delivery: DeliveryRow;
  event: DomainEventRow;
  endpoint: EndpointRow;
}

/** How many attempts may be under way at once, across every worker, to one endpoint and to all of one owner's endpoints. */
export interface DeliveryShare {
  perEndpoint: number;
  perOwner: number;
}

export const webhookRepository = {
  async insertEvent(db: Db, row: typeof domainEvents.$inferInsert): Promise<DomainEventRow> {
    const [inserted] = await db.insert(domainEvents).values(row).returning();
    return inserted;
  },

  async eventData(db: Db, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db
      .select({ id: domainEvents.id, data: domainEvents.data })
      .from(domainEvents)
      .where(inArray(domainEvents.id, [...ids]));
  },

  async insertEndpoint(db: Db, row: typeof webhookEndpoints.$inferInsert): Promise<EndpointRow> {
    const [inserted] = await db.insert(webhookEndpoints).values(row).returning();
    return inserted;
  },

  async findEndpoint(db: Db, id: number): Promise<EndpointRow | undefined> {
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    return row;
  },

  /**
   * Endpoints of one user, or of everyone (`userId` undefined: an administrator's listing); of one app only when
   * `clientId` is given (an app's token sees its own).
   */
  async listEndpoints(db: Db, userId: number | undefined, request: PageRequest, clientId?: string) {
    const where = and(
      userId === undefined ? undefined : eq(webhookEndpoints.userId, userId),
      clientId === undefined ? undefined : eq(webhookEndpoints.clientId, clientId),
    );
    const [rows, [total]] = await Promise.all([
      pageOf(
        db
          .select()
          .from(webhookEndpoints)
          .where(where)
          .orderBy(...ordering(ENDPOINT_SORTS, request, webhookEndpoints.id))
          .$dynamic(),
        request,
      ),
      db.select({ n: count() }).from(webhookEndpoints).where(where),
    ]);
    return { rows, total: total.n };
  },

  async updateEndpoint(db: Db, id: number, changes: Partial<typeof webhookEndpoints.$inferInsert>): Promise<EndpointRow | undefined> {
    const [row] = await db.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id)).returning();
    return row;
  },

  async deleteEndpoint(db: Db, id: number): Promise<void> {
    await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  },

  /** Every endpoint of a user, oldest first (their data export). */
  async endpointsOfUser(db: Db, userId: number): Promise<EndpointRow[]> {
    return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(webhookEndpoints.id);
  },

  /** Deletes the endpoints an app registered for a user; their deliveries go with them. */
  async deleteEndpointsOfApp(db: Db, userId: number, clientId: string): Promise<void> {
    await db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.clientId, clientId)));
  },

  /** Deletes every endpoint of a user; their deliveries go with them. */
  async deleteEndpointsOf(db: Db, userId: number): Promise<void> {
    await db.delete(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
  },

  async listDeliveries(db: Db, endpointId: number, request: PageRequest) {
    const where = eq(webhookDeliveries.endpointId, endpointId);
    const [rows, [total]] = await Promise.all([
      pageOf(
        db
          .select({ delivery: webhookDeliveries, eventPublicId: domainEvents.publicId, eventType: domainEvents.type })
          .from(webhookDeliveries)
          .innerJoin(domainEvents, eq(domainEvents.id, webhookDeliveries.eventId))
          .where(where)
          .orderBy(...ordering(DELIVERY_SORTS, request, webhookDeliveries.id))
          .$dynamic(),
        request,
      ),
      db.select({ n: count() }).from(webhookDeliveries).where(where),
    ]);
    return { rows, total: total.n };
  },

  /** Takes the next undispatched events (oldest first), skipping those another dispatcher holds, until the transaction ends. */
  takeUndispatchedEvents(tx: Db, limit: number): Promise<DomainEventRow[]> {
    return tx
      .select()
      .from(domainEvents)
      .where(isNull(domainEvents.dispatchedAt))
      .orderBy(asc(domainEvents.id))
      .limit(limit)
      .for("update", { skipLocked: true });
  },

  async markDispatched(tx: Db, ids: number[], at: Date): Promise<void> {
    if (ids.length > 0) await tx.update(domainEvents).set({ dispatchedAt: at }).where(inArray(domainEvents.id, ids));
  },

  /** Enabled endpoints subscribed to any of `types`, registered by `at`, with whether their owner is an administrator. */
  subscribedEndpoints(db: Db, types: readonly WebhookEventType[], at: Date) {
    return db
      .select({
        id: webhookEndpoints.id,
        userId: webhookEndpoints.userId,
        events: webhookEndpoints.events,
        createdAt: webhookEndpoints.createdAt,
        ownerIsAdmin: users.isAdmin,
      })
      .from(webhookEndpoints)
      .innerJoin(users, eq(users.id, webhookEndpoints.userId))
      .where(
        and(
          eq(webhookEndpoints.enabled, true),
          lte(webhookEndpoints.createdAt, at),
          sql`${webhookEndpoints.events} && array[${sql.join(
            types.map((type) => sql`${type}`),
            sql`, `,
          )}]::text[]`,
        ),
      );
  },

  async insertDelivery(db: Db, row: typeof webhookDeliveries.$inferInsert): Promise<DeliveryRow> {
    const [inserted] = await db.insert(webhookDeliveries).values(row).returning();
    return inserted;
  },

  async insertDeliveries(db: Db, rows: { endpointId: number; eventId: number; nextAttemptAt: Date; createdAt: Date }[]): Promise<void> {
    if (rows.length > 0) await db.insert(webhookDeliveries).values(rows).onConflictDoNothing();
  },

  /**
   * Leases the next due delivery of an enabled endpoint until `leaseUntil`, skipping ones another worker holds: the
   * oldest of the endpoints' oldest due ones, among the endpoints and owners below their share of attempts under way (by
   * any worker, so receivers that hang hold no more than that; workers leasing at the same instant may each take one
   * past it). It costs one index probe per endpoint with something due, however long one endpoint's backlog. Each lease
   * counts an attempt, so `attempts` also names this lease: a worker whose lease ran out can no longer settle it.
   */
  async leaseNextDelivery(db: Db, now: Date, leaseUntil: Date, share: DeliveryShare): Promise<LeasedDelivery | undefined> {
    const at = sql`${now.toISOString()}::timestamptz`;
    // Leased and not settled: the lease is also their next_attempt_at, so the pending index finds them.
    const underWay = sql`select d.endpoint_id, e.user_id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
      where d.status = 'PENDING' and d.next_attempt_at > ${at} and d.next_attempt_at <= ${leaseUntil.toISOString()}::timestamptz
        and d.leased_until > ${at}`;
    // Each endpoint's oldest due delivery: the first entry of the next endpoint in pending_endpoint_idx, one probe each.
    const next = sql`(
      with recursive due(endpoint_id, id) as (
        (select endpoint_id, id from webhook_deliveries where status = 'PENDING' and next_attempt_at <= ${at}
         order by endpoint_id, next_attempt_at limit 1)
        union all
        select next.endpoint_id, next.id from due cross join lateral (
          select d.endpoint_id, d.id from webhook_deliveries d
          where d.status = 'PENDING' and d.next_attempt_at <= ${at} and d.endpoint_id > due.endpoint_id
          order by d.endpoint_id, d.next_attempt_at limit 1
        ) next
      ), under_way as (${underWay})
      select d.id from webhook_deliveries d
      where d.status = 'PENDING' and d.next_attempt_at <= ${at} and d.id in (
        select due.id from due join webhook_endpoints e on e.id = due.endpoint_id and e.enabled
        where (select count(*) from under_way where under_way.endpoint_id = e.id) < ${share.perEndpoint}
          and (select count(*) from under_way where under_way.user_id = e.user_id) < ${share.perOwner}
      )
      order by d.next_attempt_at, d.id
      limit 1
      for update skip locked
    )`;
    const [leased] = await db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: leaseUntil, leasedUntil: leaseUntil, attempts: sql`${webhookDeliveries.attempts} + 1` })
      .where(eq(webhookDeliveries.id, next))
      .returning();
    if (!leased) return undefined;
    const [found] = await db
      .select({ event: domainEvents, endpoint: webhookEndpoints })
      .from(domainEvents)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, leased.endpointId))
      .where(eq(domainEvents.id, leased.eventId));
    return found && { delivery: leased, ...found };
  },

  /** Settles the attempt `attempt` of a delivery, only while its lease still holds (a later lease's attempt may be under way). */
  async settleDelivery(db: Db, id: number, attempt: number, changes: Partial<DeliveryRow>): Promise<boolean> {
    const settled = await db
      .update(webhookDeliveries)
      .set({ ...changes, leasedUntil: null })
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "PENDING"), eq(webhookDeliveries.attempts, attempt)))
      .returning({ id: webhookDeliveries.id });
    return settled.length > 0;
  },

  /** The endpoint had a success: its run of failures ends. */
  async clearFailures(db: Db, endpointId: number): Promise<void> {
    await db
      .update(webhookEndpoints)
      .set({ failingSince: null })
      .where(and(eq(webhookEndpoints.id, endpointId), sql`${webhookEndpoints.failingSince} is not null`));
  },

  /**
   * The endpoint had a failure at `at`: starts its run of failures if none, and disables it when the run began at or
   * before `disableIfFailingSince`. Returns the endpoint when this failure disabled it (once, whoever races it).
   */
  async noteFailure(db: Db, endpointId: number, at: Date, disableIfFailingSince: Date): Promise<EndpointRow | undefined> {
    await db
      .update(webhookEndpoints)
      .set({ failingSince: at })
      .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.failingSince)));
    const [disabled] = await db
      .update(webhookEndpoints)
      .set({ enabled: false, updatedAt: at })
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.enabled, true), lte(webhookEndpoints.failingSince, disableIfFailingSince)))
      .returning();
    return disabled;
  },

  async findDeliveryWithEvent(db: Db, id: number) {
    const [row] = await db
      .select({ delivery: webhookDeliveries, eventPublicId: domainEvents.publicId, eventType: domainEvents.type })
      .from(webhookDeliveries)
      .innerJoin(domainEvents, eq(domainEvents.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.id, id));
    return row;
  },

  async findDelivery(db: Db, endpointId: number, id: number): Promise<DeliveryRow | undefined> {
    const [row] = await db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
    return row;
  },

  /**
   * A delivery due again now: PENDING, whatever it was; the attempt it gets counts on from its earlier ones. While an
   * attempt is under way (its lease holds), that attempt is the retry: making it due again would post it twice at once.
   */
  async requeueDelivery(db: Db, id: number, now: Date): Promise<void> {
    const at = sql`${now.toISOString()}::timestamptz`;
    await db
      .update(webhookDeliveries)
      .set({ status: "PENDING", nextAttemptAt: sql`case when ${webhookDeliveries.leasedUntil} > ${at} then ${webhookDeliveries.nextAttemptAt} else ${at} end` })
      .where(eq(webhookDeliveries.id, id));
  },

  /**
   * Deletes up to `limit` dispatched events older than `before` none of whose deliveries is still PENDING (their
   * deliveries go with them); returns how many.
   */
  async deleteSettledEvents(db: Db, before: Date, limit: number): Promise<number> {
    const doomed = db
      .select({ id: domainEvents.id })
      .from(domainEvents)
      .where(
        and(
          lt(domainEvents.createdAt, before),
          isNotNull(domainEvents.dispatchedAt),
          notExists(
            db
              .select({ id: webhookDeliveries.id })
              .from(webhookDeliveries)
              .where(and(eq(webhookDeliveries.eventId, domainEvents.id), eq(webhookDeliveries.status, "PENDING"))),
          ),
        ),
      )
      .limit(limit);
    const deleted = await db.delete(domainEvents).where(inArray(domainEvents.id, doomed)).returning({ id: domainEvents.id });
    return deleted.length;
  },
};
