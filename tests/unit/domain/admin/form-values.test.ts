import { describe, expect, it } from 'vitest';
import { formValue, parseForm } from '../../../../src/domain/admin/form-values.js';
import { c } from '../../../../src/domain/model/column.js';
import { defineModel } from '../../../../src/domain/model/define-model.js';
import { ModelRegistry } from '../../../../src/domain/model/model-registry.js';

const registry = ModelRegistry.build([
  defineModel('tag', { id: c.stringId(), label: c.text() }),
  defineModel(
    'thing',
    { id: c.id(), name: c.text(), note: c.text().nullable(), n: c.int().nullable(), big: c.bigint().nullable(), on: c.bool().default(false), day: c.date().nullable(), at: c.timestamp().nullable(), data: c.json().nullable() },
    { manyToMany: { tags: { target: 'tag', through: 'thing_tags' } } },
  ),
]);
const thing = registry.require('thing');
const col = (name: string) => thing.columns.find((x) => x.name === name)!;

describe('formValue', () => {
  it('converts by column type and reports what cannot be converted', () => {
    expect(formValue(col('n'), '42')).toEqual({ value: 42 });
    expect(formValue(col('n'), '3000000000').error).toMatch(/32-bit/);
    expect(formValue(col('n'), 'abc').error).toBeDefined();
    expect(formValue(col('big'), '9007199254740993')).toEqual({ value: '9007199254740993' });
    expect(formValue(col('on'), 'on')).toEqual({ value: true });
    expect(formValue(col('on'), undefined)).toEqual({ value: false });
    expect(formValue(col('day'), '2024-02-30').error).toBeDefined();
    expect(formValue(col('at'), '2024-01-02T03:04')).toEqual({ value: new Date('2024-01-02T03:04:00Z') });
    expect(formValue(col('data'), '{"a":[1,2]}')).toEqual({ value: { a: [1, 2] } });
    expect(formValue(col('data'), '{oops').error).toBe('must be valid JSON');
  });

  it('an empty field is null on a nullable column and keeps an empty text otherwise', () => {
    expect(formValue(col('note'), '')).toEqual({ value: null });
    expect(formValue(col('name'), '')).toEqual({ value: '' });
    expect(formValue(col('n'), '')).toEqual({ value: null });
  });
});

describe('parseForm', () => {
  it('takes every posted column (so crafted privileged fields reach the write path), unchecked editable booleans as false, links as lists', () => {
    const parsed = parseForm(thing, { name: 'x', is_superuser: 'on', csrf_token: 't', 'tags.present': '1', 'tags.0': 'a', 'tags.3': 'b' }, () => true);
    expect(parsed.errors).toEqual([]);
    expect(parsed.body).toEqual({ name: 'x', on: false, tags: ['a', 'b'] });
    expect(parseForm(thing, { n: 'x' }, () => false)).toEqual({ body: {}, errors: [{ field: 'n', message: 'must be a number' }] });
  });
});
