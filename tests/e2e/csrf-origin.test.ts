import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * Issue 46 item 3: form posts check their origin, as Django does. An unsafe request subject to
 * CSRF (a form post, a request with the session cookie) whose `Origin` is neither the app's nor a
 * trusted one is refused 403 whatever its token; over HTTPS the `Referer` stands in for a
 * missing `Origin`, and a request with neither is refused. The token is bound to the session
 * once there is one: a token of one session is worthless with another session's cookie.
 */
describe('CSRF: the origin of a form post, and tokens bound to the session', () => {
  let ref: RunningReference;
  const TRUSTED = 'https://partner.example';
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off', TRUSTED_ORIGINS: TRUSTED, TRUSTED_PROXY_HOPS: '1' } });
  });
  afterAll(async () => ref.close());

  const login = (c: HttpClient, headers: Record<string, string> = {}) => c.form('/auth/login', { username: 'alice', password: 'alice-password-1' }, { headers });
  const signedIn = async (c: HttpClient) => (await c.home()).who.includes('alice');

  it('a post from a foreign Origin is refused 403 with a valid token, and signs nobody in', async () => {
    for (const origin of ['http://evil.example', 'null', `${ref.url}.evil.example`]) {
      const c = new HttpClient(ref.url);
      const res = await login(c, { origin });
      expect({ origin, status: res.status }).toEqual({ origin, status: 403 });
      expect(((await res.json()) as { code: string; detail: string })).toMatchObject({ code: 'csrf_failed', detail: expect.stringContaining('is neither') as string });
      expect(await signedIn(c)).toBe(false);
    }
  });

  it("a post from the app's own Origin, a trusted one, or none over plain HTTP goes through", async () => {
    const allowed: Record<string, string>[] = [{ origin: ref.url }, { origin: TRUSTED }, {}];
    for (const headers of allowed) {
      const c = new HttpClient(ref.url);
      expect((await login(c, headers)).status).toBe(303);
      expect(await signedIn(c)).toBe(true);
    }
  });

  it('over HTTPS (behind the trusted proxy) the Referer must be the app\'s, and a post with neither header is refused', async () => {
    const host = new URL(ref.url).host;
    const https = { 'x-forwarded-proto': 'https' };
    const cases: [Record<string, string>, number][] = [
      [{ ...https }, 403],
      [{ ...https, referer: 'https://evil.example/login' }, 403],
      [{ ...https, referer: `https://${host}/login` }, 303],
      [{ ...https, origin: `https://${host}` }, 303],
      [{ ...https, origin: ref.url }, 403], // http://… is another origin than https://…
    ];
    for (const [headers, status] of cases) expect({ headers, status: (await login(new HttpClient(ref.url), headers)).status }).toEqual({ headers, status });
  });

  it("a token bound to one session is refused with another session's cookie", async () => {
    const alice = new HttpClient(ref.url);
    expect((await login(alice)).status).toBe(303);
    const aliceToken = await alice.csrf('/');
    const bob = new HttpClient(ref.url);
    expect((await bob.form('/auth/login', { username: 'bob', password: 'bob-password-1' })).status).toBe(303);
    // Bob's session cookie with Alice's token (cookie and field alike): the MAC names Alice's session.
    bob.cookies.set('portico_csrf', alice.cookies.get('portico_csrf') ?? '');
    const res = await bob.form('/auth/logout', {}, { csrf: aliceToken });
    expect(res.status).toBe(403);
    expect((await bob.home()).who).toContain('bob');
    // Alice's own token still works for Alice.
    expect((await alice.form('/auth/logout', {}, { csrf: aliceToken })).status).toBe(303);
  });
});
