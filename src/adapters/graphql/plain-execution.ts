import type { ExecutionArgs, ExecutionResult } from 'graphql';
import type { Row, Value } from '../../domain/model/types.js';
import type { GraphqlContext } from './build-schema.js';
import { DatabaseUnavailable, DomainError } from '../../domain/errors/domain-error.js';
import { GraphQLError, graphqlJs } from './graphql-js.js';
import { keyOf } from './loaders.js';
import { NotPlain, type FieldPlan, type PlainPlan, type RelationRules } from './plain-plan.js';
import type { SelectionInfo } from './selected-columns.js';

/** One request's run of a plan. */
interface Run {
  readonly context: GraphqlContext;
  readonly variables: Record<string, unknown>;
}

/**
 * How a plain run ended: with the answer; handed over (the general executor then runs the
 * document and answers as it always does); or with a read that failed (its error).
 */
export type PlainOutcome = { readonly answer: ExecutionResult } | { readonly handOver: true } | { readonly failedRead: unknown };

const HAND_OVER: PlainOutcome = { handOver: true };

/**
 * Runs a plan: roots and columns through the same resolvers graphql-jit would call, relations by
 * the rules their resolvers apply with one read per level (so the same gates, unlock rules, page
 * sizes and statements), the result assembled directly. It hands the
 * document over on anything but a clean answer that is not a failed read: a refused gate,
 * argument or variable, a null where the type allows none, a value the scalar refuses (the reads
 * already made are made again there). A failed read (the database down, a statement past its
 * deadline) is reported as such, so that it is not waited for twice.
 */
export async function runPlain(plan: PlainPlan, args: ExecutionArgs): Promise<PlainOutcome> {
  let variables: Record<string, unknown> = {};
  const definitions = plan.operation.variableDefinitions ?? [];
  if (definitions.length > 0) {
    const coerced = graphqlJs().getVariableValues(args.schema, definitions, args.variableValues ?? {}, { maxErrors: 1 });
    if (coerced.errors) return HAND_OVER;
    variables = coerced.coerced;
  }
  const context = args.contextValue as GraphqlContext;
  const data = plan.shape();
  try {
    const done = completeSelection(plan.fields, [undefined], [data], { context, variables });
    if (done) await done;
  } catch (error) {
    // A rule's refusal comes before any read of its field, and is answered again at once there.
    const refused = error instanceof NotPlain || error instanceof GraphQLError || (error instanceof DomainError && !(error instanceof DatabaseUnavailable)) || context.departure.aborted;
    return refused ? HAND_OVER : { failedRead: error };
  }
  return { answer: { data } };
}

/**
 * What the general executor runs after a plain run that did not answer: the same request, or,
 * after a failed read, the same request over a store whose every read fails at once with that
 * error (so the answer reports it in the general executor's shape without reading again).
 */
export function handedOver(args: ExecutionArgs, outcome: Exclude<PlainOutcome, { answer: ExecutionResult }>): ExecutionArgs {
  if (!('failedRead' in outcome)) return args;
  const context = args.contextValue as GraphqlContext;
  const failing = new Proxy(context.store, {
    get: (target, name) => (typeof Reflect.get(target, name) === 'function' ? () => Promise.reject(outcome.failedRead) : Reflect.get(target, name)),
  });
  const failed: GraphqlContext = { ...context, store: failing, loaders: context.loaders.over(failing) };
  return { ...args, contextValue: failed };
}

/**
 * Fills `targets[i]` with the selection of `sources[i]`, one level at a time: each object field
 * of the level is started for every row before any is awaited (a relation is one read for the
 * level). On a failure it still waits for what it started, so nothing runs on unobserved.
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
  if (value instanceof Promise) {
    // A failure comes as a rejection (rejecting-resolvers.ts): observed here, answered by the general executor.
    value.catch(() => undefined);
    throw new NotPlain();
  }
  const out = field.serialize(value);
  if (out === undefined) throw new NotPlain();
  return out;
}


/** Completes one object field for every source row: its answers for the whole level, then the next level in one pass. */
async function completeObjects(field: Extract<FieldPlan, { kind: 'object' }>, parents: readonly unknown[], targets: Record<string, unknown>[], run: Run): Promise<void> {
  const answers = field.relation ? await relationAnswers(field.relation, field.args(run.variables), field.info, parents as Row[], run.context) : await resolverAnswers(field, parents, run);
  const sources: unknown[] = [];
  const children: Record<string, unknown>[] = [];
  const child = (source: unknown): Record<string, unknown> => {
    if (source instanceof Promise) {
      source.catch(() => undefined);
      throw new NotPlain();
    }
    const target = field.shape();
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
  const groups =
    rules.kind === 'links'
      ? await context.loaders.rowsByLinks({ target: rules.table, through: rules.through, sourceColumn: rules.sourceColumn, targetColumn: rules.targetColumn, limit: rules.limit(args) }, keys)
      : await context.loaders.rowsByParents({ table: rules.table, column: rules.column, limit: rules.limit(args), projection: rules.projection(info) }, keys);
  return keys.map((k) => groups.get(keyOf(k)) ?? []);
}
