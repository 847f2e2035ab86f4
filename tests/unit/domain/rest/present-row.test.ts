import { describe, expect, it } from 'vitest';
import { c, defineModel, ModelRegistry } from '../../../../src/domain/model/index.js';
import { fieldPolicy, presentRow } from '../../../../src/domain/rest/field-policy.js';

const post = ModelRegistry.build([defineModel('post', { id: c.id(), title: c.text(), secret: c.text().hidden(), created_at: c.timestamp(), edited_at: c.timestamp().nullable() })]).require('post');
const at = new Date('2026-11-24T12:41:56.932Z');
const row = { id: 1, title: 'T', secret: 's', created_at: at, edited_at: null };

describe('presentRow', () => {
  it('drops unreadable columns, applies transforms and computed fields, keeps dates as dates by default', () => {
    const config = { table: 'post', transform: { title: (v: unknown) => String(v).toUpperCase() }, computed: { year: (r: Record<string, unknown>) => (r.created_at as Date).getUTCFullYear() } };
    const presented = presentRow(post, row, fieldPolicy(post, config), config);
    expect(presented).toEqual({ id: 1, title: 'T'.toUpperCase(), created_at: at, edited_at: null, year: 2026 });
    expect(presented.created_at).toBeInstanceOf(Date);
  });

  it('as JSON, writes timestamps as the text JSON.stringify would, and the rest unchanged', () => {
    const policy = fieldPolicy(post);
    const presented = presentRow(post, row, policy, undefined, true);
    expect(presented).toEqual({ id: 1, title: 'T', created_at: '2026-11-24T12:41:56.932Z', edited_at: null });
    expect(JSON.stringify(presented)).toBe(JSON.stringify(presentRow(post, row, policy)));
  });
});
