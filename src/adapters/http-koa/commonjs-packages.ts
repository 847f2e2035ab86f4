import Router from '@koa/router';
import Koa from 'koa';
import getRawBody from 'raw-body';

/**
 * The HTTP adapter's CommonJS packages. In the built package these imports resolve to one bundled
 * file loaded through V8's code cache (`scripts/bundle.mjs`, `vendored-packages.ts`): required
 * one by one, koa, @koa/router and raw-body with what they require took 70-90 ms of the reference
 * app's start (docs/performance.md, "Cold start: the packages loaded at start").
 */
export const KoaApplication = Koa;
/** @koa/router's class (its CommonJS build exports it as the module and as `Router`). */
export const KoaRouter: typeof Router = (Router as typeof Router & { Router?: typeof Router }).Router ?? Router;
export const readRawBody = getRawBody;
