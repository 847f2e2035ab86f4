import { createRequire } from 'node:module';
import type { DocumentNode, ExecutionArgs, ExecutionResult, VariableDefinitionNode } from 'graphql';
import type * as GraphqlJit from 'graphql-jit';
import type { CompiledQuery } from 'graphql-jit';
import { graphqlJs } from './graphql-js.js';
import { perOperation, type OperationMemo } from './operation-memo.js';

const require = createRequire(import.meta.url);
let jit: typeof GraphqlJit | undefined;

type Result = ExecutionResult | Promise<ExecutionResult>;

/** A compiled query and its operation's variables. */
interface Compiled {
  readonly query: CompiledQuery;
  readonly variables: readonly VariableDefinitionNode[];
}

/** Compiled queries of a document, by operation name ('' for the only one); null when it cannot be compiled. */
const compiled: OperationMemo<Compiled | null> = new WeakMap();

/**
 * Executes a validated query with graphql-jit: the document is compiled once into a function
 * (documents come from the pipeline's cache, so the same object comes back for the same text)
 * and every later request runs it without graphql-js's per-field interpretation. Mutations,
 * subscriptions and anything graphql-jit declines run on graphql-js's `execute`, as before.
 *
 * The profile of `{ posts(limit: 50) { id title author { name } comments { body } } }` showed
 * graphql-js's execution as most of the JavaScript time per request (docs/performance.md).
 */
export function executeCompiled(args: ExecutionArgs): Result {
  const compiledQuery = compiledQueryOf(args);
  if (!compiledQuery) return graphqlJs().execute(args);
  const result = compiledQuery.query.query(args.rootValue, args.contextValue, args.variableValues ?? {}) as Result;
  return result instanceof Promise ? result.then((r) => asGraphqlJs(r, args, compiledQuery.variables)) : asGraphqlJs(result, args, compiledQuery.variables);
}

/**
 * graphql-jit's answer as graphql-js (SSE, WebSocket) gives it: `errors` before `data` (as the
 * spec's response section suggests, so that a reader sees the errors first), and variables the
 * operation refused with graphql-js's message (graphql-jit words it otherwise). An answer without
 * errors is returned as it is; the variables are coerced again only when graphql-jit refused them
 * (an answer without `data`).
 */
function asGraphqlJs(result: ExecutionResult, args: ExecutionArgs, variables: readonly VariableDefinitionNode[]): ExecutionResult {
  if (!result.errors) return result;
  if (result.data === undefined && variables.length > 0) {
    const coerced = graphqlJs().getVariableValues(args.schema, variables, args.variableValues ?? {}, { maxErrors: 50 });
    if (coerced.errors) return { errors: coerced.errors };
  }
  const { errors, data, extensions } = result;
  return { errors, ...(data !== undefined ? { data } : {}), ...(extensions !== undefined ? { extensions } : {}) };
}

function compiledQueryOf(args: ExecutionArgs): Compiled | null {
  return perOperation(compiled, args, () => {
    const operation = graphqlJs().getOperationAST(args.document, args.operationName);
    if (operation?.operation !== 'query' || aliasesProto(args.document)) return null;
    // graphql-jit (with fast-json-stringify and ajv) is loaded with the first query to compile.
    jit ??= require('graphql-jit') as typeof GraphqlJit;
    const outcome = jit.compileQuery(args.schema, args.document, args.operationName ?? undefined);
    return jit.isCompiledQuery(outcome) ? { query: outcome, variables: operation.variableDefinitions ?? [] } : null;
  });
}

/** Whether a field is aliased `__proto__`, which graphql-jit's answer drops (it sets the object's prototype); graphql-js answers it as a key. */
function aliasesProto(document: DocumentNode): boolean {
  let found = false;
  graphqlJs().visit(document, {
    Field(node) {
      if (node.alias?.value === '__proto__') found = true;
    },
  });
  return found;
}
