import type { ApolloServerPlugin } from "@apollo/server";
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isCompositeType,
  isListType,
  isObjectType,
  isInterfaceType,
  isIntrospectionType,
  Kind,
  SchemaMetaFieldDef,
  visit,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLFormattedError,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  type ValidationContext,
} from "graphql";
import { Extensions } from "type-graphql";
import { listBoundOf, PARTS_ESTIMATE, pagedItems, pagingOf, pagingOfField, RESPONSE_TOO_LARGE } from "./list-bounds.js";

// `http.status` sets the response status when thrown from a plugin hook (Apollo answers 500 otherwise).
const refused = (message: string) => new GraphQLError(message, { extensions: { code: "GRAPHQL_VALIDATION_FAILED", http: { status: 400 } } });

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/**
 * A fragment's measure computed once however many times it is spread, so measuring a document is linear in its
 * size (re-walking a fragment per spread is exponential in stacked fragments that spread the previous one twice).
 * A fragment met again while it is being measured (a cycle, refused by graphql's NoFragmentCyclesRule) adds 0.
 */
function memoizedFragments(fragments: Map<string, FragmentDefinitionNode>, measure: (fragment: FragmentDefinitionNode) => number) {
  const measured = new Map<string, number>();
  return (name: string): number => {
    const known = measured.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (!fragment) return 0;
    measured.set(name, 0);
    const value = measure(fragment);
    measured.set(name, value);
    return value;
  };
}

/** Refuses operations nested deeper than `maxDepth` fields (fragments followed), before anything runs. */
export function depthLimit(maxDepth: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragmentDepth = memoizedFragments(fragmentsOf(context.getDocument()), (fragment) => depthOf(fragment.selectionSet));
    function depthOf(set: SelectionSetNode | undefined): number {
      if (!set) return 0;
      let max = 0;
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          if (selection.name.value.startsWith("__")) continue;
          max = Math.max(max, 1 + depthOf(selection.selectionSet));
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          max = Math.max(max, depthOf(selection.selectionSet));
        } else {
          max = Math.max(max, fragmentDepth(selection.name.value));
        }
      }
      return max;
    }
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet);
        if (depth > maxDepth) context.reportError(refused(`A consulta excede a profundidade máxima de ${maxDepth} (tem ${depth})`));
      },
    };
  };
}

/**
 * The estimated cost of running `operation`: every field selected costs 1, each alias on its own; a field's
 * selections count once per item it returns: page.size times (the argument as sent, literal or variable, else the
 * default page size) under a paged field, `limit` times under the change feed (`PagedBy`), and under any other list
 * its `ListBound` (list-bounds.ts): its cap, or within another list's items at most PARTS_ESTIMATE (multiplying caps
 * would refuse the contract's relations, a trainer's students' records; what such lists hold is bounded as they
 * resolve, `listItemsLimit`). Fields skipped by @skip/@include with these variables cost nothing. Linear in the
 * document's size.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  measure: CostMeasure = "complexity",
): number {
  // The budgets' points (contract §18.4) count objects only, as Shopify and GitHub count: a scalar is free.
  const scalarCost = measure === "complexity" ? 1 : 0;
  const { pageTypes } = pagingOf(schema);
  const fragments = fragmentsOf(document);
  const fragmentCostWithin = (withinList: boolean) =>
    memoizedFragments(fragments, (fragment) => {
      const type = schema.getType(fragment.typeCondition.name.value);
      return isCompositeType(type) ? selectionCost(fragment.selectionSet, type, withinList) : 0;
    });
  const fragmentCost = { outside: fragmentCostWithin(false), within: fragmentCostWithin(true) };

  const included = (node: SelectionNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, variables)?.if !== true && getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;

  /** `withinList`: the selection is of each item of a list (or page) above it. */
  function selectionCost(set: SelectionSetNode, parent: GraphQLCompositeType, withinList: boolean): number {
    let cost = 0;
    for (const selection of set.selections) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        cost += fieldCost(selection, parent, withinList);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        if (isCompositeType(type)) cost += selectionCost(selection.selectionSet, type, withinList);
      } else {
        cost += (withinList ? fragmentCost.within : fragmentCost.outside)(selection.name.value);
      }
    }
    return cost;
  }

  function fieldCost(node: FieldNode, parent: GraphQLCompositeType, withinList: boolean): number {
    const field = fieldDefinition(schema, parent, node.name.value);
    if (!field) return 0;
    if (measure === "points" && field.extensions[COST_FREE] === true) return 0;
    const type = getNamedType(field.type);
    if (!node.selectionSet || !isCompositeType(type)) return scalarCost;
    const paged = pagingOfField(field);
    const many = paged !== undefined || isListType(getNullableType(field.type));
    return 1 + itemsOf(node, field, parent, withinList) * selectionCost(node.selectionSet, type, withinList || many);
  }

  function itemsOf(node: FieldNode, field: GraphQLField<unknown, unknown>, parent: GraphQLCompositeType, withinList: boolean): number {
    const paged = pagingOfField(field);
    if (paged) return pagedItems(paged.paging, paged.size(getArgumentValues(field, node, variables)[paged.paging.argument]));
    if (!isListType(getNullableType(field.type))) return 1;
    // A page's list: its length is the page's, counted at the field that pages it.
    if (pageTypes.has(parent)) return 1;
    // The schema's own lists: bounded by the schema, their nesting by graphql's MaxIntrospectionDepthRule.
    if (isIntrospectionType(parent)) return 1;
    // Every list of the schema has a bound (assertListsBounded); one without would be refused, never run.
    const bound = listBoundOf(field) ?? Number.POSITIVE_INFINITY;
    return withinList ? Math.min(bound, PARTS_ESTIMATE) : bound;
  }

  const root = schema.getRootType(operation.operation);
  return root ? selectionCost(operation.selectionSet, root, false) : 0;
}

