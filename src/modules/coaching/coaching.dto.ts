import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import { INVITE_STATUSES, LINK_STATUSES } from "../../tables/coaching.table.js";
import type { InviteRecord } from "./invite.repository.js";
import type { LinkRecord } from "./link.repository.js";

const inviteFields = {
  id: int(),
  personalId: int(),
  personalName: z.string(),
  message: z.string().nullable(),
  status: z.enum(INVITE_STATUSES),
  createdAt: instant,
  expiresAt: instant,
  updatedAt: instant.optional(),
};

/** What a trainer sees of an invite it sent. */
export const sentInviteSchema = z.object({ ...inviteFields, studentEmail: z.string() }).meta({ id: "SentInvite" });
export type SentInviteDto = z.output<typeof sentInviteSchema>;

/** What a student sees of an invite received: the trainer's e-mail and picture in place of its own e-mail. */
export const receivedInviteSchema = z
  .object({ ...inviteFields, personalEmail: z.string(), personalProfilePicture: z.string().nullable() })
  .meta({ id: "ReceivedInvite" });
export type ReceivedInviteDto = z.output<typeof receivedInviteSchema>;

/** PersonalStudentDTO; listings leave out the caller's own side's e-mail and picture. */
export const linkSchema = z
  .object({
    id: int(),
    personalId: int(),
    personalName: z.string(),
    personalEmail: z.string().optional(),
    personalProfilePicture: z.string().nullable().optional(),
    studentId: int(),
    studentName: z.string(),
    studentEmail: z.string().optional(),
    studentProfilePicture: z.string().nullable().optional(),
    status: z.enum(LINK_STATUSES),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: "Link" });
export type LinkDto = z.output<typeof linkSchema>;

export function toSentInvite(row: InviteRecord): SentInviteDto {
  return {
    id: row.id,
    personalId: row.personalId,
    personalName: row.personalName,
    studentEmail: row.studentEmail,
    message: row.message,
    status: row.status,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    ...(row.updatedAt ? { updatedAt: row.updatedAt } : {}),
  };
}

export function toReceivedInvite(row: InviteRecord): ReceivedInviteDto {
  return {
    id: row.id,
    personalId: row.personalId,
    personalName: row.personalName,
    personalEmail: row.personalEmail,
    personalProfilePicture: row.personalProfilePicture,
    message: row.message,
    status: row.status,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    ...(row.updatedAt ? { updatedAt: row.updatedAt } : {}),
  };
}

/** Whose link it is shown to: both parties' details (full), or those of the other party only. */
export type LinkView = "full" | "trainer" | "student";

export function toLink(row: LinkRecord, view: LinkView): LinkDto {
  return {
    id: row.id,
    personalId: row.personalId,
    personalName: row.personalName,
    ...(view !== "trainer" ? { personalEmail: row.personalEmail, personalProfilePicture: row.personalProfilePicture } : {}),
    studentId: row.studentId,
    studentName: row.studentName,
    ...(view !== "student" ? { studentEmail: row.studentEmail, studentProfilePicture: row.studentProfilePicture } : {}),
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
