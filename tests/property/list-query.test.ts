import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors/domain-error.js';
import { c, columnOf, defineModel, ModelRegistry } from '../../src/domain/model/index.js';
import type { ModelDef } from '../../src/domain/model/index.js';
import type { Condition } from '../../src/domain/query/condition.js';
import { parseListQuery, parseTextValue } from '../../src/domain/rest/list-query.js';
import type { ListQueryContext } from '../../src/domain/rest/list-query.js';

/**
 * Invariants of the list-query parser (DESIGN §3 "filtering"): whatever the caller sends, the
 * parser either answers a query that only mentions columns the caller may see, or refuses with
 * `invalid_query` naming one of the parameters the caller sent, and nothing else.
 */
const registry = ModelRegistry.build([
  defineModel('author', {
    id: c.id(),
    name: c.text(),
    email: c.string(),
    secret_note: c.text().hidden(),
    password_hash: c.text(),
  }),
  defineModel('post', {
    id: c.id(),
    title: c.text(),
    author_id: c.fk('author'),
    reviewer_id: c.fk('author').nullable().hidden(),
    published: c.bool(),
    score: c.int(),
    created_at: c.timestamp(),
    meta: c.json().nullable(),
  }),
]);
const visible = (table: string, column: string): boolean => !(table === 'author' && column === 'email');
const HIDDEN = new Set(['email', 'secret_note', 'password_hash', 'reviewer_id']);
const contexts: ListQueryContext[] = ['author', 'post'].map((t) => ({ registry, model: registry.require(t), visible }));

