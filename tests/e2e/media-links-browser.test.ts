import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newFileKey } from '../../src/index.js';
import { browserAvailable, browserPerTest } from '../support/browser.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * Issue 51, stored markup in chromium: an HTML page or an SVG with a script, opened through its
 * signed link, is downloaded rather than rendered, and never runs (no dialog); an allowlisted
 * image is shown.
 */
const ok = await browserAvailable();
const dir = mkdtempSync(join(tmpdir(), 'portico-media-browser-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function* once(text: string | Uint8Array): AsyncIterable<Uint8Array> {
  yield typeof text === 'string' ? Buffer.from(text) : text;
}

describe.skipIf(!ok)('stored markup in a real browser', () => {
  const session = browserPerTest<RunningReference>(() => startReference('sqlite', { env: { STORAGE_URL: `file:${dir}` } }));

  it.each([
    ['text/html', '<!doctype html><script>alert("stored xss")</script>', 'page.html'],
    ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>', 'image.svg'],
  ])('%s with a script is downloaded and runs nothing', async (type, markup, name) => {
    const ref = session.server();
    const key = newFileKey(randomUUID(), type, 'browser');
    await ref.app.storage.put(key, once(markup), { contentType: type });
    const page = await session.page();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const download = page.waitForEvent('download');
    await page.goto(session.at(ref.app.mediaUrl(key, name))).catch(() => undefined);
    expect((await download).suggestedFilename()).toBe(name);
    expect(dialogs).toEqual([]);
  });

  it('shows an allowlisted image', async () => {
    const ref = session.server();
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const key = newFileKey(randomUUID(), 'image/png', 'browser');
    await ref.app.storage.put(key, once(png), { contentType: 'image/png' });
    const page = await session.page();
    const res = await page.goto(session.at(ref.app.mediaUrl(key, 'dot.png')));
    expect(res?.status()).toBe(200);
    expect(await page.locator('img').count()).toBe(1);
  });
});
