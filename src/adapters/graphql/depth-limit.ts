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

/**
 * Refuses documents whose cost exceeds `max` (DESIGN §3: a complexity limit beside the depth
 * limit). Each field costs 1, multiplied by the page size its list arguments ask for
 * (`limit` or `first`, default 50, at most 200) for everything below it.
 */
export function complexityLimit(max: number): (context: ValidationContext) => ASTVisitor {
  return (context) => {
    const fragments = new Map(context.getDocument().definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
    const pageSize = (args: readonly { name: { value: string }; value: { kind: string; value?: string } }[] | undefined): number => {
      const arg = args?.find((a) => a.name.value === 'limit' || a.name.value === 'first');
      if (!arg) return 1;
      const n = arg.value.kind === Kind.INT ? Number(arg.value.value) : 50;
      return Math.min(Math.max(n, 1), 200);
    };
    const costOf = (set: SelectionSetNode | undefined, seen: Set<string>): number => {
      if (!set) return 0;
      let total = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) total += 1 + pageSize(sel.arguments as never) * costOf(sel.selectionSet, seen);
        else if (sel.kind === Kind.INLINE_FRAGMENT) total += costOf(sel.selectionSet, seen);
        else if (!seen.has(sel.name.value)) total += costOf(fragments.get(sel.name.value)?.selectionSet, new Set([...seen, sel.name.value]));
      }
      return total;
    };
    return {
      OperationDefinition(node) {
        const cost = costOf(node.selectionSet, new Set());
        if (cost > max) context.reportError(new GraphQLError(`the query costs ${cost}; the limit is ${max}`, { nodes: [node] }));
      },
    };
  };
}
