import type {
  ExecutionArgs,
  ExecutionResult,
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
import type { Row, Value } from '../../domain/model/types.js';
import type { GraphqlContext } from './build-schema.js';
import { graphqlJs, typeSystem } from './graphql-js.js';
import { keyOf } from './loaders.js';
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
    };

/** One field of a plain selection, worked out once per document. */
type FieldPlan =
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
    };

/** Why a plain execution stopped: the document then runs on the general executor, which answers as it always does. */
class NotPlain extends Error {}

/** A planned operation: its fields, and the operation (for its variables). */
export interface PlainPlan {
  readonly operation: OperationDefinitionNode;
  readonly fields: readonly FieldPlan[];
}

/** One request's run of a plan. */
interface Run {
  readonly context: GraphqlContext;
  readonly variables: Record<string, unknown>;
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
      return { operation, fields: selectionPlan(query, operation.selectionSet) };
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
    if (keys.has(key)) throw new NotPlain();
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
    selection: selectionPlan(type, node.selectionSet),
  };
}

function namesVariable(value: ValueNode): boolean {
  if (value.kind === 'Variable') return true;
  if (value.kind === 'ListValue') return value.values.some(namesVariable);
  if (value.kind === 'ObjectValue') return value.fields.some((f) => namesVariable(f.value));
  return false;
}

/**
 * Runs a plan: the same resolvers graphql-jit would call (so the same gates, unlock rules, page
 * sizes and loaders, and the same statements), with the result assembled directly. Anything
 * but a clean answer (a resolver that throws or rejects, a null where the type allows none, a
 * value the scalar refuses) gives undefined, and the caller runs the document on the general
 * executor, which answers with its errors (reads already made are served from the request's
 * loaders where they were cached).
 */
export async function runPlain(plan: PlainPlan, args: ExecutionArgs): Promise<ExecutionResult | undefined> {
  let variables: Record<string, unknown> = {};
  const definitions = plan.operation.variableDefinitions ?? [];
  if (definitions.length > 0) {
    const coerced = graphqlJs().getVariableValues(args.schema, definitions, args.variableValues ?? {}, { maxErrors: 1 });
    if (coerced.errors) return undefined;
    variables = coerced.coerced;
  }
  const data: Record<string, unknown> = {};
  try {
    const done = completeSelection(plan.fields, [undefined], [data], { context: args.contextValue as GraphqlContext, variables });
    if (done) await done;
  } catch {
    return undefined;
  }
  return { data };
}

/**
 * Fills `targets[i]` with the selection of `sources[i]`, one level at a time: every row's
 * relations are asked for before any is awaited (so the loaders batch them as they do for
 * graphql-jit). On a failure it still waits for what it started, so nothing runs on unobserved.
 * Undefined when the level had nothing to wait for.
 */
function completeSelection(plan: readonly FieldPlan[], sources: readonly unknown[], targets: Record<string, unknown>[], run: Run): Promise<void> | undefined {
  const pending: Promise<void>[] = [];
  try {
    for (const field of plan) {
      if (field.kind === 'typename') {
        for (const target of targets) target[field.key] = field.name;
      } else if (field.kind === 'leaf') {
        for (let i = 0; i < sources.length; i++) (targets[i] as Record<string, unknown>)[field.key] = leafValue(field, sources[i], run);
      } else {
        pending.push(completeObjects(field, sources, targets, run));
      }
    }
  } catch (error) {
    if (pending.length === 0) throw error;
    return Promise.allSettled(pending).then(() => {
      throw error;
    });
  }
  if (pending.length <= 1) return pending[0];
  return Promise.allSettled(pending).then((outcomes) => {
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
  });
}

function resolved(field: Extract<FieldPlan, { kind: 'object' | 'leaf' }>, source: unknown, run: Run): unknown {
  if (!field.resolve) return (source as Record<string, unknown>)[field.field];
  if (field.kind === 'leaf') return field.resolve(source, {}, run.context, undefined as never);
  return field.resolve(source, field.args(run.variables), run.context, field.info as never);
}

