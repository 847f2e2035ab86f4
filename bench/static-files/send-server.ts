/**
 * The hand-written baseline of bench/static-files/run.ts: Koa and `send` (ranges, ETag, 304),
 * the same hardening headers set by hand, nothing else.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import Koa from 'koa';
import send from 'send';
import { serveUntilSignal } from '../server-lifecycle.js';

const { values } = parseArgs({ options: { port: { type: 'string' }, db: { type: 'string' } } });
const root = process.env.STATIC_DIR ?? '.';
const HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};
const koa = new Koa();
koa.use(async (ctx, next) => {
  if (!ctx.path.startsWith('/static/')) return next();
  for (const [name, value] of Object.entries(HEADERS)) ctx.set(name, value);
  ctx.respond = false;
  ctx.res.statusCode = 200;
  await new Promise<void>((resolve) => {
    send(ctx.req, ctx.path.slice('/static'.length), { root, index: false })
      .on('error', (error: { status?: number }) => {
        ctx.res.statusCode = error.status ?? 500;
        ctx.res.end();
        resolve();
      })
      .on('end', resolve)
      .pipe(ctx.res);
  });
});
const server = createServer(koa.callback());
server.listen(Number(values.port ?? 0), '127.0.0.1', () => {
  const address = server.address();
  serveUntilSignal(typeof address === 'object' && address ? address.port : 0, () => new Promise((resolve) => server.close(() => resolve())));
});
