import fc from 'fast-check';
import { execute, getNamedType, isNonNullType, isObjectType, parse, validate, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { executeCompiled } from '../../src/adapters/graphql/compiled-execution.js';
import { ANONYMOUS, type Identity } from '../../src/domain/auth/identity.js';
import type { RecordStore } from '../../src/ports/record-store.js';
import { expectAnswerOfGraphqlJs, names, request, schema, seededStore, STAFF } from '../support/graphql-fixture.js';

/**
 * Generated queries over the whole schema (every field in any order, aliases, arguments in and
 * out of range as literals or as variables with valid and invalid values, unknown ids, nesting
 * three deep, connections, `__typename`), executed the way a
 * request is (`executeCompiled`: graphql-jit) against graphql-js's
 * reference `execute`: without errors the same answer as text (keys in the selection's order) and
 * the same reads of the store; with errors the same data and graphql-js's errors among ours.
 */
const ALIASES = ['a', 'b', 'z'] as const;
const IDS = ['1', '2', '3', '4', '99'] as const;

interface Field {
  readonly key: string;
  readonly text: string;
}

/** An argument's value: ids among the rows and past them; whole numbers below, inside and past the page bounds. */
function argumentValue(typeName: string, argName: string): fc.Arbitrary<string> | undefined {
  if (typeName === 'ID') return fc.constantFrom(...IDS).map((id) => JSON.stringify(id));
  if (typeName === 'Int') return fc.constantFrom(-1, 0, 1, 2, 3, 50, 201).map(String);
  if (typeName === 'Boolean') return fc.boolean().map(String);
  if (typeName === 'String' && argName === 'orderBy') return fc.constantFrom('id', 'title', 'name', 'nope').map((v) => JSON.stringify(v));
  return undefined;
}

function argumentsOf(field: GraphQLField<unknown, unknown>): fc.Arbitrary<string> {
  const parts = field.args.flatMap((arg) => {
    const value = argumentValue(getNamedType(arg.type).name, arg.name);
    if (!value) return [];
    const text = value.map((v) => `${arg.name}: ${v}`);
    return [isNonNullType(arg.type) ? text.map((t): string | null => t) : fc.option(text, { nil: null })];
  });
  if (parts.length === 0) return fc.constant('');
  return fc.tuple(...parts).map((values) => {
    const given = values.filter((v): v is string => v !== null);
    return given.length > 0 ? `(${given.join(', ')})` : '';
  });
}

const selections = new Map<string, fc.Arbitrary<string>>();

/** A selection of `type`'s fields, each response key once; object fields only while `depth` allows. */
function selectionOf(type: GraphQLObjectType, depth: number): fc.Arbitrary<string> {
  const memo = `${type.name}/${depth}`;
  const known = selections.get(memo);
  if (known) return known;
  const fields: fc.Arbitrary<Field>[] = [fc.constant({ key: '__typename', text: '__typename' })];
  for (const field of Object.values(type.getFields())) {
    const named = getNamedType(field.type);
    if (isObjectType(named) && depth === 0) continue;
    if (field.args.some((arg) => isNonNullType(arg.type) && !argumentValue(getNamedType(arg.type).name, arg.name))) continue;
    const sub = isObjectType(named) ? selectionOf(named, depth - 1) : fc.constant('');
    fields.push(
      fc.tuple(fc.option(fc.constantFrom(...ALIASES), { nil: undefined }), argumentsOf(field), sub).map(([alias, args, set]) => ({
        key: alias ?? field.name,
        text: `${alias ? `${alias}: ` : ''}${field.name}${args}${set ? ` ${set}` : ''}`,
      })),
    );
  }
  const arbitrary = fc
    .uniqueArray(fc.oneof(...fields), { minLength: 1, maxLength: 4, selector: (f) => f.key })
    .map((picked) => `{ ${picked.map((f) => f.text).join(' ')} }`);
  selections.set(memo, arbitrary);
  return arbitrary;
}

const query = schema.getQueryType();
if (!query) throw new Error('the schema has no Query type');
const documents = selectionOf(query, 3);

/** Variable values, valid and not, for the argument types generated above. */
const INT_VALUES = [-1, 0, 2, 201, 2_147_483_648, 1.5, 'many', null] as const;
const ID_VALUES = ['1', '99', 4, null, true] as const;

/**
 * A generated document with some of its `limit`, `offset`, `first` and `id` arguments turned into
 * variables (declared with the argument's type), and the values sent for them.
 */
const withVariables = fc
  .tuple(documents, fc.array(fc.record({ use: fc.boolean(), int: fc.constantFrom(...INT_VALUES), id: fc.constantFrom(...ID_VALUES) }), { minLength: 1, maxLength: 8 }))
  .map(([source, choices]) => {
    const definitions: string[] = [];
    const variables: Record<string, unknown> = {};
    let k = 0;
    const text = source.replace(/\b(limit|offset|first|id): (-?\d+|"[^"]*")/g, (whole, name: string) => {
      const choice = choices[k % choices.length] as (typeof choices)[number];
      if (!choice.use) return whole;
      const variable = `v${k++}`;
      definitions.push(`$${variable}: ${name === 'id' ? 'ID!' : 'Int'}`);
      variables[variable] = name === 'id' ? choice.id : choice.int;
      return `${name}: $${variable}`;
    });
    return { source: definitions.length > 0 ? `query(${definitions.join(', ')}) ${text}` : text, variables };
  });

let store: RecordStore;

beforeAll(async () => {
  store = await seededStore();
});

describe('GraphQL execution (graphql-jit) against graphql-js, on generated queries', () => {
  for (const [who, identity] of [['anonymous', ANONYMOUS], ['staff', STAFF]] as [string, Identity][]) {
    it(`answers as graphql-js does for ${who}, keys in order, variables valid or not`, async () => {
      await fc.assert(
        fc.asyncProperty(withVariables, async ({ source, variables }) => {
          fc.pre(validate(schema, parse(source)).length === 0);
          const ours = request(store, source, identity, variables);
          const theirs = request(store, source, identity, variables);
          const reference = await execute(theirs.args);
          const answer = await executeCompiled(ours.args);
          // The same reads without errors (a failing field may stop a sibling's read).
          if (!reference.errors) expect(names(ours.reads)).toEqual(names(theirs.reads));
          expectAnswerOfGraphqlJs(answer, reference);
        }),
        { numRuns: 300 },
      );
      // graphql-jit compiles each generated document (a few ms each): seconds on a busy machine.
    }, 60_000);
  }
});
