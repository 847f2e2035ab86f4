import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildKoaApp } from '../../../src/adapters/http-koa/koa-app.js';
import type { HttpRequest } from '../../../src/adapters/http-koa/http-route.js';
import type { Logger } from '../../../src/ports/logger.js';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How a handler asks whether its client left: through the signal, or the check that makes none. */
type Ask = (req: HttpRequest) => boolean;
const ASKS: [string, Ask][] = [
  ['req.signal.aborted', (req) => req.signal.aborted],
  ['req.departed', (req) => req.departed],
];

/** A server whose one route waits `askAfterMs`, then reports whether `ask` says the client left, and again 100 ms later. */
async function serve(askAfterMs: number, seen: boolean[][], ask: Ask): Promise<Server> {
  const app = buildKoaApp({
    logger: quiet,
    logRequests: false,
    routes: [
      {
        method: 'POST',
        path: '/slow',
        body: 'json',
        handler: async (req: HttpRequest) => {
          await sleep(askAfterMs);
          const first = ask(req);
          await sleep(100);
          seen.push([first, ask(req)]);
          return { status: 200, body: { ok: true } };
        },
      },
    ],
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** Sends a POST and, unless `leaveAfterMs` is undefined, leaves after that long. */
function send(server: Server, leaveAfterMs: number | undefined): Promise<number | 'left'> {
  return new Promise((resolve) => {
    const req = request({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', method: 'POST', path: '/slow', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve('left'));
    req.end('{"a":1}');
    if (leaveAfterMs !== undefined) setTimeout(() => req.destroy(), leaveAfterMs);
  });
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe.each(ASKS)('the request departure, read as %s', (_name, ask) => {
  it('reads aborted when the client left before the handler first asked for it', async () => {
    const seen: boolean[][] = [];
    server = await serve(150, seen, ask);
    expect(await send(server, 30)).toBe('left');
    await sleep(400);
    expect(seen).toEqual([[true, true]]);
  });

  it('aborts when the client leaves after the handler asked for it', async () => {
    const seen: boolean[][] = [];
    server = await serve(0, seen, ask);
    expect(await send(server, 40)).toBe('left');
    await sleep(300);
    expect(seen).toEqual([[false, true]]);
  });

  it('never aborts for a client that stays for its answer', async () => {
    const seen: boolean[][] = [];
    server = await serve(20, seen, ask);
    expect(await send(server, undefined)).toBe(200);
    expect(seen).toEqual([[false, false]]);
  });
});
