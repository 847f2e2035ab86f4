import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors/domain-error.js';
import { c, defineModel, ModelRegistry } from '../../../src/domain/model/index.js';
import type { ColumnDef } from '../../../src/domain/model/index.js';
import { parseListQuery, parseTextValue } from '../../../src/domain/rest/list-query.js';
import type { ListQueryContext } from '../../../src/domain/rest/list-query.js';

const registry = ModelRegistry.build([
  defineModel('team', { id: c.id(), name: c.text() }),
  defineModel('author', {
    id: c.id(),
    name: c.text(),
    email: c.string(),
    secret_note: c.text().hidden(),
    password_hash: c.text(),
    team_id: c.fk('team').nullable(),
  }),
  defineModel('tag', { id: c.stringId(), label: c.text() }),
  defineModel(
    'post',
    {
      id: c.id(),
      title: c.text(),
      author_id: c.fk('author'),
      reviewer_id: c.fk('author').nullable().hidden(),
      published: c.bool(),
      score: c.int(),
      created_at: c.timestamp(),
      meta: c.json().nullable(),
    },
    { manyToMany: { tags: { target: 'tag', through: 'post_tags' }, secret_tags: { target: 'tag', through: 'post_secret_tags' } } },
  ),
  defineModel('comment', { id: c.id(), body: c.text(), post_id: c.fk('post') }),
  defineModel('reply', { id: c.id(), comment_id: c.fk('comment') }),
  defineModel('metric', { id: c.id(), value: c.int() }),
  defineModel('every', {
    id: c.id(),
    i: c.int(),
    b: c.bigint(),
    f: c.float(),
    d: c.decimal(),
    s: c.text(),
    v: c.string(),
    ok: c.bool(),
    day: c.date(),
    at: c.timestamp(),
    j: c.json(),
    u: c.uuid(),
  }),
]);

/** Hides `author.email` and the relation `post.secret_tags` through the resource policy, like a `hide` config would. */
const visible = (table: string, column: string): boolean => !(table === 'author' && column === 'email') && !(table === 'post' && column === 'secret_tags');
const ctxOf = (table: string): ListQueryContext => ({ registry, model: registry.require(table), visible });
const post = ctxOf('post');
const author = ctxOf('author');

const col = (name: string): ColumnDef => {
  const found = registry.require('every').columns.find((x) => x.name === name);
  if (!found) throw new Error(name);
  return found;
};

function refusal(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
}

function expectInvalid(fn: () => unknown, param: string): void {
  const e = refusal(fn);
  expect(e.code).toBe('invalid_query');
  // The parameter is named first; a reason may follow (the value and the rule), never a hint of hidden columns.
  expect(e.message === `invalid query parameter "${param}"` || e.message.startsWith(`invalid query parameter "${param}": `)).toBe(true);
  expect(e.errors).toEqual([]);
}

describe('parseListQuery defaults', () => {
  it('answers the first page in primary-key order with nothing filtered', () => {
    const q = parseListQuery({}, post);
    expect(q).toEqual({ orderBy: [{ column: 'id', direction: 'asc' }], limit: 100, offset: 0, include: [] });
    expect('where' in q).toBe(false);
    expect('fields' in q).toBe(false);
  });

  it('skips parameters whose value is undefined', () => {
    expect(parseListQuery({ title: undefined, limit: undefined }, post)).toEqual(parseListQuery({}, post));
  });
});

describe('limit and offset', () => {
  it.each([
    ['5', 5],
    ['0', 0],
    ['1000', 1000],
    ['1001', 1000],
    ['99999999999999999999999999', 1000],
  ])('limit=%s → %d (clamped at 1000)', (text, expected) => {
    expect(parseListQuery({ limit: text }, post).limit).toBe(expected);
  });

  it.each(['-1', '1.5', 'abc', '', '+5', ' 5', '1e3'])('refuses limit=%j', (text) => {
    expectInvalid(() => parseListQuery({ limit: text }, post), 'limit');
  });

  it('takes a non-negative integer offset', () => {
    expect(parseListQuery({ offset: '20' }, post).offset).toBe(20);
    expect(parseListQuery({ offset: '0' }, post).offset).toBe(0);
  });

  it.each(['-1', '2.5', '', 'x', '99999999999999999999'])('refuses offset=%j', (text) => {
    expectInvalid(() => parseListQuery({ offset: text }, post), 'offset');
  });
});

