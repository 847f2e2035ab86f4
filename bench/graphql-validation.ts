/**
 * GraphQL validation cost of a fragment fan-out, in one process: `query { posts { ...F0 } }`
 * where each fragment spreads the next one twice (`F0` … `F19`, and a 24-level variant), so the
 * document is a few hundred characters but expands to 2^levels fields. Times, interleaved over
 * many runs after a warm-up, graphql-js `validate` with `specifiedRules` against Portico's full
 * rule list, and graphql-js `parse` + `validate` against `GraphqlPipeline.prepare` (which parses
 * too). The schema is the one the reference app serves: it is started on `sqlite::memory:` and
 * its introspection answer is turned back into a schema (`buildClientSchema`; validation reads
 * only types, fields and arguments, never resolvers).
 *
 * Goal (the issue): Portico under 5 ms and within 5x graphql-js. Throws when either side
 * answers something unexpected (graphql-js must accept the document, Portico must refuse it
 * for its cost, and nothing else).
 *
 * Alone: `node dist/bench/graphql-validation.js` (after `npm run build`);
 * `BENCH_VALIDATION_RUNS` (default 1000) and `BENCH_VALIDATION_WARMUP` (default 200) set the
 * number of measured and warm-up runs.
 */
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  buildClientSchema,
  getIntrospectionQuery,
  GraphQLError,
  isObjectType,
  parse,
  specifiedRules,
  validate,
  type GraphQLSchema,
  type IntrospectionQuery,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildReferenceApp } from '../examples/reference/app.js';
import type { GraphqlContext } from '../src/adapters/graphql/build-schema.js';
import { depthAndCostRule } from '../src/adapters/graphql/document-limits.js';
import { DEFAULT_GRAPHQL_LIMITS, GraphqlPipeline } from '../src/adapters/graphql/pipeline.js';

/** Median and p99 of one timed operation, in milliseconds. */
export interface Timing {
  readonly medianMs: number;
  readonly p99Ms: number;
  readonly runs: number;
}

/** One document, timed on both sides. */
export interface FanOutResult {
  /** `fan-out 20`: fragments F0 … F19, each spreading the next twice. */
  readonly document: string;
  readonly levels: number;
  readonly characters: number;
  /** Fields the document expands to (2^levels). */
  readonly expandedFields: number;
  /** graphql-js `validate(schema, document, specifiedRules)` on a parsed document. */
  readonly graphqlValidate: Timing;
  /** `validate` with the pipeline's rules (specifiedRules, Armor max-aliases/max-directives, depth and cost) on a parsed document. */
  readonly porticoValidate: Timing;
  /** graphql-js `parse` + `validate(…, specifiedRules)` of the query text. */
  readonly graphqlParseValidate: Timing;
  /** `GraphqlPipeline.prepare({ query })`: Portico's bounded parse and full validation. */
  readonly porticoPrepare: Timing;
  /** Medians: Portico validate / graphql-js validate. */
  readonly validateRatio: number;
  /** Medians: Portico prepare / graphql-js parse + validate. */
  readonly prepareRatio: number;
  /** What `prepare` answered (the refusal of the cost rule). */
  readonly porticoErrors: readonly string[];
}

export interface GraphqlValidationReport {
  readonly warmupRuns: number;
  readonly measuredRuns: number;
  readonly goal: { readonly maxMedianMs: number; readonly maxRatio: number };
  readonly documents: readonly FanOutResult[];
}

const GOAL = { maxMedianMs: 5, maxRatio: 5 };
const LEVELS = [20, 24];

