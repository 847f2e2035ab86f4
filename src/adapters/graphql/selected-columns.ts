import type { FieldNode, FragmentDefinitionNode, GraphQLObjectType, GraphQLOutputType, SelectionSetNode } from 'graphql';
import { typeSystem } from './graphql-js.js';

/**
 * Which columns each field of an object type reads from its row, as `extensions.porticoColumns`
 * on the field: a column field its column, a relation to a parent its foreign key, the rows
 * pointing at this one the primary key.
 */
export const COLUMNS_EXTENSION = 'porticoColumns';

/** What a resolver knows of where it is (graphql-js's and graphql-jit's resolve info). */
export interface SelectionInfo {
  readonly fieldNodes: readonly FieldNode[];
  readonly fragments: Record<string, FragmentDefinitionNode>;
  readonly returnType: GraphQLOutputType;
}

/** The columns a list reads, and the same as one text (a loader's name). */
export interface Projection {
  readonly columns: readonly string[];
  readonly key: string;
}

/**
 * A reader of the columns the rows a field resolves to must carry: what its selection reads,
 * plus `always` (the keys the loaders group by), sorted; undefined (read every column) when the
 * selection names something whose columns are not known. Directives are ignored (`@skip` and
 * `@include` only ever select less), so the answer depends on the document alone and is kept
 * with its field node, worked out once per cached document.
 */
export function columnsReader(always: readonly string[]): (info: SelectionInfo) => Projection | undefined {
  const cache = new WeakMap<FieldNode, Projection | null>();
  return (info) => {
    const node = info.fieldNodes.length === 1 ? info.fieldNodes[0] : undefined;
    let projection = node ? cache.get(node) : undefined;
    if (projection === undefined) {
      const columns = collectAll(info);
      const all = columns ? [...new Set([...always, ...columns])].sort() : undefined;
      projection = all ? { columns: all, key: all.join(',') } : null;
      if (node) cache.set(node, projection);
    }
    return projection ?? undefined;
  };
}

function collectAll(info: SelectionInfo): string[] | undefined {
  const type = typeSystem.getNamedType(info.returnType);
  if (!typeSystem.isObjectType(type)) return undefined;
  const out = new Set<string>();
  for (const node of info.fieldNodes) {
    if (!node.selectionSet || !collect(type, node.selectionSet, info.fragments, out, new Set())) return undefined;
  }
  return [...out];
}

/** Adds the columns a selection set reads to `out`; false when one of its fields has none declared. */
function collect(type: GraphQLObjectType, set: SelectionSetNode, fragments: SelectionInfo['fragments'], out: Set<string>, seen: Set<string>): boolean {
  for (const selection of set.selections) {
    if (selection.kind === 'Field') {
      if (selection.name.value === '__typename') continue;
      const columns = type.getFields()[selection.name.value]?.extensions[COLUMNS_EXTENSION];
      if (!Array.isArray(columns)) return false;
      for (const c of columns) out.add(String(c));
    } else if (selection.kind === 'InlineFragment') {
      if (!collect(type, selection.selectionSet, fragments, out, seen)) return false;
    } else {
      const name = selection.name.value;
      if (seen.has(name)) continue;
      seen.add(name);
      const fragment = fragments[name];
      if (!fragment || !collect(type, fragment.selectionSet, fragments, out, seen)) return false;
    }
  }
  return true;
}
