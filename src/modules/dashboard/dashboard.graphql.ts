import { DashboardResolver } from "./dashboard.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const dashboardResolvers = [DashboardResolver] as const;