describe('filters', () => {
  it('reads col=v as equality, coerced to the column type', () => {
    expect(parseListQuery({ score: '7' }, post).where).toEqual({ column: 'score', op: 'eq', value: 7 });
    expect(parseListQuery({ published: 'true' }, post).where).toEqual({ column: 'published', op: 'eq', value: true });
    expect(parseListQuery({ author_id: '3' }, post).where).toEqual({ column: 'author_id', op: 'eq', value: 3 });
  });

  it('ANDs several filters in parameter order', () => {
    expect(parseListQuery({ published: '0', score__gte: '10', title__icontains: 'ts' }, post).where).toEqual({
      all: [
        { column: 'published', op: 'eq', value: false },
        { column: 'score', op: 'gte', value: 10 },
        { column: 'title', op: 'icontains', value: 'ts' },
      ],
    });
  });

  it.each(['ne', 'gt', 'gte', 'lt', 'lte'] as const)('reads the comparison lookup %s', (op) => {
    expect(parseListQuery({ [`score__${op}`]: '-4' }, post).where).toEqual({ column: 'score', op, value: -4 });
  });

  it('coerces a timestamp filter to a Date', () => {
    expect(parseListQuery({ created_at__lt: '2026-01-02T03:04:05Z' }, post).where).toEqual({
      column: 'created_at',
      op: 'lt',
      value: new Date('2026-01-02T03:04:05Z'),
    });
  });

  it.each(['contains', 'icontains', 'iexact', 'startswith'] as const)('reads the text lookup %s on text columns', (op) => {
    expect(parseListQuery({ [`title__${op}`]: 'Ab' }, post).where).toEqual({ column: 'title', op, value: 'Ab' });
  });

  it.each(['contains', 'icontains', 'iexact', 'startswith'])('refuses the text lookup %s on a non-text column', (op) => {
    expectInvalid(() => parseListQuery({ [`score__${op}`]: '1' }, post), `score__${op}`);
  });

  it('splits `in` on commas and coerces each item', () => {
    expect(parseListQuery({ score__in: '1,2,3' }, post).where).toEqual({ column: 'score', op: 'in', value: [1, 2, 3] });
    expect(parseListQuery({ title__in: 'a,b' }, post).where).toEqual({ column: 'title', op: 'in', value: ['a', 'b'] });
  });

  it('accepts an empty `in` list, which matches nothing', () => {
    expect(parseListQuery({ score__in: '' }, post).where).toEqual({ column: 'score', op: 'in', value: [] });
    expect(parseListQuery({ title__in: '' }, post).where).toEqual({ column: 'title', op: 'in', value: [] });
  });

  it('refuses an `in` list with one uncoercible item', () => {
    expectInvalid(() => parseListQuery({ score__in: '1,x,3' }, post), 'score__in');
    expectInvalid(() => parseListQuery({ score__in: '1,,3' }, post), 'score__in');
  });

  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('reads isnull=%s', (text, flag) => {
    expect(parseListQuery({ meta__isnull: text }, post).where).toEqual({ column: 'meta', op: 'isnull', value: flag });
  });

  it.each(['yes', '', 'TRUE', '2'])('refuses isnull=%j', (text) => {
    expectInvalid(() => parseListQuery({ score__isnull: text }, post), 'score__isnull');
  });

  it('never filters a json column except by isnull', () => {
    expectInvalid(() => parseListQuery({ meta: '{}' }, post), 'meta');
    expectInvalid(() => parseListQuery({ meta__in: '' }, post), 'meta__in');
    expectInvalid(() => parseListQuery({ meta__contains: 'a' }, post), 'meta__contains');
  });

  it('reads an empty value as the empty string on text columns only', () => {
    expect(parseListQuery({ title: '' }, post).where).toEqual({ column: 'title', op: 'eq', value: '' });
    expectInvalid(() => parseListQuery({ score: '' }, post), 'score');
    expectInvalid(() => parseListQuery({ published: '' }, post), 'published');
    expectInvalid(() => parseListQuery({ created_at: '' }, post), 'created_at');
  });

  it('refuses an unknown column, an unknown lookup and a relation path', () => {
    expectInvalid(() => parseListQuery({ nope: '1' }, post), 'nope');
    expectInvalid(() => parseListQuery({ score__between: '1' }, post), 'score__between');
    expectInvalid(() => parseListQuery({ score__: '1' }, post), 'score__');
    expectInvalid(() => parseListQuery({ __gt: '1' }, post), '__gt');
    expectInvalid(() => parseListQuery({ author__name: 'x' }, post), 'author__name');
    expectInvalid(() => parseListQuery({ score__gt__lt: '1' }, post), 'score__gt__lt');
  });

  it('refuses columns the caller cannot see, whatever the lookup', () => {
    expectInvalid(() => parseListQuery({ email: 'a@b.c' }, author), 'email');
    expectInvalid(() => parseListQuery({ email__isnull: 'true' }, author), 'email__isnull');
    expectInvalid(() => parseListQuery({ secret_note__icontains: 'x' }, author), 'secret_note__icontains');
    expectInvalid(() => parseListQuery({ reviewer_id: '1' }, post), 'reviewer_id');
  });

  it('refuses password_hash even when the visibility function lets it through', () => {
    expectInvalid(() => parseListQuery({ password_hash__startswith: '$argon2' }, author), 'password_hash__startswith');
  });

  it('refuses a repeated parameter', () => {
    expectInvalid(() => parseListQuery({ score: ['1', '2'] }, post), 'score');
    expectInvalid(() => parseListQuery({ limit: ['1', '2'] }, post), 'limit');
    expectInvalid(() => parseListQuery({ search: ['a', 'b'] }, post), 'search');
  });
});

