import { expect } from "vitest";
import type { TestApp } from "../helpers/test-app.js";

export interface Change {
  entity: string;
  id: number;
  op: "UPSERT" | "DELETE";
  changedAt: string;
  data: any;
}

export interface FeedPage {
  changes: Change[];
  cursor: string;
  hasMore: boolean;
}

/** One GET /api/sync/changes that must succeed. */
export async function feedPage(t: TestApp, token: string, since?: string, limit?: number): Promise<FeedPage> {
  const query = new URLSearchParams();
  if (since !== undefined) query.set("since", since);
  if (limit !== undefined) query.set("limit", String(limit));
  const res = await t.get(`/api/sync/changes${query.size ? `?${query}` : ""}`, { token });
  if (res.status !== 200) throw new Error(`sync/changes failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Every page from `since` (none: an initial sync) until hasMore is false: their changes and the last cursor. */
export async function readFeed(t: TestApp, token: string, since?: string, limit?: number): Promise<{ changes: Change[]; cursor: string; pages: number }> {
  const changes: Change[] = [];
  let cursor = since;
  for (let pages = 1; ; pages += 1) {
    const page = await feedPage(t, token, cursor, limit);
    changes.push(...page.changes);
    cursor = page.cursor;
    if (!page.hasMore) return { changes, cursor, pages };
    if (pages > 10_000) throw new Error("the feed never ends");
  }
}

export const keyOf = (change: Pick<Change, "entity" | "id">) => `${change.entity}:${change.id}`;

/** A client's copy of what it sees: entity:id → data, changes applied in order. */
export class Picture {
  readonly items = new Map<string, any>();

  apply(changes: Change[]): this {
    for (const change of changes) {
      if (change.op === "UPSERT") this.items.set(keyOf(change), change.data);
      else this.items.delete(keyOf(change));
    }
    return this;
  }

  keys(entity?: string): string[] {
    return [...this.items.keys()].filter((key) => entity === undefined || key.startsWith(`${entity}:`)).sort();
  }

  get(entity: string, id: number): any {
    return this.items.get(`${entity}:${id}`);
  }

  /** As plain sorted entries, for comparing two pictures. */
  toJSON() {
    return Object.fromEntries([...this.items.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** A client that synced from scratch and follows the feed. */
export class Follower {
  readonly picture = new Picture();
  cursor = "";
  /** Every change received, in order. */
  readonly received: Change[] = [];

  constructor(
    private readonly t: TestApp,
    public token: string,
  ) {}

  async start(limit?: number): Promise<this> {
    const { changes, cursor } = await readFeed(this.t, this.token, undefined, limit);
    this.picture.apply(changes);
    this.cursor = cursor;
    return this;
  }

  /** Reads until caught up; answers what came. */
  async poll(limit?: number): Promise<Change[]> {
    const { changes, cursor } = await readFeed(this.t, this.token, this.cursor, limit);
    this.picture.apply(changes);
    this.received.push(...changes);
    this.cursor = cursor;
    return changes;
  }
}

/** A fresh initial sync's picture must equal the follower's. */
export async function expectSameAsFreshSync(t: TestApp, follower: Follower) {
  const fresh = new Picture().apply((await readFeed(t, follower.token)).changes);
  expect(follower.picture.toJSON()).toEqual(fresh.toJSON());
}

/** The (entity, id, op) of changes, in order. */
export const ops = (changes: Change[]) => changes.map((change) => `${change.op} ${change.entity}:${change.id}`);
