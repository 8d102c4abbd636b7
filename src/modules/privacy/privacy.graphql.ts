import { PrivacyResolver } from "./privacy.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const privacyResolvers = [PrivacyResolver] as const;
