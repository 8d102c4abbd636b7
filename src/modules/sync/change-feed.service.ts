import { z } from "zod";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { DAY_MS } from "../../platform/dates.js";
import { AppError, invalidParameter } from "../../platform/errors.js";
import type { InputReader } from "../../platform/validation.js";
import { decodeCursor, encodeCursor, MAX_AHEAD, type FeedCursor } from "./change-feed.cursor.js";
import type { ChangeDto, ChangeFeedPageDto } from "./change-feed.dto.js";
import type { ChangeFeedQuery } from "./change-feed.inputs.js";
import type { FeedSource } from "../events/feed-source.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import { idempotencyRepository } from "./idempotency.repository.js";
import { changeFeedRepository, type FeedPosition } from "./change-feed.repository.js";
import { SYNC_ENTITIES, type SyncEntity } from "../../tables/sync-change.table.js";

export const CURSOR_EXPIRED = "Cursor expirado; sincronize novamente sem since";
/** How long changes are kept (contract §13.3): a cursor not caught up within it is refused (410). */
export const FEED_RETENTION_MS = 90 * DAY_MS;
/**
 * Rows are pruned this much later than cursors expire: a row past a cursor was written at most one transaction's
 * length before the cursor caught up (its transaction was still running then), so no cursor still taken can miss one.
 */
export const PRUNE_MARGIN_MS = DAY_MS;
const PRUNE_BATCH = 5_000;

/** The module owning each entity kind, asked for what the reader sees of it. */
export type FeedSources = Record<SyncEntity, FeedSource>;

export interface ChangeFeedServiceDeps {
  db: Db;
  clock: Clock;
  sources: FeedSources;
  /** Authenticates the cursors this service hands out (derived from the service's signing secret). */
  cursorKey: string;
}

/** The change feed keeps nothing of its own a person's export would hold (contract §15). */
const changeFeedExport = z.object({});

/**
 * The change feed (contract §13.3): what changed for the caller since a cursor, or everything it sees (an initial
 * sync), page by page. The events the domain services emit record changes in their transactions
 * (change-feed.subscriber.ts); here they are read back in (transaction id, row id) order, those committed past the
 * oldest transaction still running too (the cursor lists them), and each entity is read as it is now through its
 * module, in one or two statements per kind on the page: UPSERT with its REST DTO if the caller still sees it, else
 * DELETE.
 */
export class ChangeFeedService {
  constructor(private readonly deps: ChangeFeedServiceDeps) {}

  /**
   * The sync module's rows of a user (contract §15): their change log and the answers their idempotency keys keep,
   * copies of data other modules export. Erasure deletes both; it runs after every other module, whose changes it
   * recorded for the user are then of no use to anyone.
   */
  readonly personalData: PersonalDataHolder<typeof changeFeedExport> = {
    exportSections: changeFeedExport,
    exportPersonalData: async () => ({}),
    erasePersonalData: async (tx, userId) => {
      await changeFeedRepository.deleteFeedOf(tx, userId);
      await idempotencyRepository.deleteDoneOf(tx, userId);
    },
  };

  async changes(actor: Actor, readQuery: InputReader<ChangeFeedQuery>): Promise<ChangeFeedPageDto> {
    const reader = requireUser(actor);
    const { since, limit } = readQuery();
    const now = this.deps.clock.now().getTime();
    if (since === undefined) {
      // Taken before anything is listed: what committed before it is in the listing, the rest comes as changes.
      const position = { xid: await changeFeedRepository.settledBelow(this.deps.db), id: 0 };
      return this.list(reader, { userId: reader.id, position, caughtUpAt: now, listing: { kind: 0, afterId: 0 } }, limit);
    }
    const cursor = decodeCursor(since, this.deps.cursorKey, SYNC_ENTITIES.length);
    if (!cursor || cursor.userId !== reader.id) throw invalidParameter("since");
    if (cursor.caughtUpAt < now - FEED_RETENTION_MS) throw new AppError(410, CURSOR_EXPIRED);
    return cursor.listing ? this.list(reader, cursor, limit) : this.follow(reader, cursor, limit, now);
  }

  /** The pruning job: drops changes older than the retention (and its margin). */
  async prune(): Promise<number> {
    const before = new Date(this.deps.clock.now().getTime() - FEED_RETENTION_MS - PRUNE_MARGIN_MS);
    let pruned = 0;
    for (;;) {
      const n = await changeFeedRepository.prune(this.deps.db, before, PRUNE_BATCH);
      pruned += n;
      if (n < PRUNE_BATCH) return pruned;
    }
  }

  private encode(cursor: FeedCursor): string {
    return encodeCursor(cursor, this.deps.cursorKey);
  }