function fieldDefinition(schema: GraphQLSchema, parent: GraphQLCompositeType, name: string) {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

/** What a cost measures: the query limits' complexity (every field 1), or the budgets' points (objects only). */
export type CostMeasure = "complexity" | "points";

const COST_FREE = "costFree";
/** A field the budgets' points do not count (Query.rateLimit: reading the budget spends none of it). */
export const CostFree = () => Extensions({ [COST_FREE]: true });

/** Distinct variable values whose cost one operation keeps; past that, costs are computed and not kept. */
const MAX_KEPT_COSTS_PER_OPERATION = 100;

interface KeptCosts {
  /** The variables a cost can depend on: those inside a paging argument (`page`, `limit`) or an @skip / @include condition. */
  variables: string[];
  costs: Map<string, number>;
}

/**
 * Costs computed so far, per document and operation, by the values of the variables that can change them. Apollo
 * hands the same DocumentNode for the same query text (its document store), so a document asked again with other
 * ids is not measured again; a document Apollo forgets is forgotten here too.
 */
const keptCosts = new WeakMap<DocumentNode, Map<OperationDefinitionNode, KeptCosts>>();

function costDependsOn(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>): string[] {
  const { pagingArguments } = pagingOf(schema);
  const names = new Set<string>();
  const collect = (node: OperationDefinitionNode | FragmentDefinitionNode) =>
    visit(node, {
      Argument(argument) {
        if (!pagingArguments.has(argument.name.value)) return;
        visit(argument.value, { Variable: (variable) => void names.add(variable.name.value) });
      },
      Directive(directive) {
        if (directive.name.value !== GraphQLSkipDirective.name && directive.name.value !== GraphQLIncludeDirective.name) return;
        visit(directive, { Variable: (variable) => void names.add(variable.name.value) });
      },
    });
  collect(operation);
  // Any fragment may be spread: the document's are few, and more variables than needed only keep more costs apart.
  fragments.forEach(collect);
  return [...names].sort();
}

/**
 * `operationCost`, kept per document, operation and values of the variables the cost depends on (paging sizes,
 * @skip/@include): a document run again and again is measured once, not walked at every request.
 */
export function keptOperationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  measure: CostMeasure = "complexity",
): number {
  let byOperation = keptCosts.get(document);
  if (!byOperation) keptCosts.set(document, (byOperation = new Map()));
  let kept = byOperation.get(operation);
  if (!kept) byOperation.set(operation, (kept = { variables: costDependsOn(schema, operation, fragmentsOf(document)), costs: new Map() }));
  const key = measure + JSON.stringify(kept.variables.map((name) => variables[name] ?? null));
  let cost = kept.costs.get(key);
  if (cost === undefined) {
    cost = operationCost(schema, document, operation, variables, measure);
    if (kept.costs.size < MAX_KEPT_COSTS_PER_OPERATION) kept.costs.set(key, cost);
  }
  return cost;
}

/**
 * Refuses operations whose estimated cost (`operationCost`) passes `maxComplexity`; runs once variables are known,
 * measuring a document once per operation and values of the variables its cost depends on.
 */
