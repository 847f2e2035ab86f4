import { mkdtempSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserAvailable, browserPerTest, submitForm } from '../support/browser.js';
import { startReference } from '../support/reference-server.js';

/*
 * The admin (docs/admin.md) in a real, headless chromium against the reference app, with CSRF on.
 * The reference app grants no per-model rights to `staff` (the permissions plugin is mounted, and
 * nothing is granted), so the full add/change/search/filter/delete/history flow runs as `root`
 * (a superuser); `staff` gets a short check that it sees only what it may: nothing.
 * Each run takes screenshots of the index, a list and an edit page: into docs/admin/ (the ones the
 * README shows) with PORTICO_WRITE_SCREENSHOTS=1, else into a temporary folder.
 */

const ok = await browserAvailable();
const SHOTS = process.env.PORTICO_WRITE_SCREENSHOTS === '1' ? resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/admin') : mkdtempSync(join(tmpdir(), 'portico-admin-shots-'));

describe.skipIf(!ok)('the admin in a real browser', () => {
  const session = browserPerTest(async () => {
    await mkdir(SHOTS, { recursive: true });
    return startReference('sqlite', { env: { THROTTLE: 'off' } });
  });
  const at = session.at;
  const store = () => session.server().app.store;
  const pathOf = (page: Page) => new URL(page.url()).pathname;
  const heading = async (page: Page) => ((await page.locator('h1').first().textContent()) ?? '').trim();
  const shot = (page: Page, name: string) => page.screenshot({ path: resolve(SHOTS, `${name}.png`), fullPage: true });

  const submit = submitForm;

  /** Opens /admin/ anonymously, follows the redirect to /login and signs in there; lands back on /admin/. */
  async function signInThroughAdmin(username: string, password: string): Promise<Page> {
    const page = await session.page();
    await page.goto(at('/admin/'), { waitUntil: 'load' });
    expect(pathOf(page)).toBe('/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/admin/');
    const form = page.locator('#login-form');
    await form.locator('input[name="username"]').fill(username);
    await form.locator('input[name="password"]').fill(password);
    const res = await submit(page, form.locator('button[type="submit"]'), '/auth/login');
    expect(res.status()).toBe(303);
    expect(pathOf(page)).toBe('/admin/');
    return page;
  }

  /** Follows a plain link (GET) and waits for the next page. */
  async function follow(page: Page, link: Locator): Promise<void> {
    await Promise.all([page.waitForEvent('load'), link.click()]);
  }

  it('staff without per-model rights signs in and sees no table; a table URL answers 403', async () => {
    const page = await signInThroughAdmin('staff', 'staff-password-1');
    expect(await page.locator('a[href="/admin/post"]').count()).toBe(0);
    expect(await page.locator('a[href="/admin/auth_user"]').count()).toBe(0);
    const res = await page.goto(at('/admin/post'), { waitUntil: 'load' });
    expect(res?.status()).toBe(403);
  });

  it('a superuser adds a post (FK select, M2M checkboxes), edits, searches, filters, deletes it and reads its history', async () => {
    const page = await signInThroughAdmin('root', 'root-password-1');
    expect(await page.locator('a[href="/admin/post"]').count()).toBeGreaterThan(0);
    await shot(page, 'index');

    // The list, then the add form.
    await follow(page, page.locator('a[href="/admin/post"]').first());
    expect(pathOf(page)).toBe('/admin/post');
    await shot(page, 'list');
    await follow(page, page.locator('a.button[href="/admin/post/add"]'));
    expect(pathOf(page)).toBe('/admin/post/add');

    const title = `Browser post ${Date.now().toString(36)}`;
    await page.locator('#f-title').fill(title);
    await page.locator('#f-body').fill('Written in a real browser.');
    await page.locator('#f-author_id').selectOption({ label: 'Alan Turing (#2)' });
    await page.locator('input[name^="tags."][value="orm"]').check();
    await page.locator('input[name^="tags."][value="rest"]').check();
    await page.locator('#f-published').check();
    const added = await submit(page, page.locator('form[action="/admin/post/add"] button[type="submit"]', { hasText: 'Save' }), '/admin/post/add');
    expect(added.status()).toBe(303);
    const id = pathOf(page).split('/').pop() ?? '';
    expect(id).toMatch(/^\d+$/);
    expect(await page.locator('.flash').allTextContents()).toEqual([expect.stringContaining('was added')]);
    expect(await page.locator('#f-title').inputValue()).toBe(title);
    expect(await page.locator('#f-author_id option:checked').textContent()).toBe('Alan Turing (#2)');
    expect(await page.locator('input[name^="tags."][value="orm"]').isChecked()).toBe(true);
    expect(await page.locator('input[name^="tags."][value="rest"]').isChecked()).toBe(true);
    const row = await store().getById('post', Number(id));
    expect(row).toMatchObject({ title, author_id: 2, published: true });

    // Edit: a new title, one tag fewer.
    const edited = `${title} (edited)`;
    await page.locator('#f-title').fill(edited);
    await page.locator('input[name^="tags."][value="rest"]').uncheck();
    const changed = await submit(page, page.locator(`form[action="/admin/post/${id}"] button[type="submit"]`, { hasText: 'Save' }), `/admin/post/${id}`);
    expect(changed.status()).toBe(303);
    expect(await page.locator('.flash').allTextContents()).toEqual([expect.stringContaining('was changed')]);
    expect(await page.locator('#f-title').inputValue()).toBe(edited);
    expect(await page.locator('input[name^="tags."][value="rest"]').isChecked()).toBe(false);
    await shot(page, 'edit');

    // Search the list.
    await page.goto(at('/admin/post'), { waitUntil: 'load' });
    await page.locator('#q').fill('(edited)');
    await Promise.all([page.waitForEvent('load'), page.locator('#q').press('Enter')]);
    expect(new URL(page.url()).searchParams.get('q')).toBe('(edited)');
    const found = page.locator('tbody th[scope="row"] a');
    expect(await found.allTextContents()).toEqual([edited]);
    expect(await page.locator('.paginator').textContent()).toContain('1 row');

    // Filter: unpublished posts do not include it; published ones do.
    await page.goto(at('/admin/post'), { waitUntil: 'load' });
    const filters = page.locator('aside[aria-label="Filters"]');
    await follow(page, filters.locator('a', { hasText: /^No$/ }).first());
    expect(new URL(page.url()).searchParams.get('published')).toBe('false');
    const drafts = await found.allTextContents();
    expect(drafts).toContain('Draft: poetical science');
    expect(drafts).not.toContain(edited);
    await follow(page, filters.locator('a', { hasText: /^Yes$/ }).first());
    expect(new URL(page.url()).searchParams.get('published')).toBe('true');
    expect(await found.allTextContents()).toContain(edited);

    // Delete through the confirmation page.
    await page.goto(at(`/admin/post/${id}`), { waitUntil: 'load' });
    await follow(page, page.locator(`a.button.danger[href="/admin/post/${id}/delete"]`));
    expect(pathOf(page)).toBe(`/admin/post/${id}/delete`);
    expect(await page.locator('main, body').first().textContent()).toContain(edited);
    const deleted = await submit(page, page.locator('button[type="submit"]', { hasText: 'Yes, delete' }), '/admin/post/delete-selected');
    expect(deleted.status()).toBe(303);
    expect(pathOf(page)).toBe('/admin/post');
    expect(await found.allTextContents()).not.toContain(edited);
    expect(await store().getById('post', Number(id))).toBeNull();

    // The row's history page still answers for the deleted row: add, change, delete, newest first.
    await page.goto(at(`/admin/post/${id}/history`), { waitUntil: 'load' });
    expect(await heading(page)).toContain('History');
    const actions = await page.locator('tbody tr td:nth-child(3)').allTextContents();
    expect(actions).toEqual(['delete', 'change', 'add']);
    const columns = await page.locator('tbody tr td:nth-child(4)').allTextContents();
    expect(columns[1]).toBe('title, tags');
    expect(await page.locator('tbody tr td:nth-child(2)').allTextContents()).toEqual(['root', 'root', 'root']);
  });

  it('a change form saved after someone else changed the row shows both values, keeps the input, and saves on a second try', async () => {
    const page = await signInThroughAdmin('root', 'root-password-1');
    const comment = await store().insert('comment', { post_id: 1, body: 'opened', votes: 1 });
    const id = String(comment.id);
    await page.goto(at(`/admin/comment/${id}`), { waitUntil: 'load' });
    await page.locator('#f-votes').fill('2');
    // Meanwhile, another writer.
    await store().update('comment', Number(id), { votes: 5 });
    const save = () => submit(page, page.locator(`form[action="/admin/comment/${id}"] button[type="submit"]`, { hasText: 'Save' }), `/admin/comment/${id}`);
    const refused = await save();
    expect(refused.status()).toBe(412);
    const notice = page.locator('#conflict');
    expect(await notice.textContent()).toContain('changed by someone else since you opened it');
    expect(await notice.locator('tbody tr').allTextContents()).toEqual(['votes25']);
    expect(await page.locator('#f-votes').inputValue()).toBe('2');
    expect((await store().getById('comment', Number(id)))?.votes).toBe(5);
    const again = await save();
    expect(again.status()).toBe(303);
    expect((await store().getById('comment', Number(id)))?.votes).toBe(2);
  });
});