describe('the same answer for unknown, hidden and uncoercible', () => {
  it('names only the parameter, in one message shape', () => {
    const cases: [ListQueryContext, string, string][] = [
      [author, 'nope', 'x'], // unknown column
      [author, 'email', 'x'], // hidden by the resource policy
      [author, 'secret_note', 'x'], // hidden by the model
      [author, 'password_hash', 'x'], // never visible
      [author, 'name__regex', 'x'], // unknown lookup
      [post, 'score', 'x'], // uncoercible
      [post, 'meta', 'x'], // not filterable
    ];
    const shapes = cases.map(([ctx, param, value]) => {
      const e = refusal(() => parseListQuery({ [param]: value }, ctx));
      return { name: e.name, code: e.code, errors: e.errors, message: e.message.replace(param, '<p>') };
    });
    for (const shape of shapes) {
      expect(shape).toEqual({ name: 'DomainError', code: 'invalid_query', errors: [], message: 'invalid query parameter "<p>"' });
    }
  });
});

describe('search', () => {
  it('ORs icontains over every visible text column', () => {
    expect(parseListQuery({ search: 'ann' }, author).where).toEqual({
      any: [{ column: 'name', op: 'icontains', value: 'ann' }],
    });
  });

  it('skips json and non-text columns, and ANDs with the filters', () => {
    expect(parseListQuery({ published: 'true', search: 'ts' }, post).where).toEqual({
      all: [{ column: 'published', op: 'eq', value: true }, { any: [{ column: 'title', op: 'icontains', value: 'ts' }] }],
    });
  });

  it('covers every visible text and string column', () => {
    const every = ctxOf('every');
    expect(parseListQuery({ search: 'q' }, every).where).toEqual({
      any: [
        { column: 's', op: 'icontains', value: 'q' },
        { column: 'v', op: 'icontains', value: 'q' },
      ],
    });
  });

  it('ignores an empty search and a model without text columns', () => {
    expect(parseListQuery({ search: '' }, author).where).toBeUndefined();
    expect(parseListQuery({ search: 'x' }, ctxOf('metric')).where).toBeUndefined();
  });
});

