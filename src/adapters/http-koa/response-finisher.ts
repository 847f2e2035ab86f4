import type Koa from 'koa';

/** What a finishing middleware does once the response is computed. */
export type Finish = (ctx: Koa.Context) => void;

const FINISH = Symbol('portico.finish');

/**
 * A middleware whose only work comes after the handler, synchronously, and depends on nothing but
 * the request and the response the handler (or the error mapping) produced: hardening headers,
 * the live-reload tag. As plain Koa middleware it runs as `await next()` then `finish(ctx)`, on
 * errors too. The Koa app built by Portico runs it instead from its request envelope, after the
 * response is computed, without a middleware layer (and its promises) of its own on every request;
 * routes served before the plugins' middleware (`early`) are not finished, as they never reached it.
 */
export function finishingMiddleware(finish: Finish): Koa.Middleware {
  const mw: Koa.Middleware = async (ctx, next) => {
    try {
      await next();
    } finally {
      finish(ctx);
    }
  };
  return Object.assign(mw, { [FINISH]: finish });
}

/** The finish of a middleware made by `finishingMiddleware` (undefined for any other). */
export function finishOf(mw: Koa.Middleware): Finish | undefined {
  return (mw as { [FINISH]?: Finish })[FINISH];
}
