import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { afterCommit } from "../../src/platform/db/after-commit.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

/** Lets hooks scheduled after a commit run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("work after a commit", () => {
  it("runs once the transaction has committed, sees what it wrote, and never runs for a rollback", async () => {
    const seen: string[] = [];
    await t.db.transaction(async (tx) => {
      afterCommit(tx, async () => {
        const result = await t.db.execute(sql`select 1 as one from users limit 0`);
        seen.push(`after commit (${Array.isArray(result) ? "postgres" : "pglite"})`);
      });
      await settle();
      seen.push("still in the transaction");
    });
    // The hook's own statement may take longer than a settle on a loaded machine: wait for it, in order.
    await vi.waitFor(() => expect(seen).toEqual(["still in the transaction", expect.stringMatching(/^after commit/)]));

    const rolledBack: string[] = [];
    await expect(
      t.db.transaction(async (tx) => {
        afterCommit(tx, () => rolledBack.push("ran"));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await settle();
    expect(rolledBack).toEqual([]);
  });

  it("keeps a savepoint's hooks for the outer commit, and drops them when the savepoint rolls back", async () => {
    const seen: string[] = [];
    await t.db.transaction(async (tx) => {
      await tx.transaction(async (kept) => {
        afterCommit(kept, () => seen.push("released savepoint"));
      });
      await tx
        .transaction(async (dropped) => {
          afterCommit(dropped, () => seen.push("rolled-back savepoint"));
          throw new Error("savepoint rolled back");
        })
        .catch(() => undefined);
      await settle();
      expect(seen).toEqual([]);
    });
    await settle();
    expect(seen).toEqual(["released savepoint"]);
  });

  it("runs at once outside a transaction, and a failing hook never fails the caller", async () => {
    const seen: string[] = [];
    afterCommit(t.db, () => {
      throw new Error("hook failed");
    });
    afterCommit(t.db, () => seen.push("ran"));
    await settle();
    expect(seen).toEqual(["ran"]);
    expect(t.logLines.join("")).toContain("work after a commit failed");
  });
});
