import { z } from "zod";
import type { ListQuery, Paging, SortOrder } from "../../platform/paging.js";
import { emailField, optionalText } from "../../platform/validation.js";
import { INVITE_SORTS } from "./invite.repository.js";
import { LINK_SORTS } from "./link.repository.js";
import { inviteStatus, linkStatus } from "./coaching.dto.js";

/** An invite: the student's e-mail, and a message for them. */
export const inviteInput = z
  .object({
    studentEmail: emailField
      .meta({ format: "email" })
      .describe("The e-mail address of the student's account (at most 254 characters, any letter case); it must be a student's (ALUNO)"),
    message: optionalText(500).describe("A message for the student (at most 500 characters); null or blank sends none"),
  })
  .describe("An invite to a student, who gets it by e-mail and has 7 days to answer");
export type InviteInput = z.output<typeof inviteInput>;

const NEWEST_FIRST: SortOrder[] = [{ field: "createdAt", direction: "desc" }];

/** Invite listings (sent and received), newest first unless another order is asked. */
export const invitePaging: Paging = { sortable: Object.keys(INVITE_SORTS), fallbackSort: NEWEST_FIRST };

export const inviteFilter = z
  .object({ status: inviteStatus.schema.optional().describe("Only invites with this status (as they read now: an expired one is EXPIRED)") })
  .describe("What narrows a listing of invites; left out, every status is listed");
export type InviteListQuery = ListQuery<z.output<typeof inviteFilter>>;

/** Link listings (students and trainers), newest first unless another order is asked. */
export const linkPaging: Paging = { sortable: Object.keys(LINK_SORTS), fallbackSort: NEWEST_FIRST };

export const linkFilter = z
  .object({
    status: linkStatus.schema.optional().describe("Only links with this status: ACTIVE when left out"),
    name: z.string().trim().max(120).optional().describe("Only links whose other party's name holds this text (case-insensitive, at most 120 characters)"),
  })
  .describe("What narrows a listing of links");
export type LinkListQuery = ListQuery<z.output<typeof linkFilter>>;
