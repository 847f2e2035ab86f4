import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable, browserPerTest, submitForm } from '../support/browser.js';
import { hostPassword, startAdminHost } from '../support/admin-host.js';

/*
 * The admin's own login and logout pages (docs/admin.md "Who gets in") in a real, headless
 * chromium, on a new host app that writes no login page: the admin sends the browser to
 * /admin/login/, the form signs staff in and lands back where they were going, and the header's
 * Log out button ends the session.
 */

const ok = await browserAvailable();

describe.skipIf(!ok)('the admin\'s own login page in a real browser', () => {
  const session = browserPerTest(() => startAdminHost());
  const at = session.at;
  const pathOf = (page: Page) => new URL(page.url()).pathname;
  const heading = async (page: Page) => ((await page.locator('h1').first().textContent()) ?? '').trim();

  it('opens the admin, is sent to the login page, signs in, sees the list, then logs out', async () => {
    const page = await session.page();
    await page.goto(at('/admin/note'), { waitUntil: 'load' });
    expect(pathOf(page)).toBe('/admin/login/');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/admin/note');
    expect(await heading(page)).toBe('Log in');

    // A wrong password: the form again, with the message and the username kept.
    const form = page.locator('#login-form');
    await form.locator('input[name="username"]').fill('staff');
    await form.locator('input[name="password"]').fill('not-the-password-9');
    const refused = await submitForm(page, form.locator('button[type="submit"]'), '/admin/login/');
    expect(refused.status()).toBe(400);
    expect(await page.locator('.error').allTextContents()).toEqual(['Please enter the correct username and password for a staff account.']);
    expect(await form.locator('input[name="username"]').inputValue()).toBe('staff');
    expect(await form.locator('input[name="password"]').inputValue()).toBe('');

    await form.locator('input[name="password"]').fill(hostPassword('staff'));
    const signedIn = await submitForm(page, form.locator('button[type="submit"]'), '/admin/login/');
    expect(signedIn.status()).toBe(303);
    expect(pathOf(page)).toBe('/admin/note');
    expect(await page.locator('tbody').textContent()).toContain('First note');
    expect(await page.locator('header').textContent()).toContain('Signed in as staff');

    await page.goto(at('/admin/'), { waitUntil: 'load' });
    expect(await heading(page)).toBe('Site administration');

    const out = await submitForm(page, page.locator('header button[type="submit"]', { hasText: 'Log out' }), '/admin/logout/');
    expect(out.status()).toBe(303);
    expect(pathOf(page)).toBe('/admin/login/');
    expect((await session.context().cookies()).map((cookie) => cookie.name)).not.toContain('portico_session');
    await page.goto(at('/admin/'), { waitUntil: 'load' });
    expect(pathOf(page)).toBe('/admin/login/');
  });
});
