import { describe, expect, it } from 'vitest';
import { fileTypeSniffer } from '../../src/adapters/storage/file-type-sniffer.js';
import type { ContentSniffer } from '../../src/ports/content-sniffer.js';

/*
 * The ContentSniffer contract (src/ports/content-sniffer.ts) over its adapter (file-type): types
 * come from the bytes' signatures, and bytes without one (text, markup) name none.
 */
const ADAPTERS: readonly (readonly [string, ContentSniffer])[] = [['file-type', fileTypeSniffer]];
const hex = (h: string): Uint8Array => Buffer.from(h, 'hex');

describe.each(ADAPTERS)('ContentSniffer contract: %s', (_name, sniffer) => {
  it('wants a window of leading bytes', () => {
    expect(sniffer.headBytes).toBeGreaterThanOrEqual(512);
  });

  it.each([
    ['image/png', hex('89504e470d0a1a0a0000000d494844520000000100000001')],
    ['image/jpeg', hex('ffd8ffe000104a46494600010100000100010000')],
    ['image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00')],
    ['application/pdf', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')],
    ['application/zip', hex('504b0304140000000800')],
  ])('names %s from its signature', async (type, bytes) => {
    expect(await sniffer.sniff(bytes)).toBe(type);
  });

  it.each([
    ['plain text', Buffer.from('just some notes\n')],
    ['HTML', Buffer.from('<!doctype html><p>hi</p>')],
    ['a bare SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
  ])('names no type for %s, whatever a client would claim', async (_case, bytes) => {
    expect(await sniffer.sniff(bytes)).toBeUndefined();
  });
});
