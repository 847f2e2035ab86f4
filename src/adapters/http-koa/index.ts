// The HTTP adapter's entry: what src/composition wires (the Koa app, its routes and middleware, and
// the Node server that hosts it). Composition imports http-koa through this module only; the
// lint rule in eslint.config.js holds it to that (docs/architecture.md).

// Routes, requests and answers.
export type { HttpMiddleware, HttpRequest, HttpResponse, RouteDef, SessionHandle } from './http-route.js';
export { buildKoaApp, type Identify, type KoaAppOptions } from './koa-app.js';
export { DEFAULT_BODY_LIMIT } from './read-body.js';
export { streamBody } from './stream-body.js';
export { escapeHtml, SafeHtml } from './safe-html.js';
export { missingPackages, packageAsset, type PackageAsset } from './static-assets.js';

// Authentication, sessions, CSRF, hardening.
export {
  bearerAuthentication,
  chainAuthentication,
  noAuthentication,
  resolveIdentity,
  sessionAuthentication,
  type AuthBackend,
} from './authentication.js';
export { SESSION_COOKIE, sessionMiddleware } from './session-middleware.js';
export { CSRF_FIELD, csrfMiddleware } from './csrf-middleware.js';
export { hardeningHeaders } from './hardening-headers.js';

// The plugins' routes.
export { formAuthRoutes } from './routes/form-auth-routes.js';
export { jsonAuthRoutes } from './routes/json-auth-routes.js';
export { SOCIAL_COOKIE, socialAuthRoutes } from './routes/social-auth-routes.js';
export { staticFilesMiddleware, type StaticRoot } from './static-files.js';
export { mediaRoutes } from './routes/media-routes.js';
export { collectionPath, restRoutes } from './routes/rest-routes.js';
export { adminRoutes } from './admin/admin-routes.js';
export { LiveReloadHub, liveReloadInjection, liveReloadRoutes, liveReloadTag } from './live-reload.js';

// The Node HTTP server hosting the Koa app: listening, upgrades, draining, closing.
export { NodeServer, type Listening, type NodeServerOptions } from './node/node-server.js';
export { upgradeOriginPolicy, type UpgradeOriginPolicy } from './node/upgrade-origin.js';
export { HANDSHAKE_OUTCOME, type UpgradeHandler, type UpgradeLog } from './node/upgrade-router.js';
export { callerOf, identifyUpgrade, type UpgradeCaller } from './node/upgrade-identity.js';
export { callerWatch, type CallerWatchDeps, type WatchCaller } from './node/caller-watch.js';
// Node's types in the PluginContext's public signatures (onListen, onUpgrade).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
export type { Duplex, IncomingMessage, Server, ServerResponse };
