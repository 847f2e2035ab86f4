import type {
  ExecutionArgs,
  FieldNode,
  GraphQLField,
  GraphQLFieldResolver,
  GraphQLObjectType,
  GraphQLOutputType,
  GraphQLScalarType,
  OperationDefinitionNode,
  SelectionSetNode,
  ValueNode,
} from 'graphql';
import type { Identity } from '../../domain/auth/identity.js';
import type { GraphqlContext } from './build-schema.js';
import { graphqlJs, typeSystem } from './graphql-js.js';
import { objectBuilder } from '../../domain/model/object-builders.js';
import { perOperation, type OperationMemo } from './operation-memo.js';
import type { Projection, SelectionInfo } from './selected-columns.js';

/**
 * Marks a field whose resolver reads nothing of its resolve info but the selection
 * (`fieldNodes`, `fragments`, `returnType`): Portico's own column, relation and list fields.
 * Only documents made of such fields are executed here.
 */
export const PLAIN_EXTENSION = 'porticoPlain';

/**
 * A relation field's rules, as `extensions.porticoRelation`: the field's resolver applies them
 * row by row through the loaders, the plain executor to a whole level of rows at once (one
 * definition of the gate, the page size and the columns read, for both).
 */
export const RELATION_EXTENSION = 'porticoRelation';

export type RelationRules =
  | {
      /** The row a foreign key points at (null when the key is). */
      readonly kind: 'parent';
      readonly table: string;
      readonly column: string;
      gate(identity: Identity): void;
    }
  | {
      /** The rows whose `column` points at the row's `parentKey`. */
      readonly kind: 'children';
      readonly table: string;
      readonly column: string;
      readonly parentKey: string;
      gate(identity: Identity): void;
      limit(args: Record<string, unknown>): number;
      projection(info: SelectionInfo): Projection | undefined;
    }
  | {
      /** The `table` rows linked to the row's `parentKey` through a many-to-many junction. */
      readonly kind: 'links';
      readonly table: string;
      readonly through: string;
      readonly sourceColumn: string;
      readonly targetColumn: string;
      readonly parentKey: string;
      gate(identity: Identity): void;
      limit(args: Record<string, unknown>): number;
    };

/** One field of a plain selection, worked out once per document. */
export type FieldPlan =
  | { readonly kind: 'typename'; readonly key: string; readonly name: string }
  | {
      readonly kind: 'leaf';
      readonly key: string;
      readonly field: string;
      readonly resolve: GraphQLFieldResolver<unknown, GraphqlContext> | undefined;
      readonly serialize: (value: unknown) => unknown;
      readonly nonNull: boolean;
    }
  | {
      readonly kind: 'object';
      readonly key: string;
      readonly field: string;
      readonly resolve: GraphQLFieldResolver<unknown, GraphqlContext> | undefined;
      /** The field's arguments, coerced as graphql-js coerces them (once, when they name no variable). */
      readonly args: (variables: Record<string, unknown>) => Record<string, unknown>;
      readonly info: SelectionInfo;
      /** Set for a relation: resolved for the whole level at once instead of row by row. */
      readonly relation: RelationRules | undefined;
      readonly nonNull: boolean;
      /** Undefined for one object; whether the items may be null for a list. */
      readonly list: { readonly itemNonNull: boolean } | undefined;
      readonly selection: readonly FieldPlan[];
      /** Every object the field answers starts as this builds it: the selection's keys in its order. */
      readonly shape: Shape;
    };

/**
 * Builds a result object of a selection: its response keys in the order they were asked, each
 * undefined until filled, so its keys come out in the selection's order (GraphQL "Serialized Map
 * Ordering", as graphql-js answers) whichever field completes first, and every object of a
 * selection has the same hidden class from the start (`objectBuilder`: a literal of the keys).
 */
export type Shape = () => Record<string, unknown>;

/** Why a document is not planned, or a plain execution stopped: the general executor then runs it, and answers as it always does. */
export class NotPlain extends Error {}

/** A planned operation: its fields, and the operation (for its variables). */
export interface PlainPlan {
  readonly operation: OperationDefinitionNode;
  readonly fields: readonly FieldPlan[];
  readonly shape: Shape;
}

const plans: OperationMemo<PlainPlan | null> = new WeakMap();

/**
 * The plan of a query made only of plain fields (see {@link PLAIN_EXTENSION}), without
 * directives or fragments, each response key once; null for anything else (which the general
 * executor runs). Kept with the document (the pipeline hands back the same object for the same text).
 */
