import { WebhookResolver } from "./webhook.resolver.js";

/** The webhook endpoints' resolvers: src/graphql-schema.ts builds the schema from each module's list. */
export const webhookResolvers = [WebhookResolver] as const;
