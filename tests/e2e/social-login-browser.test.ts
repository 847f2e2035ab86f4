import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { browserAvailable, browserPerTest, submitForm } from '../support/browser.js';
import { freePort, GithubStand, OidcStand, referenceProviderEnv } from '../support/identity-providers.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * Issue 50, social login in chromium against a real OpenID provider (oidc-provider) and the
 * GitHub stand-in on loopback: the login page's "Sign in with google" goes to the provider and
 * back signed in (a new user), the account page links github through its provider round trip
 * and unlinks it.
 */
const ok = await browserAvailable();
const CLIENT = { id: 'portico-ref', secret: 'portico-ref-secret' };

interface Stands extends RunningReference {
  readonly google: OidcStand;
  readonly github: GithubStand;
}

async function startWithProviders(): Promise<Stands> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const google = await OidcStand.start([{ ...CLIENT, redirectUri: `${origin}/auth/social/google/callback` }]);
  const github = await GithubStand.start(CLIENT);
  const ref = await startReference('sqlite', {
    port,
    env: {
      THROTTLE: 'off',
      PUBLIC_URL: origin,
      TOKEN_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      ...referenceProviderEnv(google, github, CLIENT),
    },
  });
  return {
    ...ref,
    google,
    github,
    async close() {
      await ref.close();
      await google.close();
      await github.close();
    },
  };
}

describe.skipIf(!ok)('social login in a real browser', () => {
  const session = browserPerTest<Stands>(startWithProviders);

  it('signs in with google as a new user, links github from the account page, and unlinks it', async () => {
    const { google, github } = session.server();
    google.accounts.set('ada-1', { email: 'ada.browser@example.com', emailVerified: true, username: 'ada_browser' });
    google.next = 'ada-1';
    github.users.set(77, { id: 77, login: 'ada-gh', email: null, emails: [{ email: 'ada@elsewhere.example', primary: true, verified: true }] });
    github.next = 77;
    const page = await session.page();
    await page.goto(session.at('/login'), { waitUntil: 'load' });
    await Promise.all([page.waitForURL(session.at('/account')), page.click('#social-google')]);
    expect(await page.locator('#whoami').textContent()).toMatch(/Signed in as ada_browser/);
    expect(await page.locator('#email').textContent()).toBe('ada.browser@example.com');
    expect(await page.locator('#account-google').textContent()).toMatch(/google: linked/);
    expect(await page.locator('#account-github').textContent()).toMatch(/github: not linked/);

    await submitForm(page, page.locator('#account-github button'), '/auth/social/github/link');
    expect(page.url()).toBe(session.at('/account'));
    expect(await page.locator('ul.flash li.flash-info').allTextContents()).toEqual(['Your github account is now linked.']);
    expect(await page.locator('#account-github').textContent()).toMatch(/github: linked/);

    await submitForm(page, page.locator('#account-github button'), '/auth/social/github/unlink');
    expect(await page.locator('ul.flash li.flash-info').allTextContents()).toEqual(['Your github account is no longer linked.']);
    expect(await page.locator('#account-github').textContent()).toMatch(/github: not linked/);
    const cookies = await session.context().cookies();
    expect(cookies.find((c) => c.name === 'portico_session')?.httpOnly).toBe(true);
    expect(cookies.some((c) => c.name === 'portico_social')).toBe(false);
  });
});
