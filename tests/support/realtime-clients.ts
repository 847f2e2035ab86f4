import WebSocket from 'ws';

/** One SSE event as the stream carried it. */
export interface SseEvent {
  readonly event: string;
  readonly id: string | undefined;
  readonly data: string;
}

/**
 * A hand-rolled EventSource for tests: reads an event stream from `fetch` and parses its frames
 * (comment lines are counted, not returned).
 */
export class SseStream {
  private buffer = '';
  comments = 0;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(readonly response: Response) {
    if (!response.body) throw new Error('no body');
    this.reader = response.body.getReader();
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
    return new SseStream(await fetch(url, { headers: { accept: 'text/event-stream', ...headers } }));
  }

  /** The next event, or null when the stream ended. */
  async next(timeoutMs = 5000): Promise<SseEvent | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const frame = this.takeFrame();
      if (frame) return frame;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no SSE event in time');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no SSE event in time')), left))),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) return null;
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  /** The next `n` events. */
  async take(n: number): Promise<SseEvent[]> {
    const out: SseEvent[] = [];
    while (out.length < n) {
      const e = await this.next();
      if (!e) throw new Error(`the stream ended after ${out.length} of ${n} events`);
      out.push(e);
    }
    return out;
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }

  private takeFrame(): SseEvent | undefined {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end < 0) return undefined;
      const lines = this.buffer.slice(0, end).split('\n');
      this.buffer = this.buffer.slice(end + 2);
      let event = 'message';
      let id: string | undefined;
      const data: string[] = [];
      let fields = 0;
      for (const line of lines) {
        if (line.startsWith(':')) {
          this.comments++;
          continue;
        }
        const i = line.indexOf(':');
        const [name, value] = i < 0 ? [line, ''] : [line.slice(0, i), line.slice(i + 1).replace(/^ /, '')];
        fields++;
        if (name === 'event') event = value;
        else if (name === 'id') id = value;
        else if (name === 'data') data.push(value);
      }
      if (fields > 0) return { event, id, data: data.join('\n') };
    }
  }
}

/** A WebSocket client of /realtime/ws that queues the JSON messages it receives. */
export class RealtimeSocket {
  private readonly messages: Record<string, unknown>[] = [];
  private waiting: (() => void) | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as Record<string, unknown>);
      this.waiting?.();
    });
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<RealtimeSocket> {
    const ws = new WebSocket(url, { headers });
    const socket = new RealtimeSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  /** The next message (optionally the next of `type`, skipping others). */
  async next(type?: string, timeoutMs = 5000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.messages.findIndex((m) => type === undefined || m.type === type);
      if (i >= 0) return this.messages.splice(i, 1)[0] as Record<string, unknown>;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type ?? ''} message in time (have ${JSON.stringify(this.messages)})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiting = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  async subscribe(channel: string, lastEventId?: string): Promise<Record<string, unknown>> {
    this.send({ type: 'subscribe', channel, ...(lastEventId ? { lastEventId } : {}) });
    return this.next();
  }

  close(): void {
    this.ws.close();
  }
}
