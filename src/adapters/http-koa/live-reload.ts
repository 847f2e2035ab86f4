import { Readable } from 'node:stream';
import type Koa from 'koa';
import type { OpenPages } from '../../application/live-reload/reload-on-change.js';
import type { RouteDef } from './http-route.js';
import { escapeHtml } from './safe-html.js';
import { finishingMiddleware } from './response-finisher.js';

/** How often an idle event stream gets a comment line, so proxies and browsers keep it open. */
const HEARTBEAT_MS = 15_000;

/**
 * The page's side of live reload: listens on the event stream at `path`, reloads on `reload`,
 * and also once the stream comes back after it was lost (the server restarted).
 */
export function liveReloadClient(path: string): string {
  return `(() => {
  const source = new EventSource(${JSON.stringify(path)});
  let lost = false;
  source.addEventListener('reload', () => location.reload());
  source.addEventListener('error', () => { lost = true; });
  source.addEventListener('open', () => { if (lost) location.reload(); });
})();
`;
}

/** The tag injected into HTML pages: the client script, served from `<path>/client.js` (no inline script, whatever the CSP). */
export function liveReloadTag(path: string): string {
  return `<script src="${escapeHtml(`${path}/client.js`)}"></script>`;
}

/** `html` with `tag` inserted before its last `</body>`, or appended when it has none. */
export function injectBeforeBodyEnd(html: string, tag: string): string {
  const at = html.toLowerCase().lastIndexOf('</body');
  return at < 0 ? html + tag : html.slice(0, at) + tag + html.slice(at);
}

/**
 * Koa middleware adding `tag` to every HTML response whose body is a string or a UTF-8 Buffer
 * (Content-Length follows the new body); streams, encoded bodies and other types pass untouched.
 */
export function liveReloadInjection(tag: string): Koa.Middleware {
  return finishingMiddleware((ctx) => {
    // The media type read directly (type-is parses it on every response, HTML or not).
    if (!/^\s*text\/html\s*(;|$)/i.test(ctx.response.get('Content-Type')) || ctx.response.get('Content-Encoding')) return;
    const body: unknown = ctx.body;
    if (typeof body === 'string') {
      ctx.body = injectBeforeBodyEnd(body, tag);
    } else if (Buffer.isBuffer(body)) {
      const charset = /;\s*charset=["']?([^"';\s]+)/i.exec(ctx.response.get('Content-Type'))?.[1]?.toLowerCase();
      if (charset === undefined || charset === 'utf-8' || charset === 'utf8') ctx.body = Buffer.from(injectBeforeBodyEnd(body.toString('utf8'), tag), 'utf8');
    }
  });
}

/** The open live-reload event streams: each gets `event: reload` when `ReloadOnChange` decides a change reloads the pages. */
export class LiveReloadHub implements OpenPages {
  private readonly streams = new Set<Readable>();

  /** A new event stream, open until the client leaves or the hub closes. */
  open(): Readable {
    const stream = new Readable({ read() {} });
    const heartbeat = setInterval(() => stream.push(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    stream.once('close', () => {
      clearInterval(heartbeat);
      this.streams.delete(stream);
    });
    this.streams.add(stream);
    // Sent at once, so the response headers go out and the browser's EventSource opens.
    stream.push('retry: 1000\n\n');
    return stream;
  }

  /** Tells every open stream to reload (`data` names the changed files, for the curious). */
  reload(paths: readonly string[]): void {
    const frame = `event: reload\ndata: ${JSON.stringify(paths)}\n\n`;
    for (const stream of this.streams) stream.push(frame);
  }

  /** How many streams are open. */
  get size(): number {
    return this.streams.size;
  }

  /** Ends every open stream (the app closes). */
  close(): void {
    for (const stream of this.streams) stream.push(null);
    this.streams.clear();
  }
}

/** `GET <path>`: the event stream; `GET <path>/client.js`: the client script. */
export function liveReloadRoutes(path: string, hub: LiveReloadHub): RouteDef[] {
  const client = liveReloadClient(path);
  return [
    {
      method: 'GET',
      path,
      early: true,
      handler: (req) => {
        const stream = hub.open();
        req.signal.addEventListener('abort', () => stream.destroy(), { once: true });
        return { status: 200, type: 'text/event-stream', headers: { 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' }, body: stream };
      },
    },
    {
      method: 'GET',
      path: `${path}/client.js`,
      early: true,
      handler: () => ({ status: 200, type: 'text/javascript; charset=utf-8', headers: { 'Cache-Control': 'no-cache' }, body: client }),
    },
  ];
}
