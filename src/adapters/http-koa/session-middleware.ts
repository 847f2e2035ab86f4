import type Koa from 'koa';
import type { FlashMessage, SessionManager, SessionRecord } from '../../application/auth/session-manager.js';
import { SESSION_LIFETIME_MS } from '../../application/auth/session-manager.js';
import type { Row, Value } from '../../domain/model/types.js';
import { readCookie, setCookie } from './cookies.js';
import type { SessionHandle } from './http-route.js';

/** The session cookie (DESIGN §3 "session cookie"). */
export const SESSION_COOKIE = 'portico_session';

export interface SessionMiddlewareOptions {
  /** Mark the cookie Secure (production). */
  readonly secure: boolean;
}

/**
 * Attaches a lazily loaded session to `ctx.state.session`. Nothing touches the database until
 * a handler asks; changed data is saved once after the handler ran; a session is created only
 * when there is something to keep (a login or a flash message).
 */
export function sessionMiddleware(sessions: SessionManager, options: SessionMiddlewareOptions): Koa.Middleware {
  const cookie = { httpOnly: true, sameSite: 'Lax' as const, secure: options.secure };
  return async (ctx, next) => {
    let record: SessionRecord | null | undefined;
    let dirty = false;
    let data: SessionRecord['data'] = {};
    const load = async (): Promise<SessionRecord | null> => {
      if (record === undefined) {
        const token = readCookie(ctx, SESSION_COOKIE);
        record = token ? await sessions.load(token) : null;
        data = record ? { ...record.data } : {};
      }
      return record;
    };
    const start = async (userId: Value | null): Promise<void> => {
      const created = await sessions.create(userId, data);
      record = created.record;
      dirty = false;
      setCookie(ctx, SESSION_COOKIE, created.token, { ...cookie, maxAge: SESSION_LIFETIME_MS / 1000 });
    };
    const handle: SessionHandle = {
      async user(): Promise<Row | null> {
        const r = await load();
        return r ? sessions.user(r) : null;
      },
      async flash(message: FlashMessage) {
        await load();
        data = { ...data, flash: [...(data.flash ?? []), message] };
        dirty = true;
      },
      async takeFlash() {
        await load();
        const flash = data.flash ?? [];
        if (flash.length > 0) {
          data = { ...data, flash: [] };
          dirty = true;
        }
        return flash;
      },
      async login(userId: Value) {
        ctx.state.sessionChanged = true; // the CSRF middleware rotates its token (DESIGN §3 "CSRF")
        const old = await load();
        if (old) await sessions.destroy(old.id);
        await start(userId);
      },
      async logout() {
        ctx.state.sessionChanged = true;
        const old = await load();
        if (old) await sessions.destroy(old.id);
        record = null;
        data = {};
        dirty = false;
        setCookie(ctx, SESSION_COOKIE, '', { ...cookie, maxAge: 0 });
      },
    };
    ctx.state.session = handle;
    await next();
    if (!dirty) return;
    if (record) await sessions.save(record.id, data);
    else if ((data.flash ?? []).length > 0) await start(null);
  };
}
