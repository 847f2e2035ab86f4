import type {
  ASTVisitor,
  GraphQLField,
  GraphQLNamedType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
  ValidationContext,
  ValidationRule,
  FieldNode,
  DocumentNode,
  FragmentDefinitionNode,
} from 'graphql';
import { GraphQLError, graphqlJs } from './graphql-js.js';

/** The limits of one document (DESIGN §3 "GraphQL pipeline"). */
export interface DocumentLimits {
  /** Deepest field nesting; meta fields (`__schema`, `__type`, `__typename`) and what they select do not count. */
  readonly maxDepth: number;
  /** Each field costs 1, times the page size of every list above it. */
  readonly maxCost: number;
  /** The page size of a list whose `limit`/`first` is absent (and has no default) or null. */
  readonly defaultPage: number;
  /** The largest page a list serves (larger requests are clamped, and priced as clamped). */
  readonly maxPage: number;
}

interface Measure {
  readonly depth: number;
  readonly cost: number;
}

const NOTHING: Measure = { depth: 0, cost: 0 };
const PAGE_ARGS = ['limit', 'first'];

/**
 * Depth and cost in one pass, linear in the document: every fragment is measured once and its
 * measure reused at each spread (a fan-out of fragments costs what it would run, computed in
 * time proportional to its text). Page sizes come from literals, variables and argument defaults,
 * coerced as execution will coerce them. Kept in Portico rather than taken from GraphQL Armor or
 * graphql-query-complexity: neither prices `limit` arguments given as variables or defaults, and
 * graphql-query-complexity walks a fragment again at every spread (docs/decisions.md).
 */
export function depthAndCostRule(limits: DocumentLimits, variables: Readonly<Record<string, unknown>> | null | undefined): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    Document(document) {
      for (const error of measureDocument(context.getSchema(), document, limits, variables)) context.reportError(error);
    },
  });
}

/**
 * The depth and cost errors of every operation of a parsed (and otherwise valid) document, without
 * a validation pass: the pipeline runs this per request with its variables, while the rest of
 * validation is cached by document text.
 */
export function measureDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  limits: DocumentLimits,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): GraphQLError[] {
  const { Kind } = graphqlJs();
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const errors: GraphQLError[] = [];
  for (const operation of document.definitions) {
    if (operation.kind !== Kind.OPERATION_DEFINITION) continue;
    const root = rootType(schema, operation);
    if (!root) continue;
    const { depth, cost } = new OperationMeasure(schema, fragments, limits, coercedVariables(schema, operation, variables)).selectionSet(operation.selectionSet, root);
    if (depth > limits.maxDepth) {
      errors.push(new GraphQLError(`the query is nested ${depth} levels deep; the depth limit is ${limits.maxDepth}`, { nodes: [operation] }));
    }
    if (!(cost <= limits.maxCost)) {
      const shown = cost >= Number.MAX_SAFE_INTEGER ? `more than ${Number.MAX_SAFE_INTEGER}` : String(cost);
      errors.push(new GraphQLError(`the query costs ${shown} (each field 1, times the page size of the lists above it); the cost limit is ${limits.maxCost}`, { nodes: [operation] }));
    }
  }
  return errors;
}

class OperationMeasure {
  private readonly fragments = new Map<string, Measure | 'measuring'>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragmentDefs: ReadonlyMap<string, FragmentDefinitionNode>,
    private readonly limits: DocumentLimits,
    private readonly variables: Record<string, unknown>,
  ) {}

  selectionSet(set: SelectionSetNode, type: GraphQLNamedType): Measure {
    const { Kind } = graphqlJs();
    let depth = 0;
    let cost = 0;
    for (const sel of set.selections) {
      const m =
        sel.kind === Kind.FIELD
          ? this.field(sel, type)
          : sel.kind === Kind.INLINE_FRAGMENT
            ? this.selectionSet(sel.selectionSet, (sel.typeCondition && this.schema.getType(sel.typeCondition.name.value)) || type)
            : this.fragment(sel.name.value);
      depth = Math.max(depth, m.depth);
      cost = saturate(cost + m.cost);
    }
    return { depth, cost };
  }

  private field(node: FieldNode, parent: GraphQLNamedType): Measure {
    if (node.name.value.startsWith('__')) return NOTHING;
    const { getNamedType, isInterfaceType, isObjectType } = graphqlJs();
    const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[node.name.value] : undefined;
    if (!def) return { depth: 1, cost: 1 }; // unknown: FieldsOnCorrectTypeRule reports it
    const child = node.selectionSet ? this.selectionSet(node.selectionSet, getNamedType(def.type)) : NOTHING;
    const page = this.pageSize(def, node);
    // Saturated, so a huge fan-out never becomes Infinity (and 0 × Infinity never NaN, which would pass any limit).
    return { depth: 1 + child.depth, cost: saturate(1 + (page === 0 ? 0 : page * child.cost)) };
  }

  private fragment(name: string): Measure {
    const known = this.fragments.get(name);
    if (known === 'measuring') return NOTHING; // a cycle: NoFragmentCyclesRule reports it
    if (known) return known;
    const fragment = this.fragmentDefs.get(name);
    const type = fragment && this.schema.getType(fragment.typeCondition.name.value);
    if (!fragment || !type) return NOTHING;
    this.fragments.set(name, 'measuring');
    const m = this.selectionSet(fragment.selectionSet, type);
    this.fragments.set(name, m);
    return m;
  }

  /** The rows a list field will fetch, as its resolver will clamp them; 1 for a field without a page argument. */
  private pageSize(def: GraphQLField<unknown, unknown>, node: FieldNode): number {
    const arg = def.args.find((a) => PAGE_ARGS.includes(a.name));
    if (!arg) return 1;
    let value: unknown;
    try {
      value = graphqlJs().getArgumentValues(def, node, this.variables)[arg.name];
    } catch {
      value = undefined; // invalid arguments fail validation or execution on their own
    }
    const n = typeof value === 'number' ? value : this.limits.defaultPage;
    return Math.min(Math.max(n, 0), this.limits.maxPage);
  }
}

function coercedVariables(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Readonly<Record<string, unknown>> | null | undefined): Record<string, unknown> {
  const result = graphqlJs().getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  // Invalid variables fail execution with their own message; price the defaults meanwhile.
  return result.coerced ?? {};
}

function rootType(schema: GraphQLSchema, operation: OperationDefinitionNode): GraphQLNamedType | null | undefined {
  return operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
}

const saturate = (n: number): number => Math.min(n, Number.MAX_SAFE_INTEGER);
