import { z } from "zod";
import type { ListQuery, Paging, SortOrder } from "../../platform/paging.js";
import { emailField, optionalText } from "../../platform/validation.js";
import { INVITE_SORTS } from "./invite.repository.js";
import { LINK_SORTS } from "./link.repository.js";
import { INVITE_STATUSES, LINK_STATUSES } from "../../tables/coaching.table.js";

/** An invite: the student's e-mail, and a message for them. */
export const inviteInput = z.object({
  studentEmail: emailField,
  message: optionalText(500),
});
export type InviteInput = z.output<typeof inviteInput>;

const NEWEST_FIRST: SortOrder[] = [{ field: "createdAt", direction: "desc" }];

/** Invite listings (sent and received), newest first unless another order is asked. */
export const invitePaging: Paging = { sortable: Object.keys(INVITE_SORTS), fallbackSort: NEWEST_FIRST };

export const inviteFilter = z.object({ status: z.enum(INVITE_STATUSES).optional() });
export type InviteListQuery = ListQuery<z.output<typeof inviteFilter>>;

/** Link listings (students and trainers), newest first unless another order is asked. */
export const linkPaging: Paging = { sortable: Object.keys(LINK_SORTS), fallbackSort: NEWEST_FIRST };

export const linkFilter = z.object({
  status: z.enum(LINK_STATUSES).optional(),
  name: z.string().trim().max(120).optional(),
});
export type LinkListQuery = ListQuery<z.output<typeof linkFilter>>;
