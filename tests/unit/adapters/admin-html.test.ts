import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { html } from '../../../src/adapters/http-koa/admin/html.js';

describe('admin html template', () => {
  it('escapes every interpolated text, in element and attribute positions', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(html`${s}`.html).not.toMatch(/[<>"']/);
        const out = html`<a title="${s}">${s}</a>`.html;
        expect(out.match(/[<>"]/g)?.join('')).toBe('<""><>');
      }),
    );
  });
  it('keeps nested templates and joins lists', () => {
    expect(html`<ul>${['<b>', 'c'].map((x) => html`<li>${x}</li>`)}</ul>`.html).toBe('<ul><li>&lt;b&gt;</li><li>c</li></ul>');
    expect(html`${null}${undefined}${false}${0}`.html).toBe('0');
  });
});
