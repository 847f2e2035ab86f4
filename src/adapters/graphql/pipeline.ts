import { createRequire } from 'node:module';
import type * as MaxAliases from '@escape.tech/graphql-armor-max-aliases';
import type * as MaxDirectives from '@escape.tech/graphql-armor-max-directives';
import type { DocumentNode, ExecutionArgs, GraphQLSchema, ValidationContext, ValidationRule } from 'graphql';
import type { GraphqlContext } from './build-schema.js';
import { measureDocument, type DocumentLimits } from './document-limits.js';
import { formatGraphqlError } from './error-mapping.js';
import { GraphQLError, graphqlJs } from './graphql-js.js';

const require = createRequire(import.meta.url);

/** Every limit a GraphQL document meets before it runs (DESIGN §3 "GraphQL pipeline"). */
export interface GraphqlLimits extends DocumentLimits {
  /** Longest document, in characters (checked before parsing). */
  readonly maxCharacters: number;
  /** Most lexical tokens (graphql-js's own `maxTokens`: parsing stops there). */
  readonly maxTokens: number;
  /** Most aliases per operation (GraphQL Armor). */
  readonly maxAliases: number;
  /** Most directives per operation (GraphQL Armor). */
  readonly maxDirectives: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphqlLimits = {
  maxCharacters: 100_000,
  maxTokens: 5_000,
  maxDepth: 12,
  maxCost: 50_000,
  maxAliases: 50,
  maxDirectives: 50,
  defaultPage: 50,
  maxPage: 200,
};

/** What a transport hands the pipeline: GraphQL-over-HTTP request members. */
export interface GraphqlParams {
  readonly query?: unknown;
  readonly variables?: Readonly<Record<string, unknown>> | null;
  readonly operationName?: string | null;
}

export interface PipelineOptions {
  readonly schema: GraphQLSchema;
  readonly limits: GraphqlLimits;
  /** Introspection allowed (DESIGN §3: on in development, off by default in production). */
  readonly introspection: boolean;
}

/** A document text's parse and validation outcome; `fixedLimits` once measured, for a document without variables. */
interface Checked {
  readonly document?: DocumentNode;
  readonly errors: readonly GraphQLError[];
  readonly variableFree: boolean;
  fixedLimits?: readonly GraphQLError[];
}

function declaresNoVariables(document: DocumentNode): boolean {
  return document.definitions.every((d) => d.kind !== graphqlJs().Kind.OPERATION_DEFINITION || (d.variableDefinitions?.length ?? 0) === 0);
}

/**
 * The one GraphQL pipeline behind `POST /graphql`, `/graphql/sse` and `/graphql/ws`: bounded
 * parsing, validation with graphql-js's rules plus the limits and the introspection policy, and
 * one error shape. Transports call `prepare` and execute what it returns; none validates on its own.
 */
export class GraphqlPipeline {
  /** graphql-js's rules, the armor and the introspection policy; made with the first document (they load graphql-js whole). */
  private fixedRules?: readonly ValidationRule[];
  /**
   * Parsed and validated documents by text: clients send the same few documents again and again.
   * Depth and cost are priced per request when the document declares variables, once when it declares none.
   */
  private readonly checked = new Map<string, Checked>();

  constructor(private readonly options: PipelineOptions) {}

  private rules(): readonly ValidationRule[] {
    if (this.fixedRules) return this.fixedRules;
    const armor = (context: ValidationContext, error: GraphQLError | null) => {
      // Armor prefixes its messages with "Syntax Error:"; they are limits, not syntax.
      if (error) context.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, '')));
    };
    const { limits, introspection } = this.options;
    const { specifiedRules, NoSchemaIntrospectionCustomRule } = graphqlJs();
    const { maxAliasesRule } = require('@escape.tech/graphql-armor-max-aliases') as typeof MaxAliases;
    const { maxDirectivesRule } = require('@escape.tech/graphql-armor-max-directives') as typeof MaxDirectives;
    return (this.fixedRules = [
      ...specifiedRules,
      maxAliasesRule({ n: limits.maxAliases, propagateOnRejection: false, onReject: [armor as never] }),
      maxDirectivesRule({ n: limits.maxDirectives, propagateOnRejection: false, onReject: [armor as never] }),
      ...(introspection ? [] : [NoSchemaIntrospectionCustomRule]),
    ]);
  }

  get schema(): GraphQLSchema {
    return this.options.schema;
  }

  /** Parses and validates one request; returns what to execute, or the errors to answer with (formatted). */
  prepare(params: GraphqlParams, contextValue: GraphqlContext): ExecutionArgs | readonly GraphQLError[] {
    const checked = this.check(params.query);
    const { document, errors } = checked;
    if (!document || errors.length > 0) return errors;
    // A document that declares no variables costs the same whatever the request sends: measured once.
    const limits = checked.fixedLimits ?? this.measure(document, params.variables ?? null);
    if (checked.variableFree && !checked.fixedLimits) checked.fixedLimits = limits;
    if (limits.length > 0) return limits;
    return {
      schema: this.options.schema,
      document,
      contextValue,
      variableValues: params.variables ?? null,
      operationName: params.operationName ?? null,
    };
  }

  private parse(query: unknown): DocumentNode | GraphQLError {
    const { maxCharacters, maxTokens } = this.options.limits;
    if (typeof query !== 'string' || query.trim() === '') return new GraphQLError('the request has no query document');
    if (query.length > maxCharacters) return new GraphQLError(`the document is ${query.length} characters long; the limit is ${maxCharacters}`);
    const { parse } = graphqlJs();
    try {
      return parse(query, { maxTokens, noLocation: false });
    } catch (error) {
      return cleanError(error);
    }
  }

  /** Parses and validates a document text once; later requests with the same text reuse the outcome. */
  private check(query: unknown): Checked {
    const known = typeof query === 'string' ? this.checked.get(query) : undefined;
    if (known) return known;
    const parsed = this.parse(query);
    const outcome: Checked = !('kind' in parsed)
      ? { errors: [parsed], variableFree: false }
      : { document: parsed, errors: this.validate(parsed).map((e) => formatGraphqlError(e)), variableFree: declaresNoVariables(parsed) };
    if (typeof query === 'string' && query.length <= CACHED_LENGTH) {
      if (this.checked.size >= CACHED_DOCUMENTS) this.checked.delete(this.checked.keys().next().value as string);
      this.checked.set(query, outcome);
    }
    return outcome;
  }

  private validate(document: DocumentNode): readonly GraphQLError[] {
    const { validate } = graphqlJs();
    const rules = this.rules();
    try {
      return validate(this.options.schema, document, rules);
    } catch (error) {
      return [cleanError(error)];
    }
  }

  private measure(document: DocumentNode, variables: Readonly<Record<string, unknown>> | null): readonly GraphQLError[] {
    try {
      return measureDocument(this.options.schema, document, this.options.limits, variables);
    } catch (error) {
      return [cleanError(error)];
    }
  }
}

/** Documents kept parsed and validated (the oldest go first), and the longest text kept. */
const CACHED_DOCUMENTS = 500;
const CACHED_LENGTH = 20_000;

/** A parse or validation failure as a clean GraphQL error: never an internal message. */
function cleanError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof RangeError) return new GraphQLError('the document is nested too deeply to analyse');
  return new GraphQLError('the document could not be analysed');
}
