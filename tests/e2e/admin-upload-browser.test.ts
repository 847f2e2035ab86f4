import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { browserAvailable, browserPerTest, submitForm } from '../support/browser.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { samplePng } from '../support/sample-files.js';

/**
 * Issue 51, the admin's file input in chromium: a superuser adds an attachment with a PNG
 * chosen in the form (multipart, CSRF token first), the change page shows the file's link and
 * the link gives the same bytes; choosing another file replaces it (the old one is removed);
 * a markup file is refused beside its field and nothing is stored; a multipart post without the
 * CSRF token as its first field is refused (403) before any file is kept.
 */
const ok = await browserAvailable();
const dir = mkdtempSync(join(tmpdir(), 'portico-admin-upload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe.skipIf(!ok)('the admin uploads a file in a real browser', () => {
  const session = browserPerTest<RunningReference>(() => startReference('sqlite', { env: { THROTTLE: 'off', STORAGE_URL: `file:${dir}` } }));
  const at = session.at;
  const pathOf = (page: Page) => new URL(page.url()).pathname;

  async function signIn(): Promise<Page> {
    const page = await session.page();
    await page.goto(at('/login?redirect=/admin/'), { waitUntil: 'load' });
    const form = page.locator('#login-form');
    await form.locator('input[name="username"]').fill('root');
    await form.locator('input[name="password"]').fill('root-password-1');
    expect((await submitForm(page, form.locator('button[type="submit"]'), '/auth/login')).status()).toBe(303);
    return page;
  }

  it('adds an attachment with a chosen file, shows its link, replaces it, and refuses markup', async () => {
    const ref = session.server();
    const page = await signIn();
    await page.goto(at('/admin/attachment/add'), { waitUntil: 'load' });
    const form = page.locator('main form[method="post"]');
    expect(await form.getAttribute('enctype')).toBe('multipart/form-data');
    await form.locator('select[name="post_id"]').selectOption('1');
    const png = samplePng(20_000);
    await form.locator('input[type="file"][name="file"]').setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: png });
    const added = await submitForm(page, form.locator('button[type="submit"]'), '/admin/attachment/add');
    expect(added.status()).toBe(303);
    expect(pathOf(page)).toMatch(/^\/admin\/attachment\/\d+$/);
    const id = Number(pathOf(page).split('/').pop());

    // The change page shows the stored file's signed link; it gives the same bytes.
    const link = page.locator('a.file-link');
    expect(await link.textContent()).toBe('chart.png');
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/media\/attachment\/[0-9a-f-]{36}\.png\?/);
    const got = await page.request.get(at(href));
    expect(got.status()).toBe(200);
    expect(sha(await got.body())).toBe(sha(png));
    const first = ((await ref.app.store.getById('attachment', id))?.file as { key: string }).key;

    // Another file replaces it; the old one is removed once the change has committed.
    const change = page.locator('main form[method="post"]').first();
    await change.locator('input[type="file"][name="file"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain notes\n') });
    expect((await submitForm(page, change.locator('button[type="submit"]'), `/admin/attachment/${id}`)).status()).toBe(303);
    expect(await page.locator('a.file-link').textContent()).toBe('notes.txt');
    const keys = await ref.app.storage.keys('attachment/');
    expect(keys).not.toContain(first);
    expect(keys).toHaveLength(1);

    // Markup is refused beside its field; the stored file stays the only one.
    const again = page.locator('main form[method="post"]').first();
    await again.locator('input[type="file"][name="file"]').setInputFiles({ name: 'x.txt', mimeType: 'text/plain', buffer: Buffer.from('<svg onload="alert(1)"/>') });
    const refused = await submitForm(page, again.locator('button[type="submit"]'), `/admin/attachment/${id}`);
    expect(refused.status()).toBe(400);
    expect(await page.locator('#err-file').textContent()).toContain('markup');
    expect(await ref.app.storage.keys('attachment/')).toEqual(keys);

    // The session's own page posting without the CSRF token first (a forged form would): 403, nothing stored.
    const forged = await page.evaluate(async () => {
      const body = new FormData();
      body.append('post_id', '1');
      body.append('file', new Blob(['plain notes']), 'a.txt');
      const res = await fetch('/admin/attachment/add', { method: 'POST', body });
      return res.status;
    });
    expect(forged).toBe(403);
    expect(await ref.app.storage.keys('attachment/')).toEqual(keys);
  });
});
