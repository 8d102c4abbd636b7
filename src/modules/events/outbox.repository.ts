import type { Db } from "../../platform/db/database.js";
import { domainEvents } from "../../tables/events.table.js";

export const outboxRepository = {
  async insertEvents(db: Db, rows: (typeof domainEvents.$inferInsert)[]) {
    if (rows.length === 0) return [];
    return db
      .insert(domainEvents)
      .values(rows)
      .returning({ id: domainEvents.id, publicId: domainEvents.publicId, type: domainEvents.type, subjectUserIds: domainEvents.subjectUserIds });
  },
};
