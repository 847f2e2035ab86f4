import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable, browserPerTest, submitForm } from '../support/browser.js';
import { seedJob, startJobsReference } from '../support/admin-jobs.js';

/*
 * The admin's jobs page (docs/admin.md "Jobs") in a real, headless chromium against the reference
 * app with CSRF on and no worker in the process: staff sign in, open the page from the index,
 * press Retry on a job whose attempts all failed (dead) and see it queued again.
 */

const ok = await browserAvailable();

describe.skipIf(!ok)('the admin jobs page in a real browser', () => {
  const session = browserPerTest(() => startJobsReference('sqlite'));
  const at = session.at;
  const pathOf = (page: Page) => new URL(page.url()).pathname;

  it('staff open the jobs page from the index, press Retry on a dead job and see it queued', async () => {
    const waiting = await seedJob(session.server().app, { state: 'failed', attempts: 1, lastError: 'Error: first try failed', runAt: new Date(Date.now() + 3_600_000) });
    const dead = await seedJob(session.server().app, { state: 'dead', attempts: 3, lastError: 'Error: <b>report server</b> down' });

    const page = await session.page();
    await page.goto(at('/admin/'), { waitUntil: 'load' });
    expect(pathOf(page)).toBe('/login');
    const form = page.locator('#login-form');
    await form.locator('input[name="username"]').fill('staff');
    await form.locator('input[name="password"]').fill('staff-password-1');
    expect((await submitForm(page, form.locator('button[type="submit"]'), '/auth/login')).status()).toBe(303);
    expect(pathOf(page)).toBe('/admin/');

    await Promise.all([page.waitForEvent('load'), page.locator('a[href="/admin/jobs"]').first().click()]);
    expect(pathOf(page)).toBe('/admin/jobs');
    const row = page.locator(`#job-${dead}`);
    expect(await row.locator('td.state').textContent()).toBe('dead');
    expect(await row.locator('td.error').textContent()).toBe('Error: <b>report server</b> down');
    expect(await page.locator(`#job-${waiting} button`).count()).toBe(0);

    const res = await submitForm(page, row.getByRole('button', { name: `Retry job ${dead}` }), `/admin/jobs/${dead}/retry`);
    expect(res.status()).toBe(303);
    expect(pathOf(page)).toBe('/admin/jobs');
    expect(await page.locator('.flash').allTextContents()).toEqual([`Job ${dead} (report) was queued again.`]);
    expect(await page.locator(`#job-${dead} td.state`).textContent()).toBe('queued');
    expect(await page.locator(`#job-${dead} td.attempts`).textContent()).toBe('0/3');
    expect(await page.locator(`#job-${dead} button`).count()).toBe(0);
    expect(await session.server().app.tasks.get(dead)).toMatchObject({ state: 'queued', attempts: 0 });
    expect((await session.server().app.tasks.get(waiting))?.state).toBe('failed');
  });
});
