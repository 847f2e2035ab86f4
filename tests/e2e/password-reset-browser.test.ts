import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable, browserPerTest, submitForm } from '../support/browser.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * Issue 50, the reference app's reset pages in chromium: `/forgot-password` mails a link, the
 * link moves its token out of the address (a 303 with no-referrer, no-store), a weak password
 * comes back to the page with the link still usable, and the new password logs in.
 */
const ok = await browserAvailable();

describe.skipIf(!ok)('password reset in a real browser', () => {
  const session = browserPerTest<RunningReference>(() => startReference('sqlite', { env: { THROTTLE: 'off' } }));
  const flash = (level: string) => async (page: Page) => page.locator(`ul.flash li.flash-${level}`).allTextContents();

  it('forgot-password → mailed link → weak password refused on the page → new password → login', async () => {
    const ref = session.server();
    const page = await session.page();
    await page.goto(session.at('/forgot-password'), { waitUntil: 'load' });
    await page.fill('#forgot-form input[name=email]', 'bob@example.com');
    await submitForm(page, page.locator('#forgot-form button'), '/auth/password-reset');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await flash('info')(page)).toEqual(['If an account has this address, we sent it a link to choose a new password.']);

    let link: string | undefined;
    for (let waited = 0; !link && waited < 10_000; waited += 50) {
      link = ref.mailer.outbox.find((m) => m.to === 'bob@example.com' && /Reset your Portico password/.test(m.subject))?.text.match(/http\S+\/reset-password\?token=\S+/)?.[0];
      if (!link) await new Promise((r) => setTimeout(r, 50));
    }
    expect(link).toBeDefined();
    const html = ref.mailer.outbox.find((m) => m.to === 'bob@example.com')?.html ?? '';
    expect(html).toContain(`href="${(link as string).replace(/&/g, '&amp;')}"`);

    const opened = await page.goto(link as string, { waitUntil: 'load' });
    // The link's 303 (no-referrer, no-store) moved the token out of the address.
    const hop = await opened?.request().redirectedFrom()?.response();
    expect(hop?.status()).toBe(303);
    expect(hop?.headers()['referrer-policy']).toBe('no-referrer');
    expect(hop?.headers()['cache-control']).toBe('no-store');
    expect(page.url()).toBe(session.at('/reset-password'));
    expect(opened?.headers()['cache-control']).toBe('no-store');
    await page.fill('#reset-form input[name=password]', 'password');
    await submitForm(page, page.locator('#reset-form button'), '/auth/password-reset/confirm');
    expect(page.url()).toBe(session.at('/reset-password'));
    expect((await flash('error')(page)).join(' ')).toMatch(/password: is too common/);

    await page.fill('#reset-form input[name=password]', 'tulip harbour seventeen');
    await submitForm(page, page.locator('#reset-form button'), '/auth/password-reset/confirm');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect((await flash('info')(page)).join(' ')).toMatch(/Your password was changed/);

    await page.fill('#login-form input[name=username]', 'bob');
    await page.fill('#login-form input[name=password]', 'tulip harbour seventeen');
    await submitForm(page, page.locator('#login-form button'), '/auth/login');
    expect(await page.locator('#whoami').textContent()).toMatch(/Signed in as bob/);
  });
});