function count(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1`);
  return value;
}

/** `query { posts { ...F0 } }` and `levels` fragments, each spreading the next twice; the last selects `id title`. */
export function fanOutDocument(levels: number): string {
  const fragments = Array.from({ length: levels }, (_, i) =>
    i === levels - 1 ? `fragment F${i} on Post { id title }` : `fragment F${i} on Post { ...F${i + 1} ...F${i + 1} }`,
  );
  return ['query { posts { ...F0 } }', ...fragments].join('\n');
}

/** The schema the reference app serves in development, read through its own introspection. */
async function referenceSchema(): Promise<GraphQLSchema> {
  const app = buildReferenceApp({ database: 'sqlite::memory:', logRequests: false, env: {} });
  try {
    const { url } = await app.listen(0);
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
    });
    const body = (await response.json()) as { data?: IntrospectionQuery; errors?: unknown };
    if (response.status !== 200 || !body.data) throw new Error(`introspection of the reference app failed: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    const schema = buildClientSchema(body.data);
    const post = schema.getType('Post');
    if (!isObjectType(post) || !schema.getQueryType()?.getFields().posts) throw new Error('the reference schema has no Post type or Query.posts field');
    return schema;
  } finally {
    await app.close();
  }
}

/**
 * The rule list `GraphqlPipeline` validates with in development (its constructor, plus the
 * per-request depth and cost rule), for timing validation without parsing. `prepare` is timed
 * as well, so a drift between this copy and the pipeline would show as a gap between the rows.
 */
function porticoRules(): readonly ValidationRule[] {
  const limits = DEFAULT_GRAPHQL_LIMITS;
  const armor = (context: ValidationContext, error: GraphQLError | null) => {
    if (error) context.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, '')));
  };
  return [
    ...specifiedRules,
    maxAliasesRule({ n: limits.maxAliases, propagateOnRejection: false, onReject: [armor as never] }),
    maxDirectivesRule({ n: limits.maxDirectives, propagateOnRejection: false, onReject: [armor as never] }),
    depthAndCostRule(limits, null),
  ];
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
  return { medianMs: median, p99Ms: percentile(sorted, 99), runs: sorted.length };
}

/**
 * Runs every operation `warmup` times, then `runs` times, interleaved (one of each per round,
 * in a rotating order) so that all of them see the same JIT state, GC pressure and machine load.
 */
function timeInterleaved(operations: readonly (() => void)[], warmup: number, runs: number): Timing[] {
  for (let i = 0; i < warmup; i++) for (const op of operations) op();
  const samples = operations.map(() => [] as number[]);
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < operations.length; k++) {
      const index = (round + k) % operations.length;
      const start = performance.now();
      operations[index]?.();
      samples[index]?.push(performance.now() - start);
    }
  }
  return samples.map(timing);
}

function measureDocument(schema: GraphQLSchema, levels: number, warmup: number, runs: number): FanOutResult {
  const query = fanOutDocument(levels);
  const document = parse(query);
  const rules = porticoRules();
  const pipeline = new GraphqlPipeline({ schema, limits: DEFAULT_GRAPHQL_LIMITS, introspection: true });
  // prepare only hands the context on to execution; nothing here executes.
  const context = {} as GraphqlContext;
  const name = `fan-out ${levels}`;

  // The answers first: a fast wrong answer measures nothing.
  const plain = validate(schema, document, specifiedRules);
  if (plain.length > 0) throw new Error(`${name}: graphql-js refused the document: ${plain.map((e) => e.message).join('; ')}`);
  const prepared = pipeline.prepare({ query }, context);
  const refusals = Array.isArray(prepared) ? prepared.map((e: GraphQLError) => e.message) : [];
  if (refusals.length !== 1 || !refusals[0]?.startsWith('the query costs ')) {
    throw new Error(`${name}: expected Portico to refuse the document for its cost alone, got ${JSON.stringify(refusals)}`);
  }
  const full = validate(schema, document, rules).map((e) => e.message);
  if (JSON.stringify(full) !== JSON.stringify(refusals)) throw new Error(`${name}: the copied rule list answers ${JSON.stringify(full)}, prepare ${JSON.stringify(refusals)}`);

  // Every timed parse gets a text it has not seen (a trailing comment), so the pipeline's document
  // cache never answers: this times a cold parse and validation on both sides.
  let fresh = 0;
  const unseen = () => `${query}\n# ${fresh++}`;
  const check = (ok: boolean) => {
    if (!ok) throw new Error(`${name}: an answer changed during the measurement`);
  };
  const [graphqlValidate, porticoValidate, graphqlParseValidate, porticoPrepare] = timeInterleaved(
    [
      () => check(validate(schema, document, specifiedRules).length === 0),
      () => check(validate(schema, document, rules).length === 1),
      () => check(validate(schema, parse(unseen()), specifiedRules).length === 0),
      () => check(Array.isArray(pipeline.prepare({ query: unseen() }, context))),
    ],
    warmup,
    runs,
  ) as [Timing, Timing, Timing, Timing];
  return {
    document: name,
    levels,
    characters: query.length,
    expandedFields: 2 ** levels,
    graphqlValidate,
    porticoValidate,
    graphqlParseValidate,
    porticoPrepare,
    validateRatio: porticoValidate.medianMs / graphqlValidate.medianMs,
    prepareRatio: porticoPrepare.medianMs / graphqlParseValidate.medianMs,
    porticoErrors: refusals,
  };
}

