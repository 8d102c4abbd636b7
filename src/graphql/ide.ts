import type { RequestHandler } from "express";
import { ruruHTML } from "ruru/server";
import { serveStatic } from "ruru/static";

/** Where the IDE's own scripts and styles are served from (under /graphql): this process, never a CDN. */
const ASSETS_UNDER_GRAPHQL = "/ide/";

/**
 * A GraphQL IDE for browsers at `GET /graphql` (contract §16): Ruru, PostGraphile's GraphiQL, with every asset served
 * by the service itself, so it works without internet access (a gym's back office, a laptop on a plane). A request
 * that is not a browser's page load (a GET operation, by its text or its persisted hash, a client asking for JSON) goes
 * on to the GraphQL server.
 */
export function graphqlIde(): { page: RequestHandler; assets: RequestHandler } {
  const html = ruruHTML({ endpoint: "/graphql", staticPath: `/graphql${ASSETS_UNDER_GRAPHQL}`, subscriptions: true });
  // Mounted in the /graphql router, which hands it paths without their /graphql.
  const assets = serveStatic(ASSETS_UNDER_GRAPHQL);
  return {
    page: (req, res, next) => {
      // A GET with a query or a persisted query's hash is an operation, whatever the client accepts.
      const operation = req.query.query !== undefined || req.query.extensions !== undefined;
      const pageLoad = req.method === "GET" && !operation && req.accepts(["json", "html"]) === "html";
      if (!pageLoad) return next();
      // Its inline boot script and styles: the page's own policy, as helmet's default would block them.
      res.setHeader(
        "content-security-policy",
        "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self' ws: wss:; worker-src 'self' blob:",
      );
      res.type("html").send(html);
    },
    assets: (req, res, next) => assets(req, res, next),
  };
}
