import type { ApolloServerPlugin } from "@apollo/server";
import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from "graphql";
import { getComplexity, simpleEstimator, fieldExtensionsEstimator } from "graphql-query-complexity";

// `http.status` sets the response status when thrown from a plugin hook (Apollo answers 500 otherwise).
const refused = (message: string) =>
  new GraphQLError(message, { extensions: { code: "GRAPHQL_VALIDATION_FAILED", http: { status: 400 } } });

/** Refuses operations nested deeper than `maxDepth` fields (fragments followed), before anything runs. */
export function depthLimit(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const depthOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!set) return 0;
      let max = 0;
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          if (selection.name.value.startsWith("__")) continue;
          max = Math.max(max, 1 + depthOf(selection.selectionSet, seen));
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          max = Math.max(max, depthOf(selection.selectionSet, seen));
        } else {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (fragment && !seen.has(name)) max = Math.max(max, depthOf(fragment.selectionSet, new Set(seen).add(name)));
        }
      }
      return max;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > maxDepth) context.reportError(refused(`A consulta excede a profundidade máxima de ${maxDepth} (tem ${depth})`));
      },
    };
  };
}

/** Refuses operations whose estimated cost passes `maxComplexity`; runs once variables are known. */
export function complexityLimit(maxComplexity: number): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema }) {
          let complexity: number;
          try {
            complexity = getComplexity({
              schema,
              query: document,
              operationName: request.operationName ?? undefined,
              variables: request.variables ?? {},
              estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
            });
          } catch (error) {
            // getComplexity coerces the variables first: a value of the wrong type is the client's mistake.
            const message = error instanceof Error ? error.message : String(error);
            throw new GraphQLError(message, { extensions: { code: "BAD_USER_INPUT", http: { status: 400 } } });
          }
          if (complexity > maxComplexity) {
            throw refused(`A consulta excede a complexidade máxima de ${maxComplexity} (tem ${complexity})`);
          }
        },
      };
    },
  };
}
