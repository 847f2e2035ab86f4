import { CredentialWatch } from '../../../application/auth/credential-watch.js';
import { hashToken } from '../../../application/auth/secrets.js';
import type { SessionManager } from '../../../application/auth/session-manager.js';
import type { TokenManager } from '../../../application/auth/token-manager.js';
import { bearerToken } from '../authentication.js';
import { cookieValue } from '../cookies.js';
import { SESSION_COOKIE } from '../session-middleware.js';
import type { Identity } from '../../../domain/auth/identity.js';
import type { Row } from '../../../domain/model/types.js';
import type { Clock } from '../../../ports/clock.js';
import type { EventBus } from '../../../ports/event-bus.js';
import type { Logger } from '../../../ports/logger.js';
import type { UpgradeCaller } from './upgrade-identity.js';

/**
 * What a stream's watch reads: the committed signals, and the credentials' own rows. The services
 * are asked for when a stream opens (plugins bind sessions and tokens after the app is built).
 */
export interface CallerWatchDeps {
  readonly events: () => EventBus;
  readonly sessions: () => SessionManager | undefined;
  readonly tokens: () => TokenManager | undefined;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** Watches a stream's caller (PluginContext.watchCaller): the returned function stops watching. */
export type WatchCaller = (caller: UpgradeCaller, identity: Identity, ended: () => void) => () => void;

/** The longest delay `setTimeout` takes (about 24.8 days); a later expiry is re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Ends a stream when the credential it was identified by no longer holds:
 * - revoked later: the committed signals (CredentialWatch), from this process or, over a
 *   cross-process bus, another;
 * - revoked between the stream's identification and its watch, when no signal can reach the
 *   watch any more: once the watch listens, the credential is read again (a bearer token through
 *   the token cache, which forgets on the same signals; a session from its row);
 * - a session that expires while the stream is open: a timer at its expiry.
 * A credential that cannot be read again (the database down) leaves the stream to the signals.
 */
export function callerWatch(deps: CallerWatchDeps): WatchCaller {
  let credentials: CredentialWatch | undefined;
  return (caller, identity, ended) => {
    if (!identity.isAuthenticated) return () => undefined;
    const credential = credentialOf(identity, caller);
    credentials ??= new CredentialWatch(deps.events());
    let live = true;
    let timer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      if (!live) return;
      live = false;
      stopSignals();
      if (timer) clearTimeout(timer);
    };
    const end = (): void => {
      if (!live) return;
      stop();
      ended();
    };
    const keys = [`user:${String(identity.id)}`, ...(credential ? [`${credential.via}:${hashToken(credential.token)}`] : [])];
    const stopSignals = credentials.watch(keys, end);
    const armAt = (expiry: Date): void => {
      if (!live) return;
      const delay = expiry.getTime() - deps.clock.now().getTime();
      if (delay <= 0) return end();
      timer = setTimeout(() => (delay > MAX_TIMER_MS ? armAt(expiry) : end()), Math.min(delay, MAX_TIMER_MS));
      timer.unref();
    };
    if (credential) {
      holdsUntil(credential, identity, deps).then(
        (until) => {
          if (until === null) end();
          else if (until) armAt(until);
        },
        (err: unknown) => deps.logger.warn({ err }, 'a stream\'s credential could not be read again; its revocation signals still end it'),
      );
    }
    return stop;
  };
}

/** The bearer token or session token an authenticated caller was identified by, when the caller carries it. */
interface Credential {
  readonly via: 'bearer' | 'session';
  readonly token: string;
}

function credentialOf(identity: Identity, caller: UpgradeCaller): Credential | undefined {
  if (identity.via === 'anonymous') return undefined;
  const token = identity.via === 'bearer' ? bearerToken(caller.authorization) : cookieValue(caller.cookie, SESSION_COOKIE);
  return token ? { via: identity.via, token } : undefined;
}

/**
 * Whether `credential` still holds for `identity`: null when not (the token or session gone, the
 * user inactive or another), else when it expires (undefined: it does not).
 */
async function holdsUntil(credential: Credential, identity: Identity, deps: CallerWatchDeps): Promise<Date | null | undefined> {
  const sameUser = (user: Row | null): boolean => user !== null && user.is_active === true && String(user.id) === String(identity.id);
  if (credential.via === 'bearer') {
    const tokens = deps.tokens();
    if (!tokens) return undefined;
    return sameUser(await tokens.resolve(credential.token)) ? undefined : null;
  }
  const sessions = deps.sessions();
  if (!sessions) return undefined;
  const record = await sessions.load(credential.token);
  if (!record) return null;
  return sameUser(await sessions.user(record)) ? record.expiresAt : null;
}
