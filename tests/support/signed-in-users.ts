import { afterAll, beforeAll } from 'vitest';
import type { PorticoApp } from '../../src/index.js';
import { freshPgSchema } from './postgres.js';

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

/** An app served for a describe block, with two signed-in users: filled in by its `beforeAll`. */
export interface ServedWithUsers<Name extends string> extends SignedInUsers<Name> {
  readonly app: PorticoApp;
  readonly url: string;
}

/**
 * Registers the block's `beforeAll`/`afterAll`: `build` on a fresh PostgreSQL schema or an
 * in-memory SQLite database, listening, with `names` signed in; closed and dropped after.
 */
export function servedWithUsers<Name extends string>(backend: 'sqlite' | 'postgresql', build: (database: string) => PorticoApp, names: readonly Name[]): ServedWithUsers<Name> {
  const served = { ids: {}, tokens: {} } as { app: PorticoApp; url: string; ids: Record<Name, number>; tokens: Record<Name, string> };
  let drop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const schema = backend === 'postgresql' ? freshPgSchema() : undefined;
    if (schema) drop = schema.drop;
    served.app = build(schema?.url ?? 'sqlite::memory:');
    ({ url: served.url } = await served.app.listen(0));
    Object.assign(served, await signedInUsers(served.app, served.url, names));
  }, 60_000);
  afterAll(async () => {
    await served.app.close();
    await drop();
  });
  return served;
}
