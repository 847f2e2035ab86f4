import { afterEach, describe, expect, it, vi } from 'vitest';
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

  it('keeps the keys in column order, then computed ones (one overriding a column in its place), with missing values null', () => {
    const config = { table: 'post', computed: { title: () => 'computed', extra: () => 1 } };
    const presented = presentRow(post, { id: 2, created_at: at }, fieldPolicy(post, config), config);
    expect(Object.entries(presented)).toEqual([['id', 2], ['title', 'computed'], ['created_at', at], ['edited_at', null], ['extra', 1]]);
  });

  it('calls transforms and computed fields as plain functions, with the value and the row', () => {
    const seen: unknown[] = [];
    const config = {
      table: 'post',
      transform: {
        title: function (this: unknown, v: unknown, r: unknown) {
          seen.push(this, v, r);
          return 'x';
        },
      },
      computed: {
        n: function (this: unknown, r: unknown) {
          seen.push(this, r);
          return 1;
        },
      },
    };
    presentRow(post, row, fieldPolicy(post, config), config);
    expect(seen).toEqual([undefined, 'T', row, undefined, row]);
  });

  it('makes a column named __proto__ an own key, never the prototype', () => {
    const odd = ModelRegistry.build([defineModel('odd', { id: c.id(), ['__proto__']: c.json().nullable() } as never)]).require('odd');
    const presented = presentRow(odd, { id: 1, ['__proto__']: { polluted: true } } as never, fieldPolicy(odd));
    expect(Object.getPrototypeOf(presented)).toBe(Object.prototype);
    expect(Object.keys(presented)).toEqual(['id', '__proto__']);
    expect((presented as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('presentRow where code may not be compiled from strings', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('presents the same rows one key at a time', async () => {
    vi.stubGlobal('Function', function refused() {
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    const fresh = await import('../../../../src/domain/rest/field-policy.js');
    const config = { table: 'post', transform: { title: (v: unknown) => String(v).toUpperCase() }, computed: { year: (r: Record<string, unknown>) => (r.created_at as Date).getUTCFullYear() } };
    for (const asJson of [false, true]) {
      const presented = fresh.presentRow(post, row, fresh.fieldPolicy(post, config), config, asJson);
      expect(Object.entries(presented)).toEqual(Object.entries(presentRow(post, row, fieldPolicy(post, config), config, asJson)));
    }
  });
});
