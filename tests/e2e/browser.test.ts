import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page, Response as PwResponse } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserAvailable, launchChromium, submitForm } from '../support/browser.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/*
 * The identity flows through the reference app's own HTML pages in a real, headless chromium
 * (Debian's /usr/bin/chromium driven by playwright-core), with CSRF protection on.
 */

const ok = await browserAvailable();

let seq = 0;
const unique = (p: string) => `${p}${Date.now().toString(36)}${seq++}`;
const PASSWORD = 'correct horse battery staple';

describe.skipIf(!ok)('the reference app in a real browser', () => {
  let browser: Browser;
  let ref: RunningReference;
  let context: BrowserContext;

  beforeAll(async () => {
    [browser, ref] = await Promise.all([launchChromium(), startReference('sqlite', { env: { THROTTLE: 'off' } })]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), ref?.close()]);
  });

  beforeEach(async () => {
    context = await browser.newContext();
    // Fail a stuck wait well inside the 30 s test timeout, with Playwright's own message.
    context.setDefaultTimeout(10_000);
  });
  afterEach(async () => {
    await context?.close();
  });

  const at = (path: string) => `${ref.url}${path}`;
  const pathOf = (page: Page) => new URL(page.url()).pathname;
  const whoami = async (page: Page) => ((await page.locator('#whoami').textContent()) ?? '').replace(/\s+/g, ' ').trim();
  const flash = (page: Page) => page.locator('ul.flash li.flash-error').allTextContents();
  const sessionCookie = async () => (await context.cookies(ref.url)).find((c) => c.name === 'portico_session');

  async function open(path: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(at(path), { waitUntil: 'load' });
    return page;
  }

  const submit = submitForm;

  async function signUp(page: Page, username: string): Promise<PwResponse> {
    const form = page.locator('#signup-form');
    await form.locator('input[name="username"]').fill(username);
    await form.locator('input[name="email"]').fill(`${username}@example.com`);
    await form.locator('input[name="password"]').fill(PASSWORD);
    return submit(page, form.locator('button[type="submit"]'), '/auth/signup');
  }

  async function logIn(page: Page, username: string, password: string): Promise<PwResponse> {
    const form = page.locator('#login-form');
    await form.locator('input[name="username"]').fill(username);
    await form.locator('input[name="password"]').fill(password);
    return submit(page, form.locator('button[type="submit"]'), '/auth/login');
  }

  it('signs up through /signup, lands on / signed in, with an HttpOnly session cookie scripts cannot read', async () => {
    const page = await open('/signup');
    const username = unique('browser');
    const res = await signUp(page, username);
    expect(res.status()).toBe(303);
    expect(page.url()).toBe(at('/'));
    expect(await whoami(page)).toBe(`Signed in as ${username}.`);

    const cookie = await sessionCookie();
    expect(cookie).toBeDefined();
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(await page.evaluate<string>('document.cookie')).not.toContain('portico_session');
  });

  it('logs out by clicking "Log out" on the home page', async () => {
    const page = await open('/signup');
    const username = unique('leaver');
    await signUp(page, username);
    expect(await whoami(page)).toBe(`Signed in as ${username}.`);

    const res = await submit(page, page.locator('form[action="/auth/logout"] button[type="submit"]', { hasText: 'Log out' }), '/auth/logout');
    expect(res.status()).toBe(303);
    expect(page.url()).toBe(at('/'));
    expect(await whoami(page)).toBe('You are not signed in.');
    expect(await sessionCookie()).toBeUndefined();
    await page.reload({ waitUntil: 'load' });
    expect(await whoami(page)).toBe('You are not signed in.');
  });

  it('a failed login returns to /login (same-host Referer) with a flash message that is consumed on read', async () => {
    const page = await open('/login');
    const res = await logIn(page, 'alice', 'wrong-password');
    expect(res.status()).toBe(303);
    expect(pathOf(page)).toBe('/login');
    expect(await flash(page)).toEqual(['Invalid username or password.']);
    expect(await whoami(page)).toBe('You are not signed in.');

    await page.reload({ waitUntil: 'load' });
    expect(pathOf(page)).toBe('/login');
    expect(await page.locator('ul.flash').count()).toBe(0);
    expect(await flash(page)).toEqual([]);
  });

  it('logs in through /login as the seed user alice', async () => {
    const page = await open('/login');
    const res = await logIn(page, 'alice', 'alice-password-1');
    expect(res.status()).toBe(303);
    expect(page.url()).toBe(at('/'));
    expect(await whoami(page)).toBe('Signed in as alice.');
    expect((await sessionCookie())?.httpOnly).toBe(true);
  });

  it('CSRF is on: a login form stripped of its csrf_token is refused with 403 and signs nobody in', async () => {
    const page = await open('/login');
    const form = page.locator('#login-form');
    await form.locator('input[name="username"]').fill('alice');
    await form.locator('input[name="password"]').fill('alice-password-1');
    const left = await page.evaluate<number>(`(() => {
      const form = document.querySelector('#login-form');
      form.querySelector('input[name="csrf_token"]').remove();
      return form.querySelectorAll('input[name="csrf_token"]').length;
    })()`);
    expect(left).toBe(0);

    const res = await submit(page, form.locator('button[type="submit"]'), '/auth/login');
    expect(res.status()).toBe(403);
    expect(await sessionCookie()).toBeUndefined();
    await page.goto(at('/'), { waitUntil: 'load' });
    expect(await whoami(page)).toBe('You are not signed in.');
  });

  it('CSRF is on: a form auto-posted from another origin cannot log a signed-in user out', async () => {
    const page = await open('/login');
    await logIn(page, 'alice', 'alice-password-1');
    expect(await whoami(page)).toBe('Signed in as alice.');

    // Another port on the same host is another origin (though the same site, so the SameSite=Lax
    // session cookie does travel: only the missing token stops the post).
    const target = at('/auth/logout');
    const attacker = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><body>
<form method="post" action="${target}" id="evil"><input type="hidden" name="next" value="/"></form>
<script>addEventListener('load', () => document.getElementById('evil').submit());</script>
</body></html>`);
    });
    attacker.listen(0, '127.0.0.1');
    await once(attacker, 'listening');
    try {
      const attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
      expect(new URL(attackerUrl).origin).not.toBe(new URL(ref.url).origin);

      const evil = await context.newPage();
      const posted = evil.waitForResponse((r) => r.request().method() === 'POST' && r.url() === target);
      await evil.goto(attackerUrl, { waitUntil: 'load' });
      const res = await posted;
      expect(res.status()).toBe(403);
      expect(await res.request().headerValue('origin')).toBe(new URL(attackerUrl).origin);
    } finally {
      attacker.closeAllConnections();
      await new Promise<void>((resolve) => attacker.close(() => resolve()));
    }

    expect(await sessionCookie()).toBeDefined();
    await page.reload({ waitUntil: 'load' });
    expect(await whoami(page)).toBe('Signed in as alice.');
  });
});