const columnNames = ['id', 'name', 'email', 'secret_note', 'password_hash', 'title', 'author_id', 'reviewer_id', 'published', 'score', 'created_at', 'meta'];
const lookups = ['ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'icontains', 'iexact', 'startswith', 'isnull', 'regex', ''];
const reserved = ['limit', 'offset', 'ordering', 'search', 'include', 'fields'];

const paramName = fc.oneof(
  fc.constantFrom(...columnNames),
  fc.constantFrom(...reserved),
  fc.tuple(fc.constantFrom(...columnNames), fc.constantFrom(...lookups)).map(([col, lookup]) => `${col}__${lookup}`),
  fc.string({ maxLength: 12 }),
);
const listOf = (names: string[]) =>
  fc.array(fc.tuple(fc.boolean(), fc.constantFrom(...names)), { minLength: 1, maxLength: 3 }).map((xs) => xs.map(([neg, n]) => (neg ? `-${n}` : n)).join(','));
const paramValue = fc.oneof(
  fc.constantFrom('', '0', '1', '-1', '7', '1.5', 'true', 'false', 'abc', '2024-01-01', '2024-01-01T00:00:00Z', '1,2', ',', '5000', '99999999999999999999'),
  fc.constantFrom('author', 'author.author', 'nope', 'id,title', 'name,email'),
  listOf(columnNames),
  fc.string({ maxLength: 10 }),
);
/** Mostly well-typed filters (some on hidden columns), so that many inputs are answered. */
const plausiblePair = fc.constantFrom<[string, string]>(
  ['id__ne', '0'],
  ['id__in', '1,2'],
  ['name', ''],
  ['name__icontains', 'an'],
  ['title', 'abc'],
  ['title__startswith', 'a'],
  ['author_id', '1'],
  ['published', 'true'],
  ['score__gt', '-1'],
  ['score__in', ''],
  ['created_at__lte', '2024-01-01T00:00:00Z'],
  ['meta__isnull', 'true'],
  ['email', 'a@b.c'],
  ['secret_note__isnull', '1'],
  ['password_hash__startswith', '$'],
  ['reviewer_id', '1'],
);
const anyPair = fc.tuple(paramName, fc.oneof({ weight: 8, arbitrary: paramValue }, { weight: 1, arbitrary: fc.array(paramValue, { minLength: 2, maxLength: 2 }) }));
const params = fc
  .array(fc.oneof(plausiblePair, anyPair), { maxLength: 4 })
  .map((pairs): Record<string, string | string[]> => Object.fromEntries(pairs));

function columnsOf(cond: Condition | undefined, out: string[] = []): string[] {
  if (!cond) return out;
  if ('all' in cond) cond.all.forEach((x) => columnsOf(x, out));
  else if ('any' in cond) cond.any.forEach((x) => columnsOf(x, out));
  else if ('not' in cond) columnsOf(cond.not, out);
  else out.push(cond.column);
  return out;
}

function seeable(model: ModelDef, name: string): boolean {
  const col = columnOf(model, name);
  return col !== undefined && !HIDDEN.has(name) && visible(model.table, name);
}

describe('parseListQuery never leaks and never fails unexpectedly', () => {
  it('answers a query over visible columns or refuses with invalid_query naming a given parameter', () => {
    const seen = { answered: 0, filtered: 0, refused: 0 };
    fc.assert(
      fc.property(params, fc.constantFrom(...contexts), (p, ctx) => {
        let query;
        try {
          query = parseListQuery(p, ctx);
        } catch (e) {
          expect(e).toBeInstanceOf(DomainError);
          const err = e as DomainError;
          expect(err.code).toBe('invalid_query');
          expect(err.errors).toEqual([]);
          const shapes = Object.keys(p).map((k) => `invalid query parameter "${k}"`);
          expect(shapes.some((s) => err.message === s || err.message.startsWith(`${s}: `))).toBe(true);
          seen.refused++;
          return;
        }
        const mentioned = [...columnsOf(query.where), ...query.orderBy.map((t) => t.column), ...(query.fields ?? [])];
        for (const name of mentioned) expect(seeable(ctx.model, name)).toBe(true);
        expect(query.limit).toBeGreaterThanOrEqual(0);
        expect(query.limit).toBeLessThanOrEqual(1000);
        expect(Number.isSafeInteger(query.offset) && query.offset >= 0).toBe(true);
        expect(query.orderBy.some((t) => t.column === ctx.model.primaryKey)).toBe(true);
        for (const path of query.include) expect(path.length).toBeGreaterThanOrEqual(1);
        for (const path of query.include) expect(path.length).toBeLessThanOrEqual(3);
        seen.answered++;
        if (query.where) seen.filtered++;
      }),
      { numRuns: 2000 },
    );
    // The generators must reach both outcomes, or the property proves little.
    expect(seen.answered).toBeGreaterThan(300);
    expect(seen.filtered).toBeGreaterThan(75);
    expect(seen.refused).toBeGreaterThan(300);
  });

  it('keeps every filter it is given: one predicate per filter parameter', () => {
    const ctx = contexts[1] as ListQueryContext;
    fc.assert(
      fc.property(params, (p) => {
        let query;
        try {
          query = parseListQuery(p, ctx);
        } catch {
          return;
        }
        const filters = Object.entries(p).filter(([k, v]) => v !== undefined && !reserved.includes(k));
        const where = query.where;
        const top = where === undefined ? [] : 'all' in where ? where.all : [where];
        const searchGroups = p['search'] ? 1 : 0;
        expect(top.length).toBe(filters.length + searchGroups);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseTextValue round-trips', () => {
  const model = registry.require('post');
  const score = columnOf(model, 'score');
  const title = columnOf(model, 'title');

  it('reads back any 32-bit integer written as text, and refuses the rest', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        if (!score) throw new Error('score');
        const inRange = n >= -2147483648 && n <= 2147483647;
        expect(parseTextValue(score, String(n))).toBe(inRange ? (n === 0 ? 0 : n) : undefined);
      }),
    );
  });

  it('keeps any text as is', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        if (!title) throw new Error('title');
        expect(parseTextValue(title, s)).toBe(s);
      }),
    );
  });
});
