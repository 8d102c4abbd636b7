import DataLoader from "dataloader";
import type { Actor } from "../../platform/auth/actor.js";
import type { Services } from "../../graphql/context.js";
import type { CurrentRecordsRequest } from "./records.service.js";
import { ExerciseRecordsResolver, PersonalRecordsResolver, UserRecordsResolver } from "./records.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const recordResolvers = [PersonalRecordsResolver, UserRecordsResolver, ExerciseRecordsResolver] as const;

/** This module's per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function recordLoaders(services: Services, actor: Actor) {
  return {
    /** Current records of (user, exercise, kinds); 403 errors for users the caller may not read. */
    currentRecords: new DataLoader((requests: readonly CurrentRecordsRequest[]) => services.records.listCurrentOfMany(actor, requests), {
      cacheKeyFn: (request) => JSON.stringify([request.userId ?? null, request.exerciseId ?? null, request.kinds ?? null]),
    }),
  };
}
