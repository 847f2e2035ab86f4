import { describe, expect, it } from 'vitest';
import { MAX_ATTACHMENT_BYTES, mailProblem, safeFileName } from '../../../src/domain/mail/mail-rules.js';

const bytes = (n: number) => new Uint8Array(n);

describe('safeFileName', () => {
  it.each([
    ['post-1.json', 'post-1.json'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\x\\report.pdf', 'report.pdf'],
    ['a\r\nContent-Type: text/html.txt', 'html.txt'], ['a\r\nb.txt', 'a__b.txt'],
    ['.hidden', 'hidden'],
    ['"quoted"; name=x', '_quoted__ name_x'],
    ['', 'attachment'],
    ['../', 'attachment'],
    ['é'.repeat(300), '_'.repeat(100)],
  ])('%j is sent as %j', (name, safe) => {
    expect(safeFileName(name)).toBe(safe);
  });
});

describe('mailProblem', () => {
  const ok = { to: 'a@example.com', subject: 'Hi' };
  it('accepts a plain message and attachments within the caps', () => {
    expect(mailProblem(ok)).toBeUndefined();
    expect(mailProblem({ ...ok, attachments: [{ filename: 'a.json', contentType: 'application/json; charset=utf-8', content: bytes(10) }] })).toBeUndefined();
  });
  it('refuses a line break in a header value, a bad content type, and attachments over the caps', () => {
    expect(mailProblem({ ...ok, to: 'a@example.com\r\nBcc: b@example.com' })).toMatch(/recipient holds a line break/);
    expect(mailProblem({ ...ok, subject: 'Hi\nBcc: x' })).toMatch(/subject holds a line break/);
    expect(mailProblem({ ...ok, attachments: [{ filename: 'a', contentType: 'text/plain\r\nX: y', content: bytes(1) }] })).toMatch(/is not a content type/);
    expect(mailProblem({ ...ok, attachments: Array.from({ length: 11 }, () => ({ filename: 'a', contentType: 'text/plain', content: bytes(1) })) })).toMatch(/at most 10 attachments, got 11/);
    expect(mailProblem({ ...ok, attachments: [{ filename: 'big', contentType: 'application/octet-stream', content: bytes(MAX_ATTACHMENT_BYTES + 1) }] })).toMatch(/over 10485760 bytes/);
    expect(mailProblem({ ...ok, attachments: Array.from({ length: 3 }, () => ({ filename: 'a', contentType: 'text/plain', content: bytes(MAX_ATTACHMENT_BYTES) })) })).toMatch(/in all/);
  });
});
