import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import { INVITE_STATUSES, LINK_STATUSES } from "./coaching.table.js";

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
