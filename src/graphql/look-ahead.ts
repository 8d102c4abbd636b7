import {
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  type FieldNode,
  type GraphQLResolveInfo,
  type SelectionNode,
  type SelectionSetNode,
} from "graphql";

/**
 * What a request selects under the field being resolved, read ahead of its resolution: a root resolver asks for the
 * relations below it (a plan's trainings' exercises' authors) so its service reads the whole tree in one statement,
 * as PostGraphile does, instead of one batch per level. Fragments and inline fragments are merged; fields a
 * `@skip`/`@include` leaves out are not there. The relations read so are marked @Embedded (embedded.ts): they have
 * no loader, so every producer of their parent reads them from its selection.
 */
export class Selection {
  private children?: Map<string, FieldNode[]>;

  private constructor(
    /** The field's nodes in the request: every alias and fragment of it. */
    private readonly nodes: readonly FieldNode[],
    private readonly info: Pick<GraphQLResolveInfo, "fragments" | "variableValues">,
  ) {}

  static of(info: GraphQLResolveInfo): Selection {
    return new Selection(info.fieldNodes, info);
  }

  /** The selection under the field `name` (every alias of it merged), undefined when it is not selected. */
  field(name: string): Selection | undefined {
    const nodes = this.fields().get(name);
    return nodes && new Selection(nodes, this.info);
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