describe('ordering', () => {
  it('reads -a,b and ends with the primary key', () => {
    expect(parseListQuery({ ordering: '-score,title' }, post).orderBy).toEqual([
      { column: 'score', direction: 'desc' },
      { column: 'title', direction: 'asc' },
      { column: 'id', direction: 'asc' },
    ]);
  });

  it('adds no tie-breaker when the primary key is already named', () => {
    expect(parseListQuery({ ordering: '-id' }, post).orderBy).toEqual([{ column: 'id', direction: 'desc' }]);
    expect(parseListQuery({ ordering: 'id,score' }, post).orderBy).toEqual([
      { column: 'id', direction: 'asc' },
      { column: 'score', direction: 'asc' },
    ]);
  });

  it.each([
    [post, 'nope'],
    [post, 'meta'],
    [post, '-reviewer_id'],
    [author, 'email'],
    [author, '-secret_note'],
    [author, 'password_hash'],
    [post, 'score,-score'],
    [post, 'score,'],
    [post, ''],
    [post, '--score'],
  ])('refuses ordering=%j naming `ordering`', (ctx, text) => {
    expectInvalid(() => parseListQuery({ ordering: text }, ctx), 'ordering');
  });
});

describe('include', () => {
  it('reads comma-separated relation paths', () => {
    expect(parseListQuery({ include: 'author' }, post).include).toEqual([['author']]);
    expect(parseListQuery({ include: 'post,post.author' }, ctxOf('comment')).include).toEqual([['post'], ['post', 'author']]);
  });

  it('walks up to three hops', () => {
    expect(parseListQuery({ include: 'comment.post.author' }, ctxOf('reply')).include).toEqual([['comment', 'post', 'author']]);
    expectInvalid(() => parseListQuery({ include: 'comment.post.author.team' }, ctxOf('reply')), 'include');
  });

  it('keeps one copy of a repeated path', () => {
    expect(parseListQuery({ include: 'author,author' }, post).include).toEqual([['author']]);
  });

  it.each([
    [post, 'nope'],
    [post, 'author_id'],
    [post, 'title'],
    [post, 'reviewer'],
    [post, 'author.nope'],
    [post, 'author,'],
    [post, ''],
    [post, 'author..team'],
    [author, 'posts'],
  ])('refuses include=%j naming `include`', (ctx, text) => {
    expectInvalid(() => parseListQuery({ include: text }, ctx), 'include');
  });

  it('accepts a many-to-many relation as the last hop only', () => {
    expect(parseListQuery({ include: 'tags' }, post).include).toEqual([['tags']]);
    expect(parseListQuery({ include: 'author,tags' }, post).include).toEqual([['author'], ['tags']]);
    expect(parseListQuery({ include: 'post.tags' }, ctxOf('comment')).include).toEqual([['post', 'tags']]);
    expect(parseListQuery({ include: 'comment.post.tags' }, ctxOf('reply')).include).toEqual([['comment', 'post', 'tags']]);
    expect(refusal(() => parseListQuery({ include: 'tags.label' }, post)).message).toBe(
      'invalid query parameter "include": "tags" is a many-to-many relation of post: include lists its tag ids and cannot follow it further',
    );
    expectInvalid(() => parseListQuery({ include: 'secret_tags' }, post), 'include');
  });

  it('names the foreign keys and many-to-many relations it can follow', () => {
    expect(refusal(() => parseListQuery({ include: 'comments' }, post)).message).toBe(
      'invalid query parameter "include": "comments" is not a relation of post; include follows foreign keys (author) and many-to-many relations (tags), not reverse relations',
    );
    expect(refusal(() => parseListQuery({ include: 'posts' }, ctxOf('metric'))).message).toBe(
      'invalid query parameter "include": "posts" is not a relation of metric; include follows foreign keys (it has none) and many-to-many relations (it has none), not reverse relations',
    );
  });

  it('refuses a hop through a foreign key the caller cannot see', () => {
    const noTeam: ListQueryContext = { ...author, visible: (t, name) => !(t === 'author' && name === 'team_id') };
    expect(parseListQuery({ include: 'team' }, author).include).toEqual([['team']]);
    expectInvalid(() => parseListQuery({ include: 'team' }, noTeam), 'include');
  });
});

