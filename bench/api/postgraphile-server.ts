/**
 * The reference the service's GraphQL reads are measured against (issue 17): PostGraphile 5 over the same database,
 * in its documented production setup — the `amber` preset, `makePgService` with a pool of 10 like the service's,
 * grafserv on a plain Node http server, no GraphiQL, no watch mode, no explain — and an HS256 check of the same
 * tokens in its context. It applies no visibility rules and counts no totals.
 *
 * Run as a child of bench/api-load.ts: DATABASE_URL, PORT and JWT_SECRET come from the environment.
 */
import { createServer } from "node:http";
import { postgraphile } from "postgraphile";
import { makePgService } from "postgraphile/adaptors/pg";
import { grafserv } from "postgraphile/grafserv/node";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";
import { jsonPgSmartTags } from "postgraphile/utils";
import { AccessTokens, type AccessTokenClaims } from "../../src/platform/auth/access-tokens.js";
import { systemClock } from "../../src/platform/clock.js";

const POOL_SIZE = 10;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Grafast's context type is extended by merging into its namespace.
  namespace Grafast {
    interface Context {
      jwtClaims: AccessTokenClaims;
    }
  }
}

const tokens = new AccessTokens(process.env.JWT_SECRET!, systemClock);

/**
 * In the preset, not the database: PostGraphile offers ordering only on indexed columns, so the orders the service
 * uses are allowed explicitly; and the `subscriptions` table's type would clash with the root Subscription type.
 */
const SmartTags = jsonPgSmartTags({
  version: 1,
  config: {
    class: {
      subscriptions: { tags: { name: "user_subscriptions" } },
      exercises: { attribute: { name: { tags: { behavior: ["+orderBy"] } } } },
      personal_student_links: { attribute: { created_at: { tags: { behavior: ["+orderBy"] } } } },
    },
  },
});

const preset: GraphileConfig.Preset = {
  extends: [PostGraphileAmberPreset],
  plugins: [SmartTags],
  pgServices: [makePgService({ connectionString: process.env.DATABASE_URL!, schemas: ["public"], poolConfig: { max: POOL_SIZE } })],
  grafserv: { graphqlPath: "/graphql", graphiql: false, watch: false, websockets: false },
  grafast: {
    explain: false,
    context(requestContext) {
      const authorization = requestContext.node?.req.headers.authorization ?? "";
      const claims = authorization.startsWith("Bearer ") ? tokens.verify(authorization.slice("Bearer ".length)) : null;
      if (!claims) throw new Error("Unauthorized");
      return { jwtClaims: claims };
    },
  },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
await serv.addTo(server);
// Builds the schema (introspection) before the first request, as a production start would.
await pgl.getSchema();
server.listen(Number(process.env.PORT), "127.0.0.1");

process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => void Promise.resolve(pgl.release()).then(() => process.exit(0)));
});