/** Measures the fan-out documents (20 and 24 levels) against the reference app's schema. */
export async function measureGraphqlValidation(): Promise<GraphqlValidationReport> {
  const warmupRuns = count('BENCH_VALIDATION_WARMUP', 200);
  const measuredRuns = count('BENCH_VALIDATION_RUNS', 1000);
  const schema = await referenceSchema();
  const documents = LEVELS.map((levels) => measureDocument(schema, levels, warmupRuns, measuredRuns));
  return { warmupRuns, measuredRuns, goal: GOAL, documents };
}

const HEADERS = ['Document', 'Measured', 'graphql-js median ms', 'graphql-js p99 ms', 'Portico median ms', 'Portico p99 ms', 'Portico/graphql-js'];

function rows(report: GraphqlValidationReport): string[][] {
  const ms = (n: number) => n.toFixed(3);
  return report.documents.flatMap((d) => [
    [`${d.document} (${d.characters} chars)`, 'validate (parsed)', ms(d.graphqlValidate.medianMs), ms(d.graphqlValidate.p99Ms), ms(d.porticoValidate.medianMs), ms(d.porticoValidate.p99Ms), d.validateRatio.toFixed(2)],
    [`${d.document} (${d.characters} chars)`, 'parse + validate / prepare', ms(d.graphqlParseValidate.medianMs), ms(d.graphqlParseValidate.p99Ms), ms(d.porticoPrepare.medianMs), ms(d.porticoPrepare.p99Ms), d.prepareRatio.toFixed(2)],
  ]);
}

/** Whether every Portico median is under the goal's milliseconds and ratio. */
export function meetsGoal(report: GraphqlValidationReport): boolean {
  return report.documents.every(
    (d) =>
      Math.max(d.porticoValidate.medianMs, d.porticoPrepare.medianMs) < report.goal.maxMedianMs && Math.max(d.validateRatio, d.prepareRatio) <= report.goal.maxRatio,
  );
}

function summary(report: GraphqlValidationReport): string {
  return `${report.warmupRuns} warm-up + ${report.measuredRuns} measured runs of each, interleaved; goal: Portico median under ${report.goal.maxMedianMs} ms and within ${report.goal.maxRatio}x graphql-js (${meetsGoal(report) ? 'met' : 'NOT met'})`;
}

/** The section as plain text for the console. */
export function validationConsoleTable(report: GraphqlValidationReport): string {
  const all = [HEADERS, ...rows(report)];
  const widths = HEADERS.map((_, i) => Math.max(...all.map((row) => (row[i] ?? '').length)));
  const line = (row: readonly string[]): string => row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  return [
    'GraphQL validation: fragment fan-out against the reference schema',
    summary(report),
    '',
    line(HEADERS),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows(report).map(line),
  ].join('\n');
}

/** The section as markdown (appended to `bench/results/latest.md`). */
export function validationMarkdown(report: GraphqlValidationReport): string {
  const row = (values: readonly string[]): string => `| ${values.join(' | ')} |`;
  return [
    '## GraphQL validation: fragment fan-out',
    '',
    `${summary(report)}.`,
    '',
    row(HEADERS),
    row(HEADERS.map((_, i) => (i < 2 ? '---' : '---:'))),
    ...rows(report).map(row),
    '',
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  measureGraphqlValidation().then(
    (report) => console.log(validationConsoleTable(report)),
    (error: unknown) => {
      console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
