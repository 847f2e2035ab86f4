import type { TokenManager } from '../../application/auth/token-manager.js';
import { ANONYMOUS, type Identity } from '../../domain/auth/identity.js';
import { identityOf } from '../../domain/auth/user-view.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { SessionHandle } from './http-route.js';

/** How callers are identified (SPEC "Authentication" 5): session, bearer, a chain, or nobody. */
export type AuthBackend =
  | { readonly kind: 'session' }
  | { readonly kind: 'bearer' }
  | { readonly kind: 'chain'; readonly backends: readonly AuthBackend[] }
  | { readonly kind: 'none' };

/** The session cookie identifies the caller. */
export const sessionAuthentication = (): AuthBackend => ({ kind: 'session' });
/** `Authorization: Bearer <token>` identifies the caller. */
export const bearerAuthentication = (): AuthBackend => ({ kind: 'bearer' });
/** The first backend that identifies the caller wins. */
export const chainAuthentication = (...backends: AuthBackend[]): AuthBackend => ({ kind: 'chain', backends });
/** Every request is anonymous (the default: NoAuthentication). */
export const noAuthentication = (): AuthBackend => ({ kind: 'none' });

/** What a backend reads from the request. */
export interface AuthSources {
  readonly authorization: string | undefined;
  readonly session: SessionHandle | undefined;
  readonly tokens: TokenManager | undefined;
}

/** The bearer token of an Authorization header, or undefined; a malformed header is refused. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const m = /^Bearer ([A-Za-z0-9_.~+/=-]{20,200})$/.exec(authorization.trim());
  if (!m) {
    if (/^Bearer\b/i.test(authorization.trim())) throw new DomainError('not_authenticated', 'malformed bearer token');
    return undefined;
  }
  return m[1];
}

/** The identity of a request without credentials, settled once for all of them. */
const ANONYMOUS_CALLER: Promise<Identity> = Promise.resolve(ANONYMOUS);

/**
 * Resolves the caller. A present but unknown or revoked bearer token answers 401 (it is never
 * silently treated as anonymous); a session without a user is anonymous. Backends read only the
 * Authorization header and the session, so a request with neither is anonymous for every backend
 * and none is asked (a chain of them was several async calls on every anonymous request).
 */
export function resolveIdentity(backend: AuthBackend, sources: AuthSources): Promise<Identity> {
  if (!sources.authorization && !sources.session) return ANONYMOUS_CALLER;
  return identify(backend, sources);
}

async function identify(backend: AuthBackend, sources: AuthSources): Promise<Identity> {
  switch (backend.kind) {
    case 'none':
      return ANONYMOUS;
    case 'session': {
      const user = await sources.session?.user();
      return user ? identityOf(user, 'session') : ANONYMOUS;
    }
    case 'bearer': {
      const token = bearerToken(sources.authorization);
      if (!token || !sources.tokens) return ANONYMOUS;
      const user = await sources.tokens.resolve(token);
      if (!user) throw new DomainError('not_authenticated', 'invalid or revoked token');
      return identityOf(user, 'bearer');
    }
    case 'chain':
      for (const b of backend.backends) {
        const identity = await identify(b, sources);
        if (identity.isAuthenticated) return identity;
      }
      return ANONYMOUS;
  }
}
