import { z } from "zod";
import { SYNC_ENTITIES } from "../../tables/sync-change.table.js";

export const CHANGE_OPS = ["UPSERT", "DELETE"] as const;
export type ChangeOp = (typeof CHANGE_OPS)[number];

/*
 * The answer's shape as a zod schema: the DTO type is read from it and the OpenAPI document describes it, so the two
 * cannot drift apart.
 */

export const changeSchema = z.object({
  entity: z.enum(SYNC_ENTITIES),
  id: z.number().int().describe("the entity's id (the profile: the user's)"),
  op: z.enum(CHANGE_OPS).describe("UPSERT: the entity as it is now; DELETE: gone, or no longer visible to the caller"),
  changedAt: z.iso.datetime().describe("when the change was made (for an initial sync: when it started)"),
  data: z
    .looseObject({})
    .nullable()
    .describe(
      "UPSERT: the entity's REST DTO, as the REST GET of that entity answers it (profile: GET /users/profile; exercise: GET /exercises/{id}; " +
        "training: GET /trainings/{id}; trainingPlan: GET /training-plans/{id}; planAssignment: an item of GET /training-plans/assignments; " +
        "link: an item of GET /personal/students or /students/personals; invite: an item of GET /personal/invites or /students/invites; " +
        "trainingExecution: GET /trainings/executions/{id}; exerciseExecution: an item of GET /exercises/executions/user/{userId}; " +
        "subscription: GET /subscriptions/{id}). DELETE: null",
    ),
});

export const changeFeedSchema = z.object({
  changes: z.array(changeSchema).describe("in commit order; each change once"),
  cursor: z.string().describe("opaque: send it as `since` to read what changed after this page"),
  hasMore: z.boolean().describe("true: ask again at once with `cursor`; false: caught up (poll later with `cursor`)"),
});

export interface ChangeDto {
  entity: (typeof SYNC_ENTITIES)[number];
  id: number;
  op: ChangeOp;
  changedAt: Date;
  data: object | null;
}

export interface ChangeFeedPageDto {
  changes: ChangeDto[];
  cursor: string;
  hasMore: boolean;
}
