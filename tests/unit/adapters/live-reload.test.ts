import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { injectBeforeBodyEnd, liveReloadInjection, liveReloadTag } from '../../../src/adapters/http-koa/live-reload.js';

const TAG = liveReloadTag('/__portico/livereload');

describe('injectBeforeBodyEnd', () => {
  it('inserts the tag before the last </body>, whatever its case', () => {
    expect(injectBeforeBodyEnd('<html><body><p>hi</p></body></html>', TAG)).toBe(`<html><body><p>hi</p>${TAG}</body></html>`);
    expect(injectBeforeBodyEnd('<BODY>x</BODY >', '<s>')).toBe('<BODY>x<s></BODY >');
    expect(injectBeforeBodyEnd('<body><pre>&lt;/body&gt;</pre></body>', '<s>')).toBe('<body><pre>&lt;/body&gt;</pre><s></body>');
  });

  it('appends the tag to a fragment with no </body>', () => {
    expect(injectBeforeBodyEnd('<p>fragment</p>', TAG)).toBe(`<p>fragment</p>${TAG}`);
  });

  it('loads the client script from the event stream path (no inline script)', () => {
    expect(TAG).toBe('<script src="/__portico/livereload/client.js"></script>');
  });
});

describe('the injection middleware', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.close();
    if (server) await once(server, 'close');
    server = undefined;
  });

  async function serve(answer: (ctx: Koa.Context) => void): Promise<string> {
    const app = new Koa();
    app.use(liveReloadInjection(TAG));
    app.use(async (ctx) => answer(ctx));
    server = createServer(app.callback()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  it('adds the script to an HTML string body and recomputes Content-Length', async () => {
    const url = await serve((ctx) => {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = '<!doctype html><body>héllo</body>';
    });
    const res = await fetch(url);
    const text = await res.text();
    expect(text).toBe(`<!doctype html><body>héllo${TAG}</body>`);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
  });

  it('adds the script to an HTML Buffer body', async () => {
    const url = await serve((ctx) => {
      ctx.type = 'text/html';
      ctx.body = Buffer.from('<p>buffer</p>');
    });
    const res = await fetch(url);
    const text = await res.text();
    expect(text).toBe(`<p>buffer</p>${TAG}`);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
  });

  it.each([
    ['JSON', (ctx: Koa.Context) => void (ctx.body = { html: '</body>' }), '{"html":"</body>"}'],
    ['plain text', (ctx: Koa.Context) => void ((ctx.type = 'text/plain'), (ctx.body = 'a </body> b')), 'a </body> b'],
    ['an HTML stream', (ctx: Koa.Context) => void ((ctx.type = 'text/html'), (ctx.body = Readable.from(['<body>s</body>']))), '<body>s</body>'],
    ['an encoded HTML body', (ctx: Koa.Context) => void ((ctx.type = 'text/html'), ctx.set('Content-Encoding', 'identity'), (ctx.body = '<body></body>')), '<body></body>'],
    ['a Latin-1 HTML Buffer', (ctx: Koa.Context) => void ((ctx.type = 'text/html; charset=iso-8859-1'), (ctx.body = Buffer.from('<body></body>', 'latin1'))), '<body></body>'],
  ])('leaves %s untouched', async (_what, answer, expected) => {
    const url = await serve(answer);
    expect(await (await fetch(url)).text()).toBe(expected);
  });
});
