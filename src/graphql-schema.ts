import "reflect-metadata";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type GraphQLSchema, lexicographicSortSchema, printSchema } from "graphql";
import { buildSchemaSync } from "type-graphql";
import { adherenceResolvers } from "./modules/adherence/adherence.graphql.js";
import { billingResolvers } from "./modules/billing/billing.graphql.js";
import { coachingResolvers } from "./modules/coaching/coaching.graphql.js";
import { dashboardResolvers } from "./modules/dashboard/dashboard.graphql.js";
import { executionResolvers } from "./modules/executions/execution.graphql.js";
import { exerciseResolvers } from "./modules/exercises/exercise.graphql.js";
import { privacyResolvers } from "./modules/privacy/privacy.graphql.js";
import { recordResolvers } from "./modules/records/records.graphql.js";
import { liveUpdatesResolvers } from "./modules/live-updates/live-updates.graphql.js";
import { changeFeedResolvers } from "./modules/sync/change-feed.graphql.js";
import { trainingPlanResolvers } from "./modules/training-plans/training-plan.graphql.js";
import { trainingResolvers } from "./modules/trainings/training.graphql.js";
import { userResolvers } from "./modules/users/user.graphql.js";
import { webhookResolvers } from "./modules/webhooks/webhook.graphql.js";
import { developerResolvers } from "./modules/developer/developer.graphql.js";
import { rootDir } from "./platform/db/paths.js";
import { assertListsBounded, cutListsToCaps } from "./graphql/list-bounds.js";
import { answerEmbedded } from "./graphql/embedded.js";
import { guardScopes } from "./graphql/scopes.js";

/** Every module's resolvers (tests/graphql/schema-assembly.test.ts fails on a resolver class left off). */
export const graphqlResolvers = [
  ...userResolvers,
  ...billingResolvers,
  ...coachingResolvers,
  ...exerciseResolvers,
  ...trainingResolvers,
  ...trainingPlanResolvers,
  ...executionResolvers,
  ...recordResolvers,
  ...adherenceResolvers,
  ...dashboardResolvers,
  ...changeFeedResolvers,
  ...privacyResolvers,
  ...developerResolvers,
  ...webhookResolvers,
  ...liveUpdatesResolvers,
] as const;

/**
 * type-graphql will not build subscription fields without a PubSub, though ours never use it: each field subscribes
 * through its own app's LiveUpdatesService (from the context), as one process may run several apps on one schema.
 */
const unusedPubSub = {
  publish: () => {
    throw new Error("live events are announced through LiveUpdatesService");
  },
  subscribe: () => {
    throw new Error("subscription fields follow LiveUpdatesService");
  },
};

let schema: GraphQLSchema | undefined;

/** The GraphQL schema, built once from every module's resolvers (validation is the services' job). */
export function buildGraphqlSchema(): GraphQLSchema {
  if (!schema) {
    schema = buildSchemaSync({ resolvers: graphqlResolvers, validate: false, emitSchemaFile: false, pubSub: unusedPubSub });
    answerEmbedded(schema);
    assertListsBounded(schema);
    cutListsToCaps(schema);
    guardScopes(schema);
    describeRoots(schema);
  }
  return schema;
}

/** The root types' descriptions (type-graphql builds them without one). */
function describeRoots(built: GraphQLSchema): void {
  built.getQueryType()!.description = "What a client reads: each field names the scope a tool's token needs (a login token holds them all)";
  built.getMutationType()!.description = "What a client changes: each write follows the same rules, and refuses with the same messages, as its REST path";
  built.getSubscriptionType()!.description =
    "Live updates over a WebSocket at /graphql (graphql-transport-ws, contract §14.2): access is checked at subscribe and for every event";
}

/** The committed schema.graphql text: sorted, so it changes only when the schema does. */
export function schemaText(): string {
  return `# Generated from the code by \`npm run schema:emit\`; do not edit.\n\n${printSchema(lexicographicSortSchema(buildGraphqlSchema()))}\n`;
}

// `npm run schema:emit` writes schema.graphql; with --check (npm run check) it fails when the file is stale.
if (process.argv[1] && path.resolve(process.argv[1]).replace(/\.[jt]s$/, "") === import.meta.filename.replace(/\.[jt]s$/, "")) {
  const file = path.join(rootDir, "schema.graphql");
  if (process.argv.includes("--check")) {
    if (!existsSync(file) || readFileSync(file, "utf8") !== schemaText()) {
      console.error("schema.graphql is stale: run `npm run schema:emit` and commit it");
      process.exit(1);
    }
  } else {
    writeFileSync(file, schemaText());
    console.log("schema.graphql written");
  }
}
