import { describe, expect, it } from 'vitest';
import { fieldPolicy } from '../../../src/domain/rest/field-policy.js';
import { uploadBody } from '../../../src/domain/rest/upload-body.js';
import { UploadedFile } from '../../../src/domain/storage/file-value.js';
import { typeProblem } from '../../../src/domain/storage/upload-rules.js';
import { normalizeValue } from '../../../src/domain/model/values.js';
import { c, defineModel, ModelRegistry } from '../../../src/index.js';
import { writableFields } from '../../../src/application/write/write-body.js';
import { DomainError } from '../../../src/domain/errors/domain-error.js';

/** Issue 51, file columns below the surfaces: the declaration's checks, the stored value, and what a write body may carry. */
const registry = ModelRegistry.build([
  defineModel('doc', { id: c.id(), title: c.text(), pages: c.int().nullable(), scan: c.file({ maxBytes: 1000, accept: ['application/pdf', 'image/*'] }), cover: c.file({ maxBytes: 10, accept: ['image/png'] }).nullable() }),
]);
const doc = registry.require('doc');
const surface = { model: doc, policy: fieldPolicy(doc) };
const KEY = 'doc/3f0c1a2b-4d5e-4f60-8a7b-9c0d1e2f3a4b.pdf';
const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return e instanceof DomainError ? e.code : String(e);
  }
};

describe('file columns', () => {
  it('refuse a rule that cannot be met or that lets markup in, when the model is declared', () => {
    expect(() => c.file({ maxBytes: 0, accept: ['image/png'] })).toThrow(/maxBytes/);
    expect(() => c.file({ maxBytes: 1.5, accept: ['image/png'] })).toThrow(/maxBytes/);
    expect(() => c.file({ maxBytes: 10, accept: [] })).toThrow(/accept/);
    expect(() => c.file({ maxBytes: 10, accept: ['png'] })).toThrow(/not a media type/);
    expect(() => c.file({ maxBytes: 10, accept: ['*/*'] })).toThrow(/not a media type/);
    for (const markup of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/xml']) expect(() => c.file({ maxBytes: 10, accept: [markup] }), markup).toThrow(/markup/);
  });

  it('are JSON columns whose stored value is a file value, nothing else', () => {
    const scan = doc.columns.find((col) => col.name === 'scan');
    expect(scan).toMatchObject({ type: 'json', file: { maxBytes: 1000, accept: ['application/pdf', 'image/*'] } });
    expect(normalizeValue(scan!, { key: KEY, name: 'a.pdf', size: 5, content_type: 'application/pdf' })).toEqual({ ok: true, value: { key: KEY, name: 'a.pdf', size: 5, content_type: 'application/pdf' } });
    expect(normalizeValue(scan!, { key: '../etc/passwd', name: 'a', size: 5, content_type: 'x' }).ok).toBe(false);
    expect(normalizeValue(scan!, 'doc/x.pdf').ok).toBe(false);
  });

  it('take a value from an upload or null, never from a body object naming a key', () => {
    const uploaded = new UploadedFile(KEY, 'a.pdf', 5, 'application/pdf');
    expect(writableFields(surface, { title: 't', scan: uploaded })).toEqual({ title: 't', scan: { key: KEY, name: 'a.pdf', size: 5, content_type: 'application/pdf' } });
    expect(writableFields(surface, { cover: null })).toEqual({ cover: null });
    expect(code(() => writableFields(surface, { scan: { key: KEY, name: 'a.pdf', size: 5, content_type: 'application/pdf' } }))).toBe('invalid_input');
    expect(code(() => writableFields(surface, { scan: KEY }))).toBe('invalid_input');
  });

  it('coerce a multipart form by column type, keeping unknown fields for the write path to refuse', () => {
    const uploaded = new UploadedFile(KEY, 'a.pdf', 5, 'application/pdf');
    expect(uploadBody(doc, { title: 'T', pages: '12', extra: 'x' }, { scan: uploaded })).toEqual({ title: 'T', pages: 12, extra: 'x', scan: uploaded });
    expect(uploadBody(doc, { pages: '' }, {})).toEqual({ pages: null });
    expect(code(() => uploadBody(doc, { pages: 'twelve' }, {}))).toBe('invalid_input');
  });

  it('never accept a markup type the bytes name, whatever accept allows', () => {
    expect(typeProblem({ maxBytes: 10, accept: ['image/*'] }, 'image/svg+xml', new Uint8Array([0x3c]))?.message).toMatch(/markup/);
    expect(typeProblem({ maxBytes: 10, accept: ['image/*'] }, 'image/png', new Uint8Array([0x89]))).toBeUndefined();
  });
});
