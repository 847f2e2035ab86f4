import { describe, expect, it } from 'vitest';
import { canonicalRow, EntityTags } from '../../../../src/application/rest/entity-tags.js';
import { c, defineModel, ModelRegistry } from '../../../../src/index.js';

const registry = ModelRegistry.build([
  defineModel('doc', { id: c.id(), title: c.text(), secret: c.text().nullable().hidden(), meta: c.json().nullable(), at: c.timestamp().nullable(), score: c.int().default(0) }),
]);
const model = registry.require('doc');
const row = { id: 1, title: 'T', secret: 's', meta: { b: 1, a: [1, { d: 2, c: 3 }] }, at: new Date('2025-01-02T03:04:05.678Z'), score: 3 };

describe('entity tags of stored rows', () => {
  it('are strong, 22 base64url characters, and the same for the same row and key (another process, another read)', () => {
    const tag = new EntityTags('the secret').of(model, row);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(new EntityTags('the secret').of(model, structuredClone(row))).toBe(tag);
    expect(new EntityTags(undefined).of(model, row)).toBe(new EntityTags(undefined).of(model, row));
  });

  it('change with any column, hidden ones included, but not with the order of a JSON object\'s keys', () => {
    const tags = new EntityTags('k');
    const tag = tags.of(model, row);
    for (const change of [{ title: 'U' }, { secret: null }, { meta: { b: 1 } }, { at: new Date('2025-01-02T03:04:05.679Z') }, { score: 4 }, { id: 2 }]) {
      expect(tags.of(model, { ...row, ...change }), JSON.stringify(change)).not.toBe(tag);
    }
    expect(tags.of(model, { ...row, meta: { a: [1, { c: 3, d: 2 }], b: 1 } })).toBe(tag);
    expect(tags.of(model, { ...row, title: 'T' })).toBe(tag);
  });

  it('are keyed by the configured secret: a tag cannot be recomputed from the visible columns', () => {
    expect(new EntityTags('one').of(model, row)).not.toBe(new EntityTags('two').of(model, row));
    expect(new EntityTags('one').of(model, row)).not.toBe(new EntityTags(undefined).of(model, row));
  });

  it('hash the JSON text of the column values: scalars, null, text with quotes and non-finite numbers as JSON writes them', () => {
    const odd = { id: 0, title: 'a "quoted"\nline', secret: null, meta: [true, null, 'x'], at: null, score: Number.NaN };
    expect(canonicalRow(model, odd)).toBe(JSON.stringify([0, 'a "quoted"\nline', null, [true, null, 'x'], null, null]));
    expect(canonicalRow(model, { ...odd, secret: 'false', score: -1.5 })).toBe(JSON.stringify([0, 'a "quoted"\nline', 'false', [true, null, 'x'], null, -1.5]));
  });

  it('need every column of the row', () => {
    expect(canonicalRow(model, row)).toBe('[1,"T","s",{"a":[1,{"c":3,"d":2}],"b":1},"2025-01-02T03:04:05.678Z",3]');
    const { secret: _secret, ...partial } = row;
    expect(() => new EntityTags('k').of(model, partial)).toThrow(/secret was not read/);
  });

  it('check an If-Match precondition: *, or a list holding the current tag; anything else is precondition_failed', () => {
    const tags = new EntityTags('k');
    const tag = tags.of(model, row);
    expect(() => tags.check(model, row, undefined)).not.toThrow();
    expect(() => tags.check(model, row, '*')).not.toThrow();
    expect(() => tags.check(model, row, ['"other"', tag])).not.toThrow();
    for (const stale of [[], ['"other"'], [tag.slice(1, -1)]]) {
      expect(() => tags.check(model, row, stale)).toThrow(expect.objectContaining({ code: 'precondition_failed' }));
    }
  });

  it('compare a version a write carried (the admin form, GraphQL, a bulk item): the tag with or without its quotes', () => {
    const tags = new EntityTags('k');
    const tag = tags.of(model, row);
    expect(tags.matches(model, row, tag)).toBe(true);
    expect(tags.matches(model, row, tag.slice(1, -1))).toBe(true);
    for (const other of ['', '""', `W/${tag}`, tags.of(model, { ...row, score: 4 })]) expect(tags.matches(model, row, other), other).toBe(false);
    expect(() => tags.checkVersion(model, row, undefined)).not.toThrow();
    expect(() => tags.checkVersion(model, row, tag)).not.toThrow();
    expect(() => tags.checkVersion(model, row, '"other"')).toThrow(expect.objectContaining({ code: 'precondition_failed' }));
  });
});
