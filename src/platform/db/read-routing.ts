import type postgres from "postgres";
import { currentCaller, type Caller } from "./account-writes.js";
import type { Db } from "./database.js";
import { connectionLost } from "./database-unavailable.js";
import { pgErrorWhere } from "./constraint-violation.js";

/*
 * Reads that may be a few seconds stale go to streaming replicas (contract §17), and a user still reads what they wrote,
 * as GitLab's database load balancing does: each signed-in user's read position (the primary's WAL position after their
 * last write, or after the last event that reached them) is kept on the primary, and a replica serves their reads only
 * once it has replayed that far. A service only says that a read may be stale (mayBeStale); which server answers is
 * decided here, statement by statement, so no module knows about replicas.
 */

/** How often each replica's health and lag are read. */
const POLL_INTERVAL_MS = 1_000;
/** A replica whose last poll answered longer ago than this serves nothing (down, a hung connection, a cut network). */
const HEALTH_VALID_MS = 3_000;
/** A read position older than the lag limit by this much is met by every usable replica: its row may go. */
const READ_POSITION_KEPT_PAST_LAG_MS = 60_000;

const REPLICA_STATUS = `select pg_is_in_recovery() as recovering, pg_last_wal_replay_lsn()::text as replayed,
  greatest(0, extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000)::float8 as since_replay_ms`;
const REPLICA_REPLAYED = "select pg_last_wal_replay_lsn()::text as replayed";
const PRIMARY_POSITION = "select pg_current_wal_lsn()::text as lsn";
/** Moves users' read positions up to the primary's WAL position now (never back), answering the greatest. */
const ADVANCE_READ_POSITIONS = `insert into read_positions (user_id, lsn, recorded_at)
  select user_id, pg_current_wal_lsn(), now() from unnest($1::int[]) as user_id
  on conflict (user_id) do update set lsn = greatest(read_positions.lsn, excluded.lsn), recorded_at = excluded.recorded_at
  returning lsn::text as lsn`;
const READ_POSITION = "select lsn::text as lsn from read_positions where user_id = $1";
const PRUNE_READ_POSITIONS = "delete from read_positions where recorded_at < now() - make_interval(secs => $1::float8)";
/**
 * A statement that writes, sent outside a transaction: its first word, or for one that begins with a CTE a writing
 * clause in it (`insert into`, `delete from`, `update … set`). A read taken for a write costs one statement more.
 */