export function complexityLimit(maxComplexity: number): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operation, schema }) {
          // No operation of that name: execution answers it, with nothing run.
          if (!operation) return;
          const variables = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
          if (variables.errors) {
            // A variable of the wrong type is the client's mistake, answered as execution would answer it.
            throw new GraphQLError(variables.errors[0].message, { extensions: { code: "BAD_USER_INPUT", http: { status: 400 } } });
          }
          const problem = complexityOf(schema, document, operation, variables.coerced, maxComplexity);
          if (problem) throw problem;
        },
      };
    },
  };
}

/** The refusal of an operation whose estimated cost passes `maxComplexity`, or null. */
function complexityOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  coercedVariables: Record<string, unknown>,
  maxComplexity: number,
): GraphQLError | null {
  const complexity = keptOperationCost(schema, document, operation, coercedVariables);
  if (complexity <= maxComplexity) return null;
  // Stacked fragments can reach astronomical estimates: those are not worth printing.
  const measured = Number.isSafeInteger(complexity) ? ` (tem ${complexity})` : "";
  return refused(`A consulta excede a complexidade máxima de ${maxComplexity}${measured}`);
}

/**
 * `complexityLimit` for an operation run outside Apollo (a subscription over WebSocket): its variables as sent,
 * coerced here; a variable of the wrong type is refused as execution would refuse it.
 */
export function complexityProblem(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  maxComplexity: number,
): GraphQLError | null {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) return new GraphQLError(coerced.errors[0].message, { extensions: { code: "BAD_USER_INPUT", status: 400 } });
  return complexityOf(schema, document, operation, coerced.coerced, maxComplexity);
}

/**
 * The length of `value` as JSON.stringify writes it, escapes in strings left out (nothing is copied to measure it),
 * counted up to `budget`: past it the walk stops and answers a number over the budget, so measuring a huge answer
 * costs no more than measuring one at the budget. It allocates nothing per node (no entries arrays, no number texts
 * but the rare non-integer's): it runs on every answer.
 */
function jsonSizeWithin(value: unknown, budget: number): number {
  let size = 0;
  const walk = (node: unknown): void => {
    if (size > budget) return;
    if (node === null || node === undefined) size += 4;
    else if (typeof node === "string") size += node.length + 2;
    else if (typeof node === "number") size += numberLength(node);
    else if (typeof node === "boolean") size += node ? 4 : 5;
    else if (Array.isArray(node)) {
      // Brackets and commas.
      size += 1 + Math.max(node.length, 1);
      for (const item of node) walk(item);
    } else if (typeof node === "object") {
      let keys = 0;
      for (const key in node) {
        if (!Object.hasOwn(node, key)) continue;
        keys += 1;
        // The quoted key and its colon.
        size += key.length + 3;
        walk((node as Record<string, unknown>)[key]);
      }
      // Braces and commas.
      size += 1 + Math.max(keys, 1);
    }
  };
  walk(value);
  return size;
}

/** How many characters JSON.stringify writes for `value`: counted for a safe integer, else its text's. */
function numberLength(value: number): number {
  if (!Number.isSafeInteger(value)) return String(value).length;
  let length = value < 0 ? 2 : 1;
  for (let rest = Math.abs(value); rest >= 10; rest = Math.floor(rest / 10)) length += 1;
  return length;
}

/**
 * Answers an error instead of data that would pass `maxBytes` once written, or of an answer whose lists passed the
 * request's items (`cutListsToCaps`): the cost bounds what an operation may select, this bounds what it may answer
 * (long texts, JSON objects of the change feed, an entity's many parts). The data is measured before Apollo writes it,
 * and dropped: the answer is that error alone, with HTTP 400.
 */
export function answerSizeLimit(maxBytes: number): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== "single") return;
          const { data, errors } = response.body.singleResult;
          const tooManyItems = errors?.find((error) => error.extensions?.code === RESPONSE_TOO_LARGE);
          let refusal: GraphQLFormattedError | undefined;
          if (tooManyItems) refusal = { message: tooManyItems.message, extensions: tooManyItems.extensions };
          else if (data && jsonSizeWithin(data, maxBytes) > maxBytes) {
            refusal = {
              message: `A resposta excede o limite de ${maxBytes} bytes: peça menos itens (page.size, limit), menos campos ou menos aliases por consulta`,
              extensions: { code: RESPONSE_TOO_LARGE, status: 400 },
            };
          }
          if (!refusal) return;
          response.body.singleResult = { data: null, errors: [refusal] };
          if (response.http) response.http.status = 400;
        },
      };
    },
  };
}
