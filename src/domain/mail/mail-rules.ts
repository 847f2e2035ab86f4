/** What a mail Portico sends may carry (issue 50: attachments capped in size and count, header values without line breaks). */
export const MAX_ATTACHMENTS = 10;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
export const MAX_ATTACHMENTS_TOTAL_BYTES = 20 * 1024 * 1024;

const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(?:; ?[a-z0-9-]+=[A-Za-z0-9._-]+)*$/i;
const LINE_BREAK = /[\r\n]/;

/**
 * A file name safe in a MIME header and on any disk: its last path segment, letters, digits and
 * `._ -` kept (others become `_`), no leading dot, at most 100 characters; `attachment` when
 * nothing is left.
 *
 * @example
 * safeFileName('../../etc/pass\r\nwd.txt'); // 'pass__wd.txt'
 */
export function safeFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const cleaned = last.replace(/[^A-Za-z0-9._ -]/g, '_').replace(/^[.\s]+/, '').trim().slice(0, 100);
  return cleaned === '' ? 'attachment' : cleaned;
}

/** What a message to send must hold to. */
export interface MailShape {
  readonly to: string;
  readonly subject: string;
  readonly attachments?: readonly { readonly filename: string; readonly contentType: string; readonly content: Uint8Array }[];
}

/** Why `message` cannot be sent (a line break in a header value, a bad content type, too many or too large attachments), or undefined. */
export function mailProblem(message: MailShape): string | undefined {
  if (LINE_BREAK.test(message.to)) return 'the recipient holds a line break';
  if (LINE_BREAK.test(message.subject)) return 'the subject holds a line break';
  const attachments = message.attachments ?? [];
  if (attachments.length > MAX_ATTACHMENTS) return `at most ${MAX_ATTACHMENTS} attachments, got ${attachments.length}`;
  let total = 0;
  for (const a of attachments) {
    if (!CONTENT_TYPE.test(a.contentType)) return `attachment ${JSON.stringify(safeFileName(a.filename))}: ${JSON.stringify(a.contentType)} is not a content type`;
    if (!(a.content instanceof Uint8Array)) return `attachment ${JSON.stringify(safeFileName(a.filename))}: the content must be bytes`;
    if (a.content.byteLength > MAX_ATTACHMENT_BYTES) return `attachment ${JSON.stringify(safeFileName(a.filename))}: over ${MAX_ATTACHMENT_BYTES} bytes`;
    total += a.content.byteLength;
  }
  if (total > MAX_ATTACHMENTS_TOTAL_BYTES) return `attachments over ${MAX_ATTACHMENTS_TOTAL_BYTES} bytes in all`;
  return undefined;
}
