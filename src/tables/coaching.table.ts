import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { createdAt, instant, oneOf, updatedAt } from "../platform/db/columns.js";
import { users } from "./user.table.js";

/** CANCELED: a party's account was erased while the invite waited (contract §15). */
export const INVITE_STATUSES = ["PENDING", "ACCEPTED", "REJECTED", "EXPIRED", "CANCELED"] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];
export const LINK_STATUSES = ["ACTIVE", "INACTIVE"] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** A trainer's invitation of a student (by e-mail); lives 7 days. */
export const invites = pgTable(
  "invites",
  {
    id: serial("id").primaryKey(),
    personalId: integer("personal_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    studentId: integer("student_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    studentEmail: varchar("student_email", { length: 254 }).notNull(),
    message: varchar("message", { length: 500 }),
    status: text("status").$type<InviteStatus>().notNull().default("PENDING"),
    createdAt: createdAt(),
    expiresAt: instant("expires_at").notNull(),
    /** Set when the invite is answered or expires; absent while it waits. */
    updatedAt: instant("updated_at"),
  },
  (t) => [
    // One PENDING invite per trainer and student.
    uniqueIndex("invites_one_pending_per_pair")
      .on(t.personalId, t.studentId)
      .where(sql`${t.status} = 'PENDING'`),
    index("invites_personal_idx").on(t.personalId, t.createdAt),
    index("invites_student_idx").on(t.studentId, t.createdAt),
    index("invites_pending_expiry_idx")
      .on(t.expiresAt)
      .where(sql`${t.status} = 'PENDING'`),
    check("invites_status_check", sql`${t.status} in (${oneOf(INVITE_STATUSES)})`),
  ],
);

/** One link per trainer-student pair; removal sets it INACTIVE and a later accepted invite re-activates it. */
export const personalStudentLinks = pgTable(
  "personal_student_links",
  {
    id: serial("id").primaryKey(),
    personalId: integer("personal_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    studentId: integer("student_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status").$type<LinkStatus>().notNull().default("ACTIVE"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("personal_student_links_pair_key").on(t.personalId, t.studentId),
    index("personal_student_links_student_idx").on(t.studentId, t.status),
    check("personal_student_links_status_check", sql`${t.status} in (${oneOf(LINK_STATUSES)})`),
  ],
);