  /** An initial sync's page: the entities the reader sees, kind after kind, by id; past the last, the changes since it began. */
  private async list(reader: UserActor, cursor: FeedCursor, limit: number): Promise<ChangeFeedPageDto> {
    const changedAt = new Date(cursor.caughtUpAt);
    const changes: ChangeDto[] = [];
    let { kind, afterId } = cursor.listing!;
    while (kind < SYNC_ENTITIES.length && changes.length < limit) {
      const entity = SYNC_ENTITIES[kind];
      const source = this.deps.sources[entity];
      const room = limit - changes.length;
      const ids = await source.idsAfter(reader, afterId, room + 1);
      const taken = ids.slice(0, room);
      const found = await source.load(reader, taken);
      // One gone since its id was listed is left out: its change comes after the listing.
      for (const id of taken) {
        const data = found.get(id);
        if (data !== undefined) changes.push({ entity, id, op: "UPSERT", changedAt, data: data as object });
      }
      if (ids.length > room) {
        afterId = taken[taken.length - 1];
        break;
      }
      kind += 1;
      afterId = 0;
    }
    if (kind < SYNC_ENTITIES.length) {
      return { changes, cursor: this.encode({ ...cursor, listing: { kind, afterId } }), hasMore: true };
    }
    // Listed: the room left goes to what changed since the listing began, so hasMore false always means caught up.
    const { listing: _listed, ...since } = cursor;
    if (changes.length === limit) return { changes, cursor: this.encode(since), hasMore: true };
    const after = await this.follow(reader, since, limit - changes.length, this.deps.clock.now().getTime());
    return { ...after, changes: [...changes, ...after.changes] };
  }

  /**
   * The changes past the cursor the database shows committed, each entity read as the reader sees it now. Those below
   * the horizon (every older transaction ended) move the cursor's position; those above it (committed while an
   * older transaction still runs, such as the reader's own write a moment ago) are handed out too, and the cursor
   * keeps them as `ahead` until the position passes them, so the older transaction's rows still come, once, when it
   * commits. At most MAX_AHEAD transactions ahead: later ones wait for the horizon, as all did before.
   */
  private async follow(reader: UserActor, cursor: FeedCursor, limit: number, now: number): Promise<ChangeFeedPageDto> {
    const ahead = cursor.ahead ?? [];
    const { settledBelow, rows } = await changeFeedRepository.page(this.deps.db, reader.id, cursor.position, ahead, limit + 1);
    const horizon = BigInt(settledBelow);
    const above = (xid: string) => BigInt(xid) >= horizon;
    // Rows come in (xid, id) order, every settled one before any above the horizon: the handed-out ones are a prefix.
    const aheadXids = new Set(ahead.filter((at) => above(at.xid)).map((at) => at.xid));
    let handable = 0;
    for (const row of rows) {
      if (above(row.xid) && !aheadXids.has(row.xid)) {
        if (aheadXids.size === MAX_AHEAD) break;
        aheadXids.add(row.xid);
      }
      handable += 1;
    }
    const hasMore = handable > limit;
    const page = rows.slice(0, Math.min(handable, limit));
    const idsByEntity = new Map<SyncEntity, number[]>();
    for (const row of page) {
      const ids = idsByEntity.get(row.entity) ?? [];
      if (!ids.includes(row.entityId)) ids.push(row.entityId);
      idsByEntity.set(row.entity, ids);
    }
    const loaded = new Map(
      await Promise.all([...idsByEntity].map(async ([entity, ids]) => [entity, await this.deps.sources[entity].load(reader, ids)] as const)),
    );
    const changes = page.map((row): ChangeDto => {
      const data = loaded.get(row.entity)!.get(row.entityId);
      return data === undefined
        ? { entity: row.entity, id: row.entityId, op: "DELETE", changedAt: row.changedAt, data: null }
        : { entity: row.entity, id: row.entityId, op: "UPSERT", changedAt: row.changedAt, data: data as object };
    });
    // Cut short below the horizon: the next page starts after this one's last change. Else every change below the
    // horizon is handed out, and what comes later was written at most one transaction's length before now.
    const last = page[page.length - 1];
    const position = hasMore && !above(last.xid) ? { xid: last.xid, id: last.id } : furthest(cursor.position, { xid: settledBelow, id: 0 });
    const handedAhead = [...ahead, ...page.filter((row) => above(row.xid)).map((row) => ({ xid: row.xid, id: row.id }))];
    const next: FeedCursor = {
      userId: reader.id,
      position,
      caughtUpAt: hasMore ? cursor.caughtUpAt : Math.max(cursor.caughtUpAt, now),
      // One entry per transaction, its last row handed out; those the position passed say nothing more.
      ahead: [...new Map(handedAhead.filter((at) => isPast(at, position)).map((at) => [at.xid, at])).values()],
    };
    return { changes, cursor: this.encode(next), hasMore };
  }
}

/** Whether position `a` comes after position `b` in feed order. */
function isPast(a: FeedPosition, b: FeedPosition): boolean {
  const [x, y] = [BigInt(a.xid), BigInt(b.xid)];
  return x > y || (x === y && a.id > b.id);
}

/** The later of two feed positions. */
function furthest(a: FeedPosition, b: FeedPosition): FeedPosition {
  return isPast(b, a) ? b : a;
}
