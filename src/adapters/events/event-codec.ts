/*
 * The text form of an event crossing processes. Rows hold Dates (timestamps), which JSON would
 * turn into strings: they travel tagged (`{"$date": iso}`) and come back as Dates, so a handler
 * in another process sees the same row a local one does.
 */

/**
 * One event on the wire: a committed model signal or an application topic's payload. `seq` counts
 * the sender's messages from 1, so a receiver sees a hole (absent from a version before it).
 */
export type BroadcastMessage =
  | { readonly origin: string; readonly seq?: number; readonly kind: 'signal'; readonly event: unknown }
  | { readonly origin: string; readonly seq?: number; readonly kind: 'topic'; readonly topic: string; readonly payload: unknown };

const DATE_TAG = '$date';

export function encodeMessage(message: BroadcastMessage): string {
  return JSON.stringify(message, function (this: Record<string, unknown>, key: string, value: unknown) {
    const raw = this[key];
    return raw instanceof Date ? { [DATE_TAG]: raw.toISOString() } : value;
  });
}

/** Parses a message; undefined when the text is not one (a foreign NOTIFY on the channel, say). */
export function decodeMessage(text: string): BroadcastMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (_key, value: unknown) => {
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const keys = Object.keys(value);
        const tagged = (value as Record<string, unknown>)[DATE_TAG];
        if (keys.length === 1 && typeof tagged === 'string') return new Date(tagged);
      }
      return value;
    });
  } catch {
    return undefined;
  }
  const m = parsed as Partial<BroadcastMessage> | null;
  if (!m || typeof m !== 'object' || typeof m.origin !== 'string' || (m.seq !== undefined && typeof m.seq !== 'number')) return undefined;
  if (m.kind === 'signal' && 'event' in m) return m as BroadcastMessage;
  if (m.kind === 'topic' && typeof (m as { topic?: unknown }).topic === 'string') return m as BroadcastMessage;
  return undefined;
}