const WRITE_STATEMENT = /^\s*(insert|update|delete|merge)\b|^\s*with\b[\s\S]*\b(insert\s+into|delete\s+from|update\s+("[^"]+"|\w+)\s+set)\b/i;
/** SQLSTATE a replica answers when replaying the primary's WAL cancels a query (a conflict with recovery). */
const RECOVERY_CONFLICT = "40001";

/** A replica's connection pool, named `host:port` in metrics. */
export interface ReplicaPool {
  name: string;
  client: postgres.Sql;
}

/** Why a stale-ok read was sent to the primary. */
export type PrimaryReason = "no_usable_replica" | "replicas_behind_caller" | "replica_failed";

export interface ReplicaReport {
  name: string;
  usable: boolean;
  /** Undefined while the replica does not answer. */
  lagSeconds: number | undefined;
  /** Statements it answered. */
  reads: number;
}

/** A WAL position as a number: `X/Y` is two 32-bit halves in hexadecimal. */
function lsnValue(text: string): bigint {
  const [high, low] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** One replica: its pool, and what its last poll said. */
class Replica {
  reads = 0;
  /** The greatest WAL position it was seen to have replayed. */
  replayed = 0n;
  lagMs = Number.POSITIVE_INFINITY;
  private answeredAt = Number.NEGATIVE_INFINITY;
  /** When the primary's position it was last seen to have replayed was read: it holds every commit before then. */
  private caughtUpAt = Number.NEGATIVE_INFINITY;
  private polling: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(
    readonly name: string,
    readonly client: postgres.Sql,
  ) {}

  usable(maxLagMs: number, now: number): boolean {
    return now - this.answeredAt <= HEALTH_VALID_MS && this.lagMs <= maxLagMs;
  }

  answering(now: number): boolean {
    return now - this.answeredAt <= HEALTH_VALID_MS;
  }

  /**
   * Reads its state, given the primary's position read at `primary.readAt`. Lag: none when it has replayed that
   * position (a replica of an idle primary is not behind), else the time since the commit it last replayed or since it
   * was last caught up, whichever is shorter: both bound how old the newest commit it lacks can be.
   */
  poll(primary: { lsn: bigint; readAt: number } | undefined): Promise<void> {
    return (this.polling ??= this.client
      .unsafe<{ recovering: boolean; replayed: string | null; since_replay_ms: number | null }[]>(REPLICA_STATUS)
      .then(
        ([row]) => {
          const now = Date.now();
          // A server out of recovery has been promoted: it no longer follows this primary.
          if (!row.recovering || row.replayed === null) return this.down();
          this.replayedUpTo(row.replayed);
          if (primary && this.replayed >= primary.lsn) this.caughtUpAt = Math.max(this.caughtUpAt, primary.readAt);
          this.lagMs = primary && this.replayed >= primary.lsn ? 0 : Math.min(row.since_replay_ms ?? Number.POSITIVE_INFINITY, now - this.caughtUpAt);
          this.answeredAt = now;
        },
        () => this.down(),
      )
      .finally(() => (this.polling = undefined)));
  }

  /** Reads how far it has replayed now (once at a time, however many statements ask). */
  refresh(): Promise<void> {
    return (this.refreshing ??= this.client
      .unsafe<{ replayed: string | null }[]>(REPLICA_REPLAYED)
      .then(
        ([row]) => {
          if (row.replayed !== null) this.replayedUpTo(row.replayed);
        },
        () => this.down(),
      )
      .finally(() => (this.refreshing = undefined)));
  }

  /** Serves nothing until a poll finds it answering again. */
  down(): void {
    this.answeredAt = Number.NEGATIVE_INFINITY;
  }

  private replayedUpTo(text: string): void {
    const lsn = lsnValue(text);
    if (lsn > this.replayed) this.replayed = lsn;
  }
}

/** What one request of a signed-in caller knows of its read position (nothing is kept across requests). */
interface CallerReads {
  /** Undefined when the caller has none (no write, or one older than any usable replica's lag). */
  position?: Promise<bigint | undefined>;
  /** The one refresh of a replica behind the position that this request may ask for. */
  refreshed?: Promise<void>;
}

type StatementMode = "rows" | "values";

/**
 * A statement as Drizzle's postgres.js session uses one: it may call `.values()` (rows as arrays), then awaits it;
 * it is sent once, on the first await, wherever `send` decides.
 */
class RoutedStatement implements PromiseLike<unknown> {
  private mode: StatementMode = "rows";
  private answer: Promise<unknown> | undefined;

  constructor(private readonly send: (mode: StatementMode) => Promise<unknown>) {}

  values(): this {
    this.mode = "values";
    return this;
  }

  then<Done = unknown, Failed = never>(
    done?: ((value: unknown) => Done | PromiseLike<Done>) | null,
    failed?: ((reason: unknown) => Failed | PromiseLike<Failed>) | null,
  ): Promise<Done | Failed> {
    this.answer ??= this.send(this.mode);
    return this.answer.then(done, failed);
  }
}

type Unsafe = (text: string, parameters?: unknown[], options?: postgres.UnsafeQueryOptions) => postgres.PendingQuery<postgres.Row[]>;

function run(client: postgres.Sql, text: string, parameters: unknown[] | undefined, options: postgres.UnsafeQueryOptions | undefined, mode: StatementMode) {
  const query = (client.unsafe as Unsafe)(text, parameters, options);
  return mode === "values" ? query.values() : query;
}

/**
 * The replicas of one primary and how statements choose among them. Each statement of a stale-ok database
 * (`staleDb`) goes to a usable replica (answering, lag within `maxLagMs`, and for a signed-in caller replayed up to
 * their read position), else to the primary; a replica lost under a statement hands it to the primary, so a slow or
 * gone replica never fails a read. The primary's own database records the read position of a signed-in caller after
 * each of their transactions commits (and each write sent outside one), before the request goes on.
 */
export class ReadRouting {
  private readonly replicas: Replica[];
  private readonly callers = new WeakMap<Caller, CallerReads>();
  private readonly onPrimary: Record<PrimaryReason, number> = { no_usable_replica: 0, replicas_behind_caller: 0, replica_failed: 0 };
  private readonly timer: NodeJS.Timeout;
  private polling: Promise<void> | undefined;
  private next = 0;
  /** Set by `serve`: the database whose statements may go to a replica. */
  staleDb: Db | undefined;

  constructor(
    private readonly primary: postgres.Sql,
    replicas: readonly ReplicaPool[],
    private readonly maxLagMs: number,
  ) {
    this.replicas = replicas.map(({ name, client }) => new Replica(name, client));
    void this.poll();
    this.timer = setInterval(() => void this.poll(), POLL_INTERVAL_MS);
    this.timer.unref();
  }

  /** Makes `staleDb` (a database on `routingReads`) what mayBeStale(db) answers. */
  serve(db: Db, staleDb: Db): void {
    this.staleDb = staleDb;
    routings.set(db, this);
  }

  /** The primary's client, recording a signed-in caller's read position after each of their writes. */
  recordingWrites(): postgres.Sql {
    return new Proxy(this.primary, {
      get: (target, property, receiver) => {
        if (property === "begin") {
          return (...args: unknown[]) => {
            const caller = currentCaller();
            const committed = (target.begin as (...a: unknown[]) => Promise<unknown>)(...args);
            return caller ? committed.then(async (result) => (await this.recordWrite(caller), result)) : committed;
          };
        }
        if (property === "unsafe") {
          return (text: string, parameters?: unknown[], options?: postgres.UnsafeQueryOptions) => {
            const caller = currentCaller();
            if (!caller || !WRITE_STATEMENT.test(text)) return (target.unsafe as Unsafe)(text, parameters, options);
            return new RoutedStatement(async (mode) => {
              const answer = await run(target, text, parameters, options, mode);
              await this.recordWrite(caller);
              return answer;
            });
          };
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
  }

  /**
   * The primary's client, each of its statements, and each of its transactions whole (read only: a reading that needs
   * one snapshot), sent where `replicaFor` says.
   */
  routingReads(): postgres.Sql {
    return new Proxy(this.primary, {
      get: (target, property, receiver) => {
        if (property === "unsafe") {
          return (text: string, parameters?: unknown[], options?: postgres.UnsafeQueryOptions) =>
            new RoutedStatement((mode) => this.routed((client) => run(client, text, parameters, options, mode)));
        }
        if (property === "begin") return (...args: unknown[]) => this.routed((client) => (client.begin as (...a: unknown[]) => Promise<unknown>)(...args));
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
  }

  /** From now on, these users' stale-ok reads see every write committed so far (an event about to reach them). */
  async advance(userIds: readonly number[]): Promise<void> {
    if (userIds.length > 0) await this.primary.unsafe(ADVANCE_READ_POSITIONS, [[...new Set(userIds)]]);
  }

  /** Deletes the read positions every usable replica has replayed anyway. */
  async prune(): Promise<void> {
    await this.primary.unsafe(PRUNE_READ_POSITIONS, [(this.maxLagMs + READ_POSITION_KEPT_PAST_LAG_MS) / 1000]);
  }

  /** Each replica's state and reads, and the stale-ok reads the primary answered, by reason (for /metrics). */
  report(): { replicas: ReplicaReport[]; onPrimary: Record<PrimaryReason, number> } {
    const now = Date.now();
    return {
      replicas: this.replicas.map((replica) => ({
        name: replica.name,
        usable: replica.usable(this.maxLagMs, now),
        lagSeconds: replica.answering(now) && Number.isFinite(replica.lagMs) ? replica.lagMs / 1000 : undefined,
        reads: replica.reads,
      })),
      onPrimary: { ...this.onPrimary },
    };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.polling;
    await Promise.all(this.replicas.map((replica) => replica.client.end({ timeout: 5 })));
  }

  /** The primary's position, then each replica's state (a replica that hangs holds up only its own polls). */
  private poll(): Promise<void> {
    const readAt = Date.now();
    return (this.polling ??= this.primary
      .unsafe<{ lsn: string }[]>(PRIMARY_POSITION)
      .then(
        ([row]) => ({ lsn: lsnValue(row.lsn), readAt }),
        () => undefined,
      )
      .then((primary) => {
        for (const replica of this.replicas) void replica.poll(primary);
      })
      .finally(() => (this.polling = undefined)));
  }

  /**
   * `work` (a statement, or a read-only transaction) on a replica, else on the primary; again on the primary when the
   * replica is lost under it or cancels it (replaying WAL that conflicts with it): reads, so running them again is safe.
   */
  private async routed(work: (client: postgres.Sql) => PromiseLike<unknown>): Promise<unknown> {
    const replica = await this.replicaFor();
    if (typeof replica === "string") {
      this.onPrimary[replica]++;
      return work(this.primary);
    }
    try {
      const answer = await work(replica.client);
      replica.reads++;
      return answer;
    } catch (error) {
      const lost = connectionLost(error);
      if (!lost && !pgErrorWhere(error, (e) => e.code === RECOVERY_CONFLICT)) throw error;
      if (lost) replica.down();
      this.onPrimary.replica_failed++;
      return work(this.primary);
    }
  }

  /** A usable replica for the statement about to be sent (the next in turn among those that qualify), else why none. */
  private async replicaFor(): Promise<Replica | PrimaryReason> {
    const now = Date.now();
    const usable = this.replicas.filter((replica) => replica.usable(this.maxLagMs, now));
    if (usable.length === 0) return "no_usable_replica";
    const caller = currentCaller();
    if (!caller) return this.inTurn(usable);
    const reads = this.readsOf(caller);
    const position = await (reads.position ??= this.positionOf(caller.accountId));
    if (position === undefined) return this.inTurn(usable);
    const ready = usable.filter((replica) => replica.replayed >= position);
    if (ready.length > 0) return this.inTurn(ready);
    // What it replayed since its last poll may be enough: asked once per request, of the replica furthest ahead.
    const ahead = usable.reduce((best, replica) => (replica.replayed > best.replayed ? replica : best));
    await (reads.refreshed ??= ahead.refresh());
    return ahead.replayed >= position ? ahead : "replicas_behind_caller";
  }

  private inTurn(replicas: Replica[]): Replica {
    this.next = (this.next + 1) % replicas.length;
    return replicas[this.next];
  }

  private readsOf(caller: Caller): CallerReads {
    let reads = this.callers.get(caller);
    if (!reads) this.callers.set(caller, (reads = {}));
    return reads;
  }

  private async positionOf(userId: number): Promise<bigint | undefined> {
    const [row] = await this.primary.unsafe<{ lsn: string }[]>(READ_POSITION, [userId]);
    return row ? lsnValue(row.lsn) : undefined;
  }

  /**
   * After a caller's write has committed: their read position, and this request's. A failure is left unsaid: the
   * write has committed, and failing its request would have the client send it again; a primary that cannot take
   * this statement fails the reads after it too.
   */
  private async recordWrite(caller: Caller): Promise<void> {
    const reads = this.readsOf(caller);
    try {
      const [row] = await this.primary.unsafe<{ lsn: string }[]>(ADVANCE_READ_POSITIONS, [[caller.accountId]]);
      reads.position = Promise.resolve(lsnValue(row.lsn));
    } catch {
      reads.position = undefined;
    }
    reads.refreshed = undefined;
  }
}

const routings = new WeakMap<Db, ReadRouting>();

/**
 * `db` for reads that may be a few seconds stale (listings, statistics, records, the dashboard, exports…): its
 * statements, and its transactions whole, may go to a replica that has replayed the caller's own writes, so its
 * transactions must only read. `db` itself when it is a transaction (reads inside a write see the write), on PGlite,
 * and when no replica is configured.
 */
export function mayBeStale(db: Db): Db {
  return routings.get(db)?.staleDb ?? db;
}

/**
 * Before an event reaches these users (a live update, a webhook): their stale-ok reads will see everything committed
 * so far, the event's write among it. Nothing without replicas.
 */
export async function advanceReadPositions(db: Db, userIds: readonly number[]): Promise<void> {
  await routings.get(db)?.advance(userIds);
}

/** The replicas `db` reads from, if any. */
export function readRoutingOf(db: Db): ReadRouting | undefined {
  return routings.get(db);
}
