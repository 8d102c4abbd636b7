import type { ApolloServerPlugin } from "@apollo/server";
import { getVariableValues, GraphQLError } from "graphql";
import type { Context } from "./context.js";
import { keptOperationCost } from "./query-limits.js";

/** A budgeted caller's points around one operation (contract §18.4): what `extensions.cost` and `Query.rateLimit` say. */
export interface CostState {
  requestedQueryCost: number;
  /** Counted from the answer (objects in it); what was taken beyond it is given back. */
  actualQueryCost: number;
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
  /** When the bucket is full again at the restore rate. */
  resetAt: Date;
}

/** What the plugin asks of the budgets' owner (the developer module), handed in where the API is assembled. */
export interface CostBudget {
  /** Whether the caller's operations are budgeted (an app's or a personal token; never a login token). */
  budgeted(context: Context): boolean;
  /** Takes `cost` points; `taken: false` when the bucket holds fewer (nothing taken). */
  take(context: Context, cost: number): Promise<{ taken: boolean; state: CostState; retryAfterSeconds: number }>;
  /** Gives back points taken beyond what was spent. */
  giveBack(context: Context, points: number): Promise<void>;
}

// HTTP 200, as Shopify and GitHub answer it: the request was fine, the budget is spent.
const refusal = (message: string, code: string) => new GraphQLError(message, { extensions: { code, status: 429, http: { status: 200 } } });

/**
 * The GraphQL budget of apps and personal tokens: an operation's cost in points is computed before it runs, from the
 * same analysis the query limits use (`keptOperationCost`, objects only), and taken from the caller's bucket; an
 * operation costing more than the bucket holds is refused unexecuted (`THROTTLED`, with Retry-After), one costing more
 * than the bucket can ever hold too (`MAX_COST_EXCEEDED`). Every budgeted answer carries `extensions.cost`.
 */
export function costBudget(budget: CostBudget): ApolloServerPlugin<Context> {
  return {
    async requestDidStart({ contextValue }) {
      if (!budget.budgeted(contextValue)) return;
      let retryAfterSeconds = 0;
      return {
        async didResolveOperation({ request, document, operation, schema }) {
          if (!operation) return;
          const variables = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
          // A variable of the wrong type: refused by the complexity limit, before this.
          if (variables.errors) return;
          const cost = keptOperationCost(schema, document, operation, variables.coerced, "points");
          const taken = await budget.take(contextValue, cost);
          contextValue.cost = taken.state;
          if (cost > taken.state.maximumAvailable) {
            throw refusal(`A consulta custa ${cost} pontos, mais que o orçamento de ${taken.state.maximumAvailable}`, "MAX_COST_EXCEEDED");
          }
          if (!taken.taken) {
            retryAfterSeconds = taken.retryAfterSeconds;
            throw refusal("Orçamento de consultas esgotado. Tente novamente mais tarde.", "THROTTLED");
          }
        },
        async willSendResponse({ response }) {
          const state = contextValue.cost;
          if (!state || response.body.kind !== "single") return;
          const { singleResult } = response.body;
          const ran = singleResult.data !== undefined && retryAfterSeconds === 0 && state.requestedQueryCost <= state.maximumAvailable;
          state.actualQueryCost = ran ? Math.min(state.requestedQueryCost, objectsIn(singleResult.data)) : 0;
          const unspent = ran ? state.requestedQueryCost - state.actualQueryCost : 0;
          if (unspent > 0) {
            await budget.giveBack(contextValue, unspent);
            state.currentlyAvailable = Math.min(state.maximumAvailable, state.currentlyAvailable + unspent);
          }
          const { resetAt: _resetAt, maximumAvailable, currentlyAvailable, restoreRate, ...costs } = state;
          singleResult.extensions = {
            ...singleResult.extensions,
            cost: { ...costs, throttleStatus: { maximumAvailable, currentlyAvailable: Math.floor(currentlyAvailable), restoreRate } },
          };
          if (retryAfterSeconds > 0) response.http.headers.set("retry-after", String(retryAfterSeconds));
        },
      };
    },
  };
}

/** The objects an answer holds (its data object left out): what the operation actually cost. */
function objectsIn(value: unknown): number {
  let count = 0;
  const walk = (node: unknown, isRoot: boolean) => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, false);
      return;
    }
    if (!isRoot) count += 1;
    for (const key in node) walk((node as Record<string, unknown>)[key], false);
  };
  walk(value, true);
  return count;
}
