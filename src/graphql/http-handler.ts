import { HeaderMap, type ApolloServer, type BaseContext } from "@apollo/server";
import type { Request, RequestHandler, Response } from "express";

/**
 * Apollo over Express, through Apollo's documented integration API (`executeHTTPGraphQLRequest`): what the
 * @as-integrations/express5 adapter did, less what cost every request and served none (a legacy `url.parse` of the
 * whole URL for its query string, and Express's `res.send` hashing each answer for an ETag no POST can use).
 */
export function apolloHandler<Context extends BaseContext>(
  apollo: ApolloServer<Context>,
  context: (req: Request, res: Response) => Promise<Context>,
): RequestHandler {
  return async (req, res) => {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    const queryStart = req.url.indexOf("?");
    const answer = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method.toUpperCase(), headers, search: queryStart < 0 ? "" : req.url.slice(queryStart), body: req.body },
      context: () => context(req, res),
    });
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.statusCode = answer.status ?? 200;
    if (answer.body.kind === "complete") {
      res.setHeader("content-length", Buffer.byteLength(answer.body.string));
      res.end(answer.body.string);
      return;
    }
    for await (const chunk of answer.body.asyncIterator) res.write(chunk);
    res.end();
  };
}
