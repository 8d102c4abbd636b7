import { z } from "zod";
import { emailField, optionalText } from "../../platform/validation.js";
import { INVITE_STATUSES, LINK_STATUSES } from "./coaching.table.js";

export const inviteInput = z.object({
  studentEmail: emailField,
  message: optionalText(500),
});

export const inviteFilter = z.object({ status: z.enum(INVITE_STATUSES).optional() });

export const linkFilter = z.object({
  status: z.enum(LINK_STATUSES).optional(),
  name: z.string().trim().max(120).optional(),
});