function leafValue(field: Extract<FieldPlan, { kind: 'leaf' }>, source: unknown, run: Run): unknown {
  const value = field.resolve ? resolved(field, source, run) : (source as Record<string, unknown>)[field.field];
  if (value === null || value === undefined) {
    if (field.nonNull) throw new NotPlain();
    return null;
  }
  if (value instanceof Promise) throw new NotPlain();
  const out = field.serialize(value);
  if (out === undefined) throw new NotPlain();
  return out;
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

/** Completes one object field for every source row: its answers for the whole level, then the next level in one pass. */
async function completeObjects(field: Extract<FieldPlan, { kind: 'object' }>, parents: readonly unknown[], targets: Record<string, unknown>[], run: Run): Promise<void> {
  const answers = field.relation ? await relationAnswers(field.relation, field.args(run.variables), field.info, parents as Row[], run.context) : await resolverAnswers(field, parents, run);
  const sources: unknown[] = [];
  const children: Record<string, unknown>[] = [];
  const child = (source: unknown): Record<string, unknown> => {
    if (source instanceof Promise) throw new NotPlain();
    const target: Record<string, unknown> = {};
    sources.push(source);
    children.push(target);
    return target;
  };
  for (let i = 0; i < answers.length; i++) {
    const answer = answers[i];
    const target = targets[i] as Record<string, unknown>;
    if (answer === null || answer === undefined) {
      if (field.nonNull) throw new NotPlain();
      target[field.key] = null;
    } else if (field.list) {
      if (!Array.isArray(answer)) throw new NotPlain();
      const items: unknown[] = [];
      for (const item of answer as unknown[]) {
        if (item === null || item === undefined) {
          if (field.list.itemNonNull) throw new NotPlain();
          items.push(null);
        } else items.push(child(item));
      }
      target[field.key] = items;
    } else {
      target[field.key] = child(answer);
    }
  }
  const done = sources.length > 0 ? completeSelection(field.selection, sources, children, run) : undefined;
  if (done) await done;
}

/** Every parent row's answer from the field's resolver (the root fields, one row). */
async function resolverAnswers(field: Extract<FieldPlan, { kind: 'object' }>, parents: readonly unknown[], run: Run): Promise<unknown[]> {
  const values: unknown[] = [];
  try {
    for (const parent of parents) values.push(resolved(field, parent, run));
    return await Promise.all(values);
  } catch (error) {
    await Promise.allSettled(values);
    throw error;
  }
}

/**
 * A relation's answer for every parent row, with one read for the level (the statement the
 * field's loader would batch): the gate is checked once when some row needs it, as the resolver
 * checks it for each such row.
 */
async function relationAnswers(rules: RelationRules, args: Record<string, unknown>, info: SelectionInfo, parents: readonly Row[], context: GraphqlContext): Promise<unknown[]> {
  if (rules.kind === 'parent') {
    const keys: Value[] = [];
    for (const row of parents) {
      const id = row[rules.column];
      if (id !== null && id !== undefined) keys.push(id);
    }
    if (keys.length === 0) return parents.map(() => null);
    rules.gate(context.identity);
    const found = await context.loaders.rowsByIds(rules.table, keys);
    return parents.map((row) => {
      const id = row[rules.column];
      return id === null || id === undefined ? null : (found.get(keyOf(id)) ?? null);
    });
  }
  if (parents.length === 0) return [];
  rules.gate(context.identity);
  const keys = parents.map((row) => row[rules.parentKey] ?? null);
  const groups = await context.loaders.rowsByParents({ table: rules.table, column: rules.column, limit: rules.limit(args), projection: rules.projection(info) }, keys);
  return keys.map((k) => groups.get(keyOf(k)) ?? []);
}
