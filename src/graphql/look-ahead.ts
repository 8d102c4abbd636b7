import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isInterfaceType,
  isObjectType,
  Kind,
  type FieldNode,
  type GraphQLField,
  type GraphQLResolveInfo,
  type SelectionNode,
  type SelectionSetNode,
} from "graphql";

/**
 * What a request selects under the field being resolved, read ahead of its resolution: a root resolver asks for the
 * relations below it (a plan's trainings' exercises' authors) so its service reads the whole tree in one statement,
 * as PostGraphile does, instead of one batch per level. Fragments and inline fragments are merged; fields a
 * `@skip`/`@include` leaves out are not there. The relations marked @Embedded (embedded.ts) are read so and only so.
 */
export class Selection {
  private children?: Map<string, FieldNode[]>;

  private constructor(
    /** The field's nodes in the request: every alias and fragment of it. */
    readonly nodes: readonly FieldNode[],
    private readonly info: Pick<GraphQLResolveInfo, "fragments" | "variableValues">,
    /** The field's definition, when its parent is an object or interface type that has it. */
    private readonly definition: GraphQLField<unknown, unknown> | undefined,
  ) {}

  static of(info: GraphQLResolveInfo): Selection {
    return new Selection(info.fieldNodes, info, info.parentType.getFields()[info.fieldName]);
  }

  /** The selection under the field `name` (every alias of it merged), undefined when it is not selected. */
  field(name: string): Selection | undefined {
    const nodes = this.fields().get(name);
    return nodes && this.child(name, nodes);
  }

  /** Every field selected under this one, by name, as `field` answers it. */
  selectedFields(): Map<string, Selection> {
    return new Map([...this.fields()].map(([name, nodes]) => [name, this.child(name, nodes)]));
  }

  /** What the field's definition declares of it beyond the schema's text (its resolver's decorators: Embedded). */
  get extensions(): Readonly<Record<string, unknown>> {
    return this.definition?.extensions ?? {};
  }

  /**
   * The distinct sets of arguments this field is selected with (coerced, variables read, as its resolver gets them):
   * aliases may ask one relation with different arguments, each read for its own. Those execution would refuse are
   * left out: the field's own resolution reports them.
   */
  argumentSets(): Record<string, unknown>[] {
    const definition = this.definition;
    const sets: Record<string, unknown>[] = [];
    if (!definition) return sets;
    for (const node of this.nodes) {
      let args: Record<string, unknown>;
      try {
        args = getArgumentValues(definition, node, this.info.variableValues);
      } catch {
        continue;
      }
      if (!sets.some((set) => sameArguments(set, args))) sets.push(args);
    }
    return sets;
  }

  /**
   * The keys of the JSON object a read ahead builds for this selection, for a type whose object can carry `keys`
   * (named as the type's fields): the selected fields among them, and for each other selected field the keys its
   * resolver reads (`needs`, e.g. the id a relation resolves from). Undefined, every key, when a selected field is in
   * neither: a resolver this does not know of gets the whole object. Sorted, and drawn from `keys` and `needs` only,
   * never from the request's text (aliases): a statement keyed by them has at most one shape per subset of `keys` (2^n,
   * so the statement families cap the shapes they keep, platform/db/prepared.ts, and the texts kept prepared are
   * capped too, MAX_PREPARED_TEXTS).
   */
  keysOf(keys: readonly string[], needs: Readonly<Record<string, readonly string[]>> = {}): string[] | undefined {
    const wanted = new Set<string>();
    for (const name of this.fields().keys()) {
      if (keys.includes(name)) wanted.add(name);
      else if (Object.hasOwn(needs, name)) for (const key of needs[name]) wanted.add(key);
      else if (name !== "__typename") return undefined;
    }
    return [...wanted].sort();
  }

  /** The path of fields `names` under this one, undefined as soon as one is not selected. */
  path(...names: string[]): Selection | undefined {
    return names.reduce<Selection | undefined>((selection, name) => selection?.field(name), this);
  }

  private child(name: string, nodes: FieldNode[]): Selection {
    const type = this.definition && getNamedType(this.definition.type);
    const definition = isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
    return new Selection(nodes, this.info, definition);
  }

  private fields(): Map<string, FieldNode[]> {
    if (!this.children) {
      this.children = new Map();
      for (const node of this.nodes) if (node.selectionSet) this.collect(node.selectionSet, new Set());
    }
    return this.children;
  }

  private collect(set: SelectionSetNode, fragmentsSeen: Set<string>) {
    for (const node of set.selections) {
      if (!this.included(node)) continue;
      if (node.kind === Kind.FIELD) {
        const named = this.children!.get(node.name.value);
        if (named) named.push(node);
        else this.children!.set(node.name.value, [node]);
      } else if (node.kind === Kind.INLINE_FRAGMENT) {
        this.collect(node.selectionSet, fragmentsSeen);
      } else if (!fragmentsSeen.has(node.name.value)) {
        // Validation has refused cycles; the set only spares reading one fragment twice.
        fragmentsSeen.add(node.name.value);
        const fragment = this.info.fragments[node.name.value];
        if (fragment) this.collect(fragment.selectionSet, fragmentsSeen);
      }
    }
  }

  /** False when `@skip(if: true)` or `@include(if: false)` leaves the node out (as graphql-js's own collection does). */
  private included(node: SelectionNode) {
    if (!node.directives?.length) return true;
    if (getDirectiveValues(GraphQLSkipDirective, node, this.info.variableValues)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, node, this.info.variableValues)?.if !== false;
  }
}

/**
 * Whether two sets of arguments are the same, whatever the order of their keys: the schema's order of a field's
 * arguments, the order a resolver writes them in and the order of an input object's properties need not agree.
 * Absent and undefined are alike; null stays null. Compared in place (no text made): it runs for every parent.
 */
export function sameArguments(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  // A DateTime argument: a Date has no keys of its own to compare.
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameArguments(item, b[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key in left) if (!sameArguments(left[key], right[key])) return false;
  for (const key in right) if (!(key in left) && right[key] !== undefined) return false;
  return true;
}