describe('fields', () => {
  it('projects visible columns, once each', () => {
    expect(parseListQuery({ fields: 'id,title,meta,title' }, post).fields).toEqual(['id', 'title', 'meta']);
  });

  it.each([
    [author, 'id,email'],
    [author, 'secret_note'],
    [author, 'password_hash'],
    [post, 'nope'],
    [post, 'id,'],
    [post, ''],
  ])('refuses fields=%j naming `fields`', (ctx, text) => {
    expectInvalid(() => parseListQuery({ fields: text }, ctx), 'fields');
  });
});

describe('parseTextValue', () => {
  it.each([
    ['i', '42', 42],
    ['i', '-7', -7],
    ['i', '-0', 0],
    ['i', '007', 7],
    ['b', '900719925474099312', '900719925474099312'],
    ['b', '-0012', '-12'],
    ['b', '9223372036854775807', '9223372036854775807'],
    ['f', '1.5', 1.5],
    ['f', '-2', -2],
    ['f', '1e3', 1000],
    ['f', '.5', 0.5],
    ['d', '10.25', '10.25'],
    ['d', '-3', '-3'],
    ['ok', 'true', true],
    ['ok', '1', true],
    ['ok', 'false', false],
    ['ok', '0', false],
    ['s', 'any text, even ""', 'any text, even ""'],
    ['s', '', ''],
    ['v', 'x', 'x'],
    ['day', '2024-02-29', '2024-02-29'],
    ['u', 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee'],
  ])('coerces %s from %j', (name, text, expected) => {
    expect(parseTextValue(col(name), text)).toEqual(expected);
  });

  it.each([
    ['i', '1.0'],
    ['i', '9007199254740993'],
    ['i', ' 1'],
    ['i', '0x10'],
    ['i', ''],
    ['b', '9223372036854775808'],
    ['b', '1.5'],
    ['f', 'Infinity'],
    ['f', 'NaN'],
    ['f', '1e999'],
    ['f', ''],
    ['f', '0x10'],
    ['d', '1e3'],
    ['d', '1.'],
    ['d', ''],
    ['ok', 'yes'],
    ['ok', 'True'],
    ['day', '2023-02-29'],
    ['day', '2024-1-01'],
    ['at', 'yesterday'],
    ['at', '2024-02-30T10:00:00Z'],
    ['at', '2024-01-01T25:00:00Z'],
    ['at', '2024-01-01 10:00:00'],
    ['at', '1704103200000'],
    ['u', 'not-a-uuid'],
    ['j', '{}'],
    ['j', 'null'],
  ])('cannot coerce %s from %j', (name, text) => {
    expect(parseTextValue(col(name), text)).toBeUndefined();
  });

  it('reads ISO 8601 timestamps, and a bare date as midnight UTC', () => {
    expect(parseTextValue(col('at'), '2026-01-02T03:04:05.678Z')).toEqual(new Date('2026-01-02T03:04:05.678Z'));
    expect(parseTextValue(col('at'), '2026-01-02T03:04:05+02:00')).toEqual(new Date('2026-01-02T01:04:05Z'));
    expect(parseTextValue(col('at'), '2026-01-02')).toEqual(new Date('2026-01-02T00:00:00Z'));
  });
});
