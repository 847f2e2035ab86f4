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
  const cookie: CookieFlags = { httpOnly: true, sameSite: 'Lax', secure: options.secure };
  // Not async itself: a request that changes nothing costs no promise of its own on the way back.
  return (ctx, next) => {
    const handle = new RequestSession(ctx, sessions, cookie);
    ctx.state.session = handle;
    return next().then(() => (handle.changed ? handle.saveChanges() : undefined));
  };
}

type CookieFlags = { readonly httpOnly: true; readonly sameSite: 'Lax'; readonly secure: boolean };

/** One request's session: read on first use, saved once after the handler when changed (one object per request, methods on the prototype). */
class RequestSession implements SessionHandle {
  private record: SessionRecord | null | undefined;
  private dirty = false;
  private data: SessionRecord['data'] = {};

  constructor(
    private readonly ctx: Koa.Context,
    private readonly sessions: SessionManager,
    private readonly cookie: CookieFlags,
  ) {}

  /** The session's active user: one statement when the session was not read yet (its user through its key), else the user's. */
  async user(): Promise<Row | null> {
    if (this.record === undefined) {
      const token = readCookie(this.ctx, SESSION_COOKIE);
      return token ? this.sessions.userOf(token) : null;
    }
    return this.record ? this.sessions.user(this.record) : null;
  }

  async flash(message: FlashMessage): Promise<void> {
    await this.load();
    this.data = { ...this.data, flash: [...(this.data.flash ?? []), message] };
    this.dirty = true;
  }

  async takeFlash(): Promise<FlashMessage[]> {
    await this.load();
    const flash = this.data.flash ?? [];
    if (flash.length > 0) {
      this.data = { ...this.data, flash: [] };
      this.dirty = true;
    }
    return flash;
  }

  async login(userId: Value): Promise<void> {
    this.ctx.state.sessionChanged = true; // the CSRF middleware rotates its token (DESIGN §3 "CSRF")
    const old = await this.load();
    if (old) await this.sessions.destroy(old.id);
    await this.start(userId);
  }

  async logout(): Promise<void> {
    this.ctx.state.sessionChanged = true;
    this.ctx.state.sessionToken = ''; // the CSRF token minted now is bound to no session
    const old = await this.load();
    if (old) await this.sessions.destroy(old.id);
    this.record = null;
    this.data = {};
    this.dirty = false;
    setCookie(this.ctx, SESSION_COOKIE, '', { ...this.cookie, maxAge: 0 });
  }

  async id(): Promise<Value | null> {
    return (await this.load())?.id ?? null;
  }

  /** Whether the handler changed the session's data (then `saveChanges` has work to do). */
  get changed(): boolean {
    return this.dirty;
  }

  /** After a handler that changed it: saves the data, or starts a session for a flash message left for the next page. */
  async saveChanges(): Promise<void> {
    if (this.record) await this.sessions.save(this.record.id, this.data);
    else if ((this.data.flash ?? []).length > 0) await this.start(null);
  }

  private async load(): Promise<SessionRecord | null> {
    if (this.record === undefined) {
      const token = readCookie(this.ctx, SESSION_COOKIE);
      this.record = token ? await this.sessions.load(token) : null;
      this.data = this.record ? { ...this.record.data } : {};
    }
    return this.record;
  }

  private async start(userId: Value | null): Promise<void> {
    const created = await this.sessions.create(userId, this.data);
    this.record = created.record;
    this.dirty = false;
    this.ctx.state.sessionToken = created.token; // the CSRF token minted now is bound to this session
    setCookie(this.ctx, SESSION_COOKIE, created.token, { ...this.cookie, maxAge: SESSION_LIFETIME_MS / 1000 });
  }
}
