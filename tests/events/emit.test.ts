import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emit } from "../../src/modules/events/emit.js";
import { rowsOf } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent, makeTrainer } from "../factories/users.js";

const t = useTestApp();

/** What the events left behind for the two users: their change-feed rows and the outbox rows naming them. */
async function storedFor(userIds: number[]) {
  const changes = rowsOf<{ user_id: number; entity: string; entity_id: number }>(
    await t.db.execute(
      sql`select user_id, entity, entity_id from sync_changes where user_id = any(${sql.param(userIds)}::int[]) and entity_id = 990001 order by id`,
    ),
  );
  const outbox = rowsOf<{ type: string; subject_user_ids: number[] }>(
    await t.db.execute(
      sql`select type, subject_user_ids from domain_events where subject_user_ids && ${sql.param(userIds)}::int[] and data->>'probe' = 'emit'`,
    ),
  );
  return { changes, outbox };
}

describe("events", () => {
  it("stores nothing, neither the change feed's rows nor the outbox's, for a write that rolls back", async () => {
    const [trainer, student] = [await makeTrainer(t), await makeStudent(t)];
    const parties = [trainer.id, student.id];
    await expect(
      t.db.transaction(async (tx) => {
        await emit(tx, new Date(), { type: "link.updated", linkId: 990001, subjectUserIds: parties, data: { probe: "emit" } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await storedFor(parties)).toEqual({ changes: [], outbox: [] });
  });

  it("records a public event for the change feed's audience and in the outbox, an internal one for the change feed only", async () => {
    const [trainer, student] = [await makeTrainer(t), await makeStudent(t)];
    const parties = [trainer.id, student.id];
    await t.db.transaction(async (tx) => {
      await emit(
        tx,
        new Date(),
        { type: "link.updated", linkId: 990001, subjectUserIds: parties, data: { probe: "emit" } },
        { type: "exercise.created", exerciseId: 990001, ownerId: trainer.id },
      );
    });
    expect(await storedFor(parties)).toEqual({
      changes: [
        { user_id: trainer.id, entity: "link", entity_id: 990001 },
        { user_id: student.id, entity: "link", entity_id: 990001 },
        { user_id: trainer.id, entity: "exercise", entity_id: 990001 },
      ],
      outbox: [{ type: "link.updated", subject_user_ids: parties }],
    });
  });
});
