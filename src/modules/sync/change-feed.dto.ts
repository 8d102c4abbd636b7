import { z } from "zod";
import { enumeration } from "../../platform/enumeration.js";
import { SYNC_ENTITIES, type SyncEntity } from "../../tables/sync-change.table.js";
import { subscriptionSchema } from "../billing/billing.dto.js";
import { linkSchema, receivedInviteSchema, sentInviteSchema } from "../coaching/coaching.dto.js";
import { exerciseExecutionSchema, trainingExecutionSchema } from "../executions/execution.dto.js";
import { exerciseSchema } from "../exercises/exercise.dto.js";
import { trainingPlanSchema, planAssignmentSchema } from "../training-plans/training-plan.dto.js";
import { trainingSchema } from "../trainings/training.dto.js";
import { userSchema } from "../users/user.dto.js";

export const CHANGE_OPS = ["UPSERT", "DELETE"] as const;
export type ChangeOp = (typeof CHANGE_OPS)[number];

export const changeOp = enumeration(CHANGE_OPS, {
  name: "ChangeOp",
  description: "What a change tells of its entity",
  meanings: { UPSERT: "The entity as it is now (created or changed)", DELETE: "Gone, or no longer visible to the caller" },
});

export const syncEntity = enumeration(SYNC_ENTITIES, {
  name: "SyncEntity",
  description: "The kinds of entity the change feed carries, each with the REST answer its data is",
  meanings: {
    profile: "The caller's profile or one the caller sees (GET /users/profile)",
    exercise: "An exercise (GET /exercises/{id})",
    training: "A training (GET /trainings/{id})",
    trainingPlan: "A weekly plan (GET /training-plans/{id})",
    planAssignment: "A plan assigned to a student (an item of GET /training-plans/assignments)",
    link: "A trainer-student link (an item of GET /personal/students or /students/personals)",
    invite: "An invite (an item of GET /personal/invites for its trainer, /students/invites for its student)",
    trainingExecution: "A logged session (GET /trainings/executions/{id})",
    exerciseExecution: "A logged exercise (an item of GET /exercises/executions/user/{userId})",
    subscription: "A subscription (GET /subscriptions/{id})",
  },
});

/** Each entity's data in an UPSERT: the REST answer of that entity, the same schema the REST GET declares. */
const ENTITY_DATA = {
  profile: userSchema,
  exercise: exerciseSchema,
  training: trainingSchema,
  trainingPlan: trainingPlanSchema,
  planAssignment: planAssignmentSchema,
  link: linkSchema,
  // The trainer reads an invite as its sender, the student as its receiver.
  invite: z.union([sentInviteSchema, receivedInviteSchema]),
  trainingExecution: trainingExecutionSchema,
  exerciseExecution: exerciseExecutionSchema,
  subscription: subscriptionSchema,
} satisfies Record<SyncEntity, z.ZodType>;

/*
 * The answer's shape as a zod schema: the OpenAPI document describes it, so a generated client narrows a change by
 * `op` and `entity` to its entity's type. The service keeps the data as it loaded it (ChangeDto): the contract tests
 * check every answer against this schema.
 */

const id = z.number().int().describe("The entity's id (a profile's: its user's)");
const changedAt = z.iso.datetime().describe("When the change was made (in an initial sync: when the sync started)");
const capitalized = (text: string) => text[0].toUpperCase() + text.slice(1);

/** An UPSERT of one kind of entity, its data typed. */
const upsertOf = (entity: SyncEntity) =>
  z
    .object({
      entity: z.literal(entity).describe(syncEntity.meanings[entity]),
      id,
      op: z.literal("UPSERT").describe(changeOp.meanings.UPSERT),
      changedAt,
      data: ENTITY_DATA[entity].describe("The entity as the REST GET of it answers"),
    })
    .meta({ id: `${capitalized(entity)}Upsert`, description: `A ${entity} created or changed, as it is now` });

const deletion = z
  .object({
    entity: syncEntity.schema.describe("Which kind of entity"),
    id,
    op: z.literal("DELETE").describe(changeOp.meanings.DELETE),
    changedAt,
    data: z.null().describe("Always null: drop the entity from the device"),
  })
  .meta({ id: "Deletion", description: "An entity deleted, or no longer visible to the caller" });

export const changeSchema = z
  .union([...SYNC_ENTITIES.map(upsertOf), deletion])
  .meta({ id: "Change", description: "One change of the caller's change feed (contract §13.3): narrow it by `op`, then by `entity`" });

export const changeFeedSchema = z
  .object({
    changes: z.array(changeSchema).describe("In commit order; each change once"),
    cursor: z.string().describe("Opaque: send it as `since` to read what changed after this page"),
    hasMore: z.boolean().describe("true: ask again at once with `cursor`; false: caught up (poll later with `cursor`)"),
  })
  .meta({ id: "ChangeFeedPage", description: "A page of the change feed" });

export interface ChangeDto {
  entity: SyncEntity;
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
