import type Koa from 'koa';

export interface CookieOptions {
  readonly httpOnly?: boolean;
  readonly secure?: boolean;
  readonly sameSite?: 'Lax' | 'Strict' | 'None';
  /** Seconds; 0 clears the cookie. */
  readonly maxAge?: number;
  readonly path?: string;
}

/** Serialises one Set-Cookie value (the name and value must be cookie-safe tokens). */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`];
  if (options.maxAge !== undefined) {
    parts.push(`Max-Age=${Math.floor(options.maxAge)}`);
    if (options.maxAge <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  }
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  parts.push(`SameSite=${options.sameSite ?? 'Lax'}`);
  return parts.join('; ');
}

/** Appends a Set-Cookie header, replacing an earlier one for the same name in this response. */
export function setCookie(ctx: Koa.Context, name: string, value: string, options: CookieOptions = {}): void {
  const current = ctx.response.get('Set-Cookie') as unknown;
  const list = (Array.isArray(current) ? current : current ? [String(current)] : []).filter((c: string) => !c.startsWith(`${name}=`));
  list.push(serializeCookie(name, value, options));
  ctx.set('Set-Cookie', list);
}

/** The value of cookie `name` on the request, if any. */
export function readCookie(ctx: Koa.Context, name: string): string | undefined {
  return cookieValue(ctx.get('cookie'), name);
}

/** The value of cookie `name` in a Cookie header, if any. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
