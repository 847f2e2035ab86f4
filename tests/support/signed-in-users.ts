import type { PorticoApp } from '../../src/index.js';

/** Users written with a hashed password, verified, each with a bearer token from `POST /api/auth/login`. */
export interface SignedInUsers<Name extends string> {
  readonly ids: Record<Name, number>;
  readonly tokens: Record<Name, string>;
}

/** Creates `names` as active, verified users of `app` (password `<name>-password-1`) and logs each in over HTTP at `url`. */
export async function signedInUsers<Name extends string>(app: PorticoApp, url: string, names: readonly Name[]): Promise<SignedInUsers<Name>> {
  const ids = {} as Record<Name, number>;
  const tokens = {} as Record<Name, string>;
  for (const who of names) {
    const user = await app.store.insert('auth_user', { username: who, email: `${who}@example.com`, password_hash: await app.hasher.hash(`${who}-password-1`), is_active: true, email_verified_at: new Date() });
    ids[who] = Number(user.id);
    const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: who, password: `${who}-password-1` }) });
    tokens[who] = ((await res.json()) as { token: string }).token;
  }
  return { ids, tokens };
}
