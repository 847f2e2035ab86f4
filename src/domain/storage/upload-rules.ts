/**
 * The rules an upload meets before it is kept (issue 51): the type is what the bytes say, text
 * only when they are UTF-8 without NUL, never markup whatever the client claimed, one of the
 * column's `accept` types, not empty, at most `maxBytes`.
 */

/** What a file column accepts. */
export interface FileRule {
  /** The largest file, in bytes. */
  readonly maxBytes: number;
  /** Media types (`image/png`) or families (`image/*`) allowed, checked on the sniffed type. */
  readonly accept: readonly string[];
}

/** Types a browser renders as a page or runs script in: never accepted by a file column. */
const MARKUP_TYPES = /^(?:text\/html|image\/svg\+xml|application\/xhtml\+xml|application\/xml|text\/xml|text\/javascript|application\/javascript)$/;
const TYPE = /^[a-z0-9][a-z0-9.+-]*\/(?:\*|[a-z0-9][a-z0-9.+-]*)$/;

/** A column's rule checked when the model is declared (a bad one throws, naming what is wrong). */
export function fileRule(rule: FileRule): FileRule {
  if (!Number.isSafeInteger(rule.maxBytes) || rule.maxBytes < 1) throw new Error(`c.file: maxBytes must be a positive whole number of bytes, got ${String(rule.maxBytes)}`);
  if (!Array.isArray(rule.accept) || rule.accept.length === 0) throw new Error('c.file: accept names at least one media type (image/png, or a family such as image/*)');
  for (const type of rule.accept) {
    if (typeof type !== 'string' || !TYPE.test(type) || type === '*/*') throw new Error(`c.file: ${JSON.stringify(type)} in accept is not a media type such as image/png or image/*`);
    if (MARKUP_TYPES.test(type)) throw new Error(`c.file: ${type} in accept is markup a browser would run; it is never accepted`);
  }
  return Object.freeze({ maxBytes: rule.maxBytes, accept: Object.freeze([...rule.accept]) });
}

/** Leading markup a browser would render or run: HTML, SVG, XML, script. */
const MARKUP = /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype|html|head|body|svg|script|iframe|object|embed|\?xml|x:|math|style|meta|link|img|a\s)/i;
const MARKUP_ANYWHERE = /<(?:script|svg|iframe|html|body|object|embed)[\s/>]/i;

/** True when `head` is or holds markup a browser would render (refused even as `text/plain`). */
export function isMarkup(head: string): boolean {
  return MARKUP.test(head) || MARKUP_ANYWHERE.test(head);
}

/** The type of a file whose bytes carry no signature: `text/plain` when they read as text, else undefined. */
export function textType(head: Uint8Array): 'text/plain' | undefined {
  if (head.includes(0)) return undefined;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, lastWholeChar(head)));
    return 'text/plain';
  } catch {
    return undefined;
  }
}

/** `head` may end inside a multi-byte character: the length up to the last whole one. */
function lastWholeChar(head: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, head.length); back++) {
    const byte = head[head.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? head.length - back : head.length;
  }
  return head.length;
}

/** True when `type` is one of `accept` (an exact type or a `family/*`). */
export function accepts(accept: readonly string[], type: string): boolean {
  return accept.some((a) => a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))));
}

/** A rule's checks: a 4xx problem to throw for the sniffed type, or undefined when it passes. */
export function typeProblem(rule: FileRule, sniffed: string | undefined, head: Uint8Array): { readonly status: 'unsupported' | 'invalid'; readonly message: string } | undefined {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  if ((sniffed === undefined || sniffed === 'application/xml' || sniffed === 'text/html') && isMarkup(text)) return { status: 'unsupported', message: 'is markup (HTML, SVG or XML), which is never accepted' };
  const type = sniffed ?? textType(head);
  if (type && MARKUP_TYPES.test(type)) return { status: 'unsupported', message: `is ${type}, markup which is never accepted` };
  if (!type) return { status: 'unsupported', message: `has no type one of ${rule.accept.join(', ')} could be (its bytes name none)` };
  if (!accepts(rule.accept, type)) return { status: 'unsupported', message: `is ${type}; accepted: ${rule.accept.join(', ')}` };
  return undefined;
}
