import type { ApolloServerPlugin } from "@apollo/server";
import { GraphQLError } from "graphql";
import type { Context } from "./context.js";

/**
 * What the owner of apps' registered documents (the developer module) says of a request: undefined when the caller
 * may run any document; else the caller's app runs registered documents only, and this is its document of the hash
 * sent (null: it registered none of that hash).
 */
export type TrustedDocumentOf = (context: Context, sha256Hash: string | undefined) => Promise<string | null | undefined>;

/** Runs nothing, parses and validates at once: what stands in for a refused document until the refusal. */
const REFUSED_DOCUMENT = "{ __typename }";

/**
 * Trusted documents (contract §18.5): the token of an app that registered its documents and runs them only may send a
 * registered document's hash (Apollo's persisted-query extension), and the service runs its registered text; any text
 * sent, or any other hash, is refused with PERSISTED_QUERY_REQUIRED, before anything runs. Automatic persisted
 * queries stay open to every other caller.
 */
export function trustedDocuments(documentOf: TrustedDocumentOf): ApolloServerPlugin<Context> {
  return {
    async requestDidStart({ request, contextValue }) {
      const persisted = request.extensions?.persistedQuery as { sha256Hash?: unknown } | undefined;
      const hash = typeof persisted?.sha256Hash === "string" ? persisted.sha256Hash : undefined;
      const document = await documentOf(contextValue, hash);
      if (document === undefined) return;
      if (request.query === undefined && document !== null) {
        request.query = document;
        return;
      }
      // Not a registered document: a stand-in carries the refusal, whatever was sent (text, hash, neither).
      request.query = REFUSED_DOCUMENT;
      request.extensions = { ...request.extensions, persistedQuery: undefined };
      return {
        async didResolveOperation() {
          throw new GraphQLError("Este aplicativo só executa documentos registrados, pelo hash", {
            extensions: { code: "PERSISTED_QUERY_REQUIRED", status: 400, http: { status: 400 } },
          });
        },
      };
    },
  };
}
