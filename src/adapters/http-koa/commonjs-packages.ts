import { createRequire } from 'node:module';
import type Router from '@koa/router';
import type Koa from 'koa';
import type getRawBody from 'raw-body';

/**
 * The CommonJS packages of the HTTP adapter, required rather than imported. Imported from an ES
 * module, Node 20 loads a CommonJS package through its ESM loader (each file's source scanned for
 * its exports, each nested `require` resolved by that loader): koa, @koa/router and raw-body took
 * about 20 ms more of the reference app's cold start that way than required (docs/performance.md,
 * "Start loads what it uses"). The types still come from the packages' own declarations.
 */
const require = createRequire(import.meta.url);

export const KoaApplication = require('koa') as typeof Koa;
const router = require('@koa/router') as typeof Router & { Router?: typeof Router };
/** @koa/router's class (its CommonJS build exports it as the module and as `Router`). */
export const KoaRouter: typeof Router = router.Router ?? router;
export const readRawBody = require('raw-body') as typeof getRawBody;
