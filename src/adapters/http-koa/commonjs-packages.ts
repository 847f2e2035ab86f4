import Router from '@koa/router';
import Koa from 'koa';
import getRawBody from 'raw-body';

/** The HTTP adapter's CommonJS packages, with the interop of their default exports in one place. */
export const KoaApplication = Koa;
/** @koa/router's class (its CommonJS build exports it as the module and as `Router`). */
export const KoaRouter: typeof Router = (Router as typeof Router & { Router?: typeof Router }).Router ?? Router;
export const readRawBody = getRawBody;