export function plainPlan(args: ExecutionArgs): PlainPlan | null {
  return perOperation(plans, args, () => {
    const operation = graphqlJs().getOperationAST(args.document, args.operationName);
    const query = args.schema.getQueryType();
    if (operation?.operation !== 'query' || !query || operation.directives?.length) return null;
    try {
      const fields = selectionPlan(query, operation.selectionSet);
      return { operation, fields, shape: shapeOf(fields) };
    } catch (error) {
      if (error instanceof NotPlain) return null;
      throw error;
    }
  });
}

function selectionPlan(type: GraphQLObjectType, set: SelectionSetNode): FieldPlan[] {
  const g = graphqlJs();
  const keys = new Set<string>();
  const plan: FieldPlan[] = [];
  for (const node of set.selections) {
    if (node.kind !== g.Kind.FIELD || node.directives?.length) throw new NotPlain();
    const key = node.alias?.value ?? node.name.value;
    // `__proto__` (a valid alias) would set a plain object's prototype instead of a key.
    if (keys.has(key) || key === '__proto__') throw new NotPlain();
    keys.add(key);
    if (node.name.value === '__typename') {
      plan.push({ kind: 'typename', key, name: type.name });
      continue;
    }
    const def = type.getFields()[node.name.value];
    if (!def || def.extensions[PLAIN_EXTENSION] !== true) throw new NotPlain();
    plan.push(fieldPlan(def, node, key));
  }
  return plan;
}

function fieldPlan(def: GraphQLField<unknown, unknown>, node: FieldNode, key: string): FieldPlan {
  const g = graphqlJs();
  const resolve = def.resolve as GraphQLFieldResolver<unknown, GraphqlContext> | undefined;
  let type: GraphQLOutputType = def.type;
  const nonNull = g.isNonNullType(type);
  if (g.isNonNullType(type)) type = type.ofType;
  if (g.isLeafType(type)) {
    if (node.selectionSet || !g.isScalarType(type)) throw new NotPlain();
    return { kind: 'leaf', key, field: def.name, resolve, serialize: serializerOf(type), nonNull };
  }
  let list: { itemNonNull: boolean } | undefined;
  if (g.isListType(type)) {
    let item: GraphQLOutputType = type.ofType;
    list = { itemNonNull: g.isNonNullType(item) };
    if (g.isNonNullType(item)) item = item.ofType;
    type = item;
  }
  if (!g.isObjectType(type) || !node.selectionSet) throw new NotPlain();
  const selection = selectionPlan(type, node.selectionSet);
  const coerce = (variables: Record<string, unknown>): Record<string, unknown> => {
    try {
      return g.getArgumentValues(def, node, variables);
    } catch {
      throw new NotPlain();
    }
  };
  const fixed = node.arguments?.some((a) => namesVariable(a.value)) ? undefined : coerce({});
  return {
    kind: 'object',
    key,
    field: def.name,
    resolve,
    args: fixed ? () => fixed : coerce,
    info: { fieldNodes: [node], fragments: {}, returnType: def.type },
    relation: def.extensions[RELATION_EXTENSION] as RelationRules | undefined,
    nonNull,
    list,
    selection,
    shape: shapeOf(selection),
  };
}

const NO_VALUES: readonly unknown[] = [];

function shapeOf(fields: readonly FieldPlan[]): Shape {
  const build = objectBuilder(fields.map((field) => field.key));
  return () => build(NO_VALUES);
}

function namesVariable(value: ValueNode): boolean {
  if (value.kind === 'Variable') return true;
  if (value.kind === 'ListValue') return value.values.some(namesVariable);
  if (value.kind === 'ObjectValue') return value.fields.some((f) => namesVariable(f.value));
  return false;
}

/**
 * A scalar's serializer, with graphql-js's own answer for the values it hands back as they are
 * (a string as a String or an ID, a whole number as an ID's string, a 32-bit whole number as an
 * Int, a finite number as a Float, a boolean as a Boolean) given without calling it; every other
 * value, and every other scalar, goes to the scalar's `serialize`.
 */
function serializerOf(scalar: GraphQLScalarType): (value: unknown) => unknown {
  const t = typeSystem;
  const general = (v: unknown) => scalar.serialize(v);
  if (scalar === t.GraphQLString) return (v) => (typeof v === 'string' ? v : general(v));
  if (scalar === t.GraphQLID) return (v) => (typeof v === 'string' ? v : typeof v === 'number' && Number.isInteger(v) ? String(v) : general(v));
  if (scalar === t.GraphQLInt) return (v) => (typeof v === 'number' && Number.isInteger(v) && v <= 2_147_483_647 && v >= -2_147_483_648 ? v : general(v));
  if (scalar === t.GraphQLFloat) return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : general(v));
  if (scalar === t.GraphQLBoolean) return (v) => (typeof v === 'boolean' ? v : general(v));
  return general;
}
