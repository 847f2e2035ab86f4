import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext } from 'graphql';

/** Refuses documents nested deeper than `max` field levels (DESIGN §3: depth limit 12). */
export function depthLimit(max: number): (context: ValidationContext) => ASTVisitor {
  return (context) => {
    const fragments = new Map(context.getDocument().definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
    const depthOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!set) return 0;
      let deepest = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) deepest = Math.max(deepest, 1 + depthOf(sel.selectionSet, seen));
        else if (sel.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(sel.selectionSet, seen));
        else if (!seen.has(sel.name.value)) {
          const fragment = fragments.get(sel.name.value);
          deepest = Math.max(deepest, depthOf(fragment?.selectionSet, new Set([...seen, sel.name.value])));
        }
      }
      return deepest;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, new Set());
        if (depth > max) context.reportError(new GraphQLError(`the query is nested ${depth} levels deep; the limit is ${max}`, { nodes: [node] }));
      },
    };
  };
}
