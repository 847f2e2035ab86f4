import type { SessionManager } from '../../../application/auth/session-manager.js';
import type { TokenManager } from '../../../application/auth/token-manager.js';
import { resolveIdentity, type AuthBackend } from '../authentication.js';
import { cookieValue } from '../cookies.js';
import type { SessionHandle } from '../http-route.js';
import { SESSION_COOKIE } from '../session-middleware.js';
import type { Identity } from '../../../domain/auth/identity.js';

/** What identifies the caller of a request no route serves (a WebSocket upgrade). */
export interface UpgradeCaller {
  /** The `Authorization` header (or a transport's equivalent, such as a graphql-ws connection parameter). */
  readonly authorization: string | undefined;
  /** The `Cookie` header. */
  readonly cookie: string | undefined;
}

/**
 * Resolves an upgrade request's caller with `backend`: the session cookie (read-only: no flash,
 * no login) and the bearer token, as `HttpRequest.identity()` does for routes. A present but
 * invalid bearer token throws DomainError('not_authenticated').
 */
export function identifyUpgrade(
  backend: AuthBackend,
  caller: UpgradeCaller,
  services: { sessions: SessionManager | undefined; tokens: TokenManager | undefined },
): Promise<Identity> {
  return resolveIdentity(backend, { authorization: caller.authorization, session: readOnlySession(services.sessions, caller.cookie), tokens: services.tokens });
}

/** The session of an upgrade request, for identification only (no flash, no login there). */
function readOnlySession(sessions: SessionManager | undefined, cookieHeader: string | undefined): SessionHandle | undefined {
  const token = cookieValue(cookieHeader, SESSION_COOKIE);
  if (!sessions || !token) return undefined;
  const unavailable = async (): Promise<never> => {
    throw new Error('sessions are read-only over WebSocket');
  };
  return {
    user: () => sessions.userOf(token),
    flash: unavailable,
    takeFlash: async () => [],
    login: unavailable,
    logout: unavailable,
    id: async () => (await sessions.load(token))?.id ?? null,
  };
}

/** The caller of a route's request, as an upgrade's (its `Authorization` and `Cookie` headers). */
export function callerOf(headers: Readonly<Record<string, string | string[] | undefined>>): UpgradeCaller {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return { authorization: first(headers.authorization), cookie: first(headers.cookie) };
}
