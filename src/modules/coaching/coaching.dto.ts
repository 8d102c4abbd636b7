import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import { enumeration } from "../../platform/enumeration.js";
import { INVITE_STATUSES, LINK_STATUSES } from "../../tables/coaching.table.js";
import type { InviteRecord } from "./invite.repository.js";
import type { LinkRecord } from "./link.repository.js";

export const inviteStatus = enumeration(INVITE_STATUSES, {
  name: "InviteStatus",
  description: "Where a trainer's invite to a student stands",
  meanings: {
    PENDING: "Sent, waiting for the student's answer until it expires",
    ACCEPTED: "The student accepted it: their link is ACTIVE",
    REJECTED: "The student turned it down",
    EXPIRED: "Not answered within its 7 days: it reads as EXPIRED as soon as expiresAt passes",
    CANCELED: "Withdrawn unanswered because the trainer's or the student's account was erased",
  },
});

export const linkStatus = enumeration(LINK_STATUSES, {
  name: "LinkStatus",
  description: "Whether a trainer-student link is in force",
  meanings: {
    ACTIVE: "In force: the trainer coaches the student, and each may read the other's profile",
    INACTIVE: "Ended by either party (or by an account's erasure) and kept as history; a later accepted invite makes it ACTIVE again",
  },
});

const inviteFields = {
  id: int().describe("The invite's id"),
  personalId: int().describe("The inviting trainer's id"),
  personalName: z.string().describe("The inviting trainer's name"),
  message: z.string().nullable().describe("The trainer's message to the student, or null without one"),
  status: inviteStatus.schema.describe("Where it stands"),
  createdAt: instant.describe("When it was sent"),
  expiresAt: instant.describe("When it expires unanswered: 7 days after it was sent"),
  updatedAt: instant.optional().describe("When its status last changed; absent until it does (and while an expired invite only reads as EXPIRED)"),
};

/** What a trainer sees of an invite it sent. */
export const sentInviteSchema = z
  .object({
    ...inviteFields,
    studentEmail: z.string().describe("The invited student's e-mail address, lower-case; `deleted-<id>@invalid` once that account is erased"),
  })
  .meta({
    id: "SentInvite",
    description: "An invite as the trainer who sent it sees it",
    examples: [
      {
        id: 7,
        personalId: 3,
        personalName: "Carlos Lima",
        message: "Vamos treinar juntos!",
        status: "PENDING",
        createdAt: new Date("2025-06-01T12:00:00.000Z"),
        expiresAt: new Date("2025-06-08T12:00:00.000Z"),
        studentEmail: "ana.souza@example.com",
      },
    ],
  });
export type SentInviteDto = z.output<typeof sentInviteSchema>;

/** What a student sees of an invite received: the trainer's e-mail and picture in place of its own e-mail. */
export const receivedInviteSchema = z
  .object({
    ...inviteFields,
    personalEmail: z.string().describe("The inviting trainer's e-mail address"),
    personalProfilePicture: z.string().nullable().describe("The inviting trainer's photo address, or null without one"),
  })
  .meta({ id: "ReceivedInvite", description: "An invite as the invited student sees it: the trainer's e-mail and photo in place of the student's e-mail" });
export type ReceivedInviteDto = z.output<typeof receivedInviteSchema>;

/** PersonalStudentDTO; listings leave out the caller's own side's e-mail and picture. */
export const linkSchema = z
  .object({
    id: int().describe("The link's id: the one to give to end it"),
    personalId: int().describe("The trainer's id"),
    personalName: z.string().describe("The trainer's name"),
    personalEmail: z.string().optional().describe("The trainer's e-mail address; left out of the trainer's own listing"),
    personalProfilePicture: z.string().nullable().optional().describe("The trainer's photo address (null without one); left out of the trainer's own listing"),
    studentId: int().describe("The student's id"),
    studentName: z.string().describe("The student's name"),
    studentEmail: z.string().optional().describe("The student's e-mail address; left out of the student's own listing"),
    studentProfilePicture: z.string().nullable().optional().describe("The student's photo address (null without one); left out of the student's own listing"),
    status: linkStatus.schema.describe("Whether it is in force"),
    createdAt: instant.describe("When the pair was first linked"),
    updatedAt: instant.describe("When it last changed: made, ended, or made ACTIVE again"),
  })
  .meta({ id: "Link", description: "A trainer-student link (PersonalStudentDTO): one per pair, made when the student accepts an invite" });
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
