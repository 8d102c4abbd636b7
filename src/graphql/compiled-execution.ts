import type { ApolloServerOptionsWithGateway } from "@apollo/server";
import { execute, getOperationAST, GraphQLError, printSchema, type DocumentNode, type GraphQLSchema } from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import { Counter, type Registry } from "prom-client";

/** Apollo's executor hook: what hands it a schema and an executor. */
type Gateway = ApolloServerOptionsWithGateway<object>["gateway"];
type Executor = NonNullable<Awaited<ReturnType<Gateway["load"]>>["executor"]>;

/** A document is compiled once it has been run this many times: one-off documents never pay for compilation. */
const RUNS_BEFORE_COMPILING = 2;

interface DocumentPlans {
  runs: number;
  /** By the operation name sent ("" when none was: the document's only operation); null when graphql-jit could not compile it. */
  compiled: Map<string, CompiledQuery | null>;
}

/**
 * Apollo's execution step, with documents run again and again (every dashboard's and app's queries) compiled by
 * graphql-jit into plain functions: no per-field resolve-info, argument coercion or promise per plain property, which
 * were most of graphql-js's share of a read's CPU. Apollo still parses, validates (with our depth and cost rules),
 * runs the plugins and formats errors; this only replaces `execute`, through Apollo's documented executor hook (the
 * gateway interface, which hands a schema and an executor).
 *
 * A document is first run by graphql-js and compiled from its second run: compiling costs far more than running once,
 * so a client sending ever new documents only ever gets graphql-js. Compiled plans live as long as Apollo keeps the
 * parsed document in its bounded document store (a WeakMap keyed by that very object). An operation the compiled
 * plan refuses before running anything (invalid variables) is answered by graphql-js, so its errors read, and give the
 * status, exactly as graphql-js's do.
 *
 * `graphql_executions_total` counts the operations each executor answered: an operator sees what share the compiled
 * plans take (a jit that silently never runs shows as graphql-js alone).
 */
export function compiledExecution(schema: GraphQLSchema, metrics: Registry): Gateway {
  const plans = new WeakMap<DocumentNode, DocumentPlans>();
  const executions = new Counter({
    name: "graphql_executions_total",
    help: "GraphQL operations executed, by the executor that answered: graphql-jit's compiled plan or graphql-js",
    labelNames: ["executor"],
    registers: [metrics],
  });

  const executor: Executor = async ({ document, request, context }) => {
    // The name the client sent: an unknown one must fail as graphql-js fails it (Apollo then answers 400).
    const operationName = request.operationName;
    const runWithGraphqlJs = () => {
      executions.inc({ executor: "graphql-js" });
      return execute({ schema, document, contextValue: context, variableValues: request.variables, operationName });
    };
    let documentPlans = plans.get(document);
    if (!documentPlans) plans.set(document, (documentPlans = { runs: 0, compiled: new Map() }));
    documentPlans.runs += 1;
    if (documentPlans.runs < RUNS_BEFORE_COMPILING) return runWithGraphqlJs();

    const key = operationName ?? "";
    let plan = documentPlans.compiled.get(key);
    if (plan === undefined) {
      // Only the document's own operations get a plan: names a client makes up must not grow the map.
      if (!getOperationAST(document, operationName)) return runWithGraphqlJs();
      plan = compiledOrNot(schema, document, operationName);
      documentPlans.compiled.set(key, plan);
    }
    if (!plan) return runWithGraphqlJs();
    const result = await plan.query(undefined, context, request.variables ?? {});
    if (result.errors?.length && result.data === undefined) return runWithGraphqlJs();
    executions.inc({ executor: "graphql-jit" });
    return result.errors?.length ? { ...result, errors: result.errors.map(asGraphqlJsError) } : result;
  };

  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => {};
    },
    async load() {
      return { executor };
    },
    async stop() {},
  };
}

/**
 * graphql-jit's errors carry the resolver's error and the location, but no `extensions` object where it had none,
 * which Apollo's error formatting reads: the same error as graphql-js would have made it.
 */
function asGraphqlJsError(error: GraphQLError): GraphQLError {
  if (error.extensions) return error;
  const made = new GraphQLError(error.message, { path: error.path, originalError: error.originalError });
  Object.defineProperty(made, "locations", { value: error.locations, enumerable: error.locations !== undefined });
  return made;
}

/** The document's plan, or null where graphql-jit refuses or fails to compile it: a document it cannot compile is no client error. */
function compiledOrNot(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): CompiledQuery | null {
  try {
    const plan = compileQuery(schema, document, operationName, { disablingCapturingStackErrors: true });
    return isCompiledQuery(plan) ? plan : null;
  } catch {
    return null;
  }
}
