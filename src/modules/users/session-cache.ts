import type { Clock } from "../../platform/clock.js";
import type { InstanceBus } from "../../platform/instance-bus.js";

/** What `authenticate` reads of a token's user: the user's role and session version, and whether the token was revoked. */
export interface SessionUser {
  id: number;
  userType: "ALUNO" | "PERSONAL";
  isAdmin: boolean;
  sessionVersion: number;
  revoked: boolean;
}

const TOPIC = "sessions";
/**
 * How long an entry is trusted without news. Every change `authenticate` depends on is announced on the bus, so this
 * only bounds what a change made behind the service's back (SQL by hand) takes to be seen.
 */
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * The session users `authenticate` read, kept per (user, token id) for a short while so that a request costs no
 * query, and forgotten on every instance at once when what it checks changes: a token revoked (logout, refresh), the
 * session version moved (password reset), the role or admin flag changed, the user gone. The users module announces
 * those on the instance bus right after their commit (`tokenRevoked`, `usersChanged`); any future change of them
 * must be announced too.
 *
 * Only trusted while the bus is live: when it stops (its connection lost, announcements missed), everything is
 * forgotten and nothing is kept until it is live again. A read that an announcement overtook is not kept either.
 */
export class SessionCache {
  private readonly entries = new Map<string, { user: SessionUser; until: number }>();
  /** Moves on every announcement and interruption: a read that began before it may hold what they replaced. */
  private generation = 0;
  private readonly watchers = new Set<(userId: number) => void>();

  constructor(
    private readonly bus: InstanceBus,
    private readonly clock: Clock,
  ) {
    bus.subscribe(TOPIC, {
      message: (body) => this.forget(body),
      interrupted: () => {
        this.generation++;
        this.entries.clear();
      },
    });
  }

  /** The session user of this token: kept, or read with `load` (and kept while nothing said otherwise meanwhile). */
  async get(userId: number, tokenId: string, load: () => Promise<SessionUser | null>): Promise<SessionUser | null> {
    const key = `${userId} ${tokenId}`;
    const now = this.clock.now().getTime();
    const kept = this.entries.get(key);
    if (kept && kept.until > now && this.bus.live) return kept.user;
    const generation = this.generation;
    const user = await load();
    if (user && this.bus.live && generation === this.generation) {
      this.entries.delete(key);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { user, until: now + TTL_MS });
    }
    return user;
  }

  /** Announces, on every instance, that this token no longer opens a session. */
  tokenRevoked(userId: number, tokenId: string): Promise<void> {
    return announce(this.bus, `${userId} ${tokenId}`);
  }

  /** Announces, on every instance, that these users' sessions must be read again (session version, role, admin flag). */
  usersChanged(userIds: readonly number[]): Promise<void> {
    return usersChanged(this.bus, userIds);
  }

  /**
   * Calls `watcher` with the user of every session news heard from now on (from any instance): what holds a session
   * open for long (a WebSocket) checks then whether its token still opens one. Returns the unwatch.
   */
  watch(watcher: (userId: number) => void): () => void {
    this.watchers.add(watcher);
    return () => void this.watchers.delete(watcher);
  }

  private forget(body: string) {
    this.generation++;
    const [userId, tokenId] = body.split(" ");
    if (tokenId !== undefined) this.entries.delete(body);
    else for (const key of this.entries.keys()) if (key.slice(0, key.indexOf(" ")) === userId) this.entries.delete(key);
    // Once forgotten: a watcher that checks at once reads afresh.
    this.watchers.forEach((watcher) => watcher(Number(userId)));
  }
}

const announce = (bus: InstanceBus, body: string) => bus.publish(TOPIC, body);

/** `usersChanged` for a process without a cache of its own (the admin command line). */
export async function usersChanged(bus: InstanceBus, userIds: readonly number[]): Promise<void> {
  for (const id of userIds) await announce(bus, String(id));
}
