import { describe, expect, it } from 'vitest';
import { accepts, isMarkup, textType, typeProblem } from '../../../src/domain/storage/upload-rules.js';
import { isStoredFileValue } from '../../../src/domain/storage/file-value.js';
import { safeDisplayName } from '../../../src/domain/storage/media-rules.js';
import { contentTypeOfKey, isFileKey, newFileKey } from '../../../src/domain/storage/file-key.js';
import { parseStorageUrl } from '../../../src/domain/storage/storage-url.js';

const UUID = '3f0c1a2b-4d5e-4f60-8a7b-9c0d1e2f3a4b';

describe('upload rules', () => {
  it('tells text from binary, a multi-byte character cut by the window included', () => {
    expect(textType(Buffer.from('héllo wörld'))).toBe('text/plain');
    expect(textType(Buffer.from('h€').subarray(0, 3))).toBe('text/plain');
    expect(textType(Buffer.from([0x68, 0x00, 0x69]))).toBeUndefined();
    expect(textType(Buffer.from([0xff, 0xfe, 0x41]))).toBeUndefined();
  });
  it('finds markup at the start or a script anywhere in the window', () => {
    for (const m of ['<html>', '  <!-- c --> <svg>', '<?xml version="1.0"?>', 'text <script>x</script>', '<SVG onload=1>']) expect(isMarkup(m), m).toBe(true);
    for (const t of ['a < b and c > d', 'x <= 3', 'email <me@example.com>']) expect(isMarkup(t), t).toBe(false);
  });
  it('matches exact types and families', () => {
    expect(accepts(['image/*'], 'image/webp')).toBe(true);
    expect(accepts(['image/png'], 'image/jpeg')).toBe(false);
    expect(accepts(['text/plain'], 'text/plainx')).toBe(false);
  });
  it('names the problem of a sniffed type', () => {
    const rule = { maxBytes: 10, accept: ['image/png'] };
    expect(typeProblem(rule, 'image/png', Buffer.from('x'))).toBeUndefined();
    expect(typeProblem(rule, 'application/pdf', Buffer.from('x'))?.message).toBe('is application/pdf; accepted: image/png');
    expect(typeProblem({ ...rule, accept: ['text/plain'] }, undefined, Buffer.from('<svg/>'))?.message).toMatch(/markup/);
  });
});

describe('storage keys, names and addresses', () => {
  it('makes keys from a UUID and the type, and refuses any other shape', () => {
    expect(newFileKey(UUID, 'image/png', 'Attachment Files')).toBe(`attachment-files/${UUID}.png`);
    expect(contentTypeOfKey(`${UUID}.pdf`)).toBe('application/pdf');
    expect(contentTypeOfKey(`${UUID}.bin`)).toBe('application/octet-stream');
    for (const bad of [`../${UUID}.png`, `a/b/${UUID}.png`, `${UUID}.png.exe`, `${UUID}`, `/${UUID}.png`]) expect(isFileKey(bad), bad).toBe(false);
  });
  it('keeps a client name without its path, control characters or leading dots', () => {
    expect(safeDisplayName('../../etc/passwd')).toBe('passwd');
    expect(safeDisplayName('C:\\x\\report.pdf')).toBe('report.pdf');
    expect(safeDisplayName('ev\u0000il".png')).toBe('evil.png');
    expect(safeDisplayName('...')).toBe('file');
  });
  it('checks a stored file value', () => {
    expect(isStoredFileValue({ key: `${UUID}.png`, name: 'a.png', size: 3, content_type: 'image/png' })).toBe(true);
    expect(isStoredFileValue({ key: '../x.png', name: 'a.png', size: 3, content_type: 'image/png' })).toBe(false);
    expect(isStoredFileValue({ key: `${UUID}.png`, name: 'a.png', size: 0, content_type: 'image/png' })).toBe(false);
  });
  it('reads STORAGE_URL and names it when it is wrong', () => {
    expect(parseStorageUrl('file:./data/media')).toEqual({ kind: 'file', dir: './data/media' });
    expect(parseStorageUrl('s3://media-bucket?endpoint=http://127.0.0.1:4568&region=eu-west-1')).toEqual({ kind: 's3', bucket: 'media-bucket', endpoint: 'http://127.0.0.1:4568', region: 'eu-west-1' });
    expect(parseStorageUrl('memory:')).toEqual({ kind: 'memory' });
    for (const bad of ['ftp://x', 'file:', 's3://UPPER', 's3://bucket/path', 's3://bucket?endpoint=javascript:1']) expect(() => parseStorageUrl(bad), bad).toThrow(/^STORAGE_URL is /);
  });
});
