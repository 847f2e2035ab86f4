import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, escapeHtml, liveReload, security, sessions, type PorticoApp } from '../../src/index.js';
import { browserAvailable, launchChromium } from '../support/browser.js';

/*
 * Live reload (development only): HTML pages get the client script, the event stream at
 * /__portico/livereload sends `reload` when a file of a watched folder changes, and a page open in
 * a real browser reloads; in production neither the route nor the script exists.
 */

const ok = await browserAvailable();
const STREAM = '/__portico/livereload';
const SCRIPT = `<script src="${STREAM}/client.js"></script>`;

interface Running {
  readonly app: PorticoApp;
  readonly url: string;
  readonly dir: string;
  close(): Promise<void>;
}

/**
 * An app with sessions and the hardening headers, watching a fresh temp folder whose
 * `templates/message.txt` the page at `/` shows; the page sets a strict CSP (no inline script).
 */
async function start(production: boolean): Promise<Running> {
  const dir = await mkdtemp(join(tmpdir(), 'portico-live-reload-'));
  await mkdir(join(dir, 'templates'));
  const message = join(dir, 'templates', 'message.txt');
  await writeFile(message, 'first');
  const app = createApp({ database: 'memory:', production, secret: 'live-reload-test-secret', logRequests: false })
    .use(sessions())
    .use(security())
    .use(liveReload({ watch: [dir] }))
    .use({
      name: 'page',
      install(ctx) {
        ctx.route({
          method: 'GET',
          path: '/',
          handler: () => ({
            status: 200,
            type: 'text/html; charset=utf-8',
            headers: { 'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'" },
            body: `<!doctype html><html><head><title>live</title></head><body><p id="message">${escapeHtml(readFileSync(message, 'utf8'))}</p></body></html>`,
          }),
        });
        ctx.route({ method: 'GET', path: '/data.json', handler: () => ({ status: 200, body: { html: '</body>' } }) });
      },
    });
  const { url } = await app.listen(0);
  return {
    app,
    url,
    dir,
    async close() {
      await app.close(2000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Reads SSE frames from `body` until `until` returns true for the text received so far. */
async function readEvents(body: ReadableStream<Uint8Array>, until: (text: string) => boolean, timeoutMs = 5000): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    while (!until(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  return text;
}

describe('live reload in development', () => {
  let running: Running;
  beforeAll(async () => {
    running = await start(false);
  });
  afterAll(async () => running?.close());

  it('adds the client script before </body> of HTML pages, and leaves JSON alone', async () => {
    const res = await fetch(`${running.url}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<p id="message">first</p>${SCRIPT}</body>`);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(html));
    expect(await (await fetch(`${running.url}/data.json`)).json()).toEqual({ html: '</body>' });
  });

  it('serves the client script, which listens for `reload` on the event stream', async () => {
    const res = await fetch(`${running.url}${STREAM}/client.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const js = await res.text();
    expect(js).toContain(`new EventSource("${STREAM}")`);
    expect(js).toContain("addEventListener('reload', () => location.reload())");
  });

  it('streams text/event-stream and sends `reload` once a watched file is touched', async () => {
    const controller = new AbortController();
    const res = await fetch(`${running.url}${STREAM}`, { signal: controller.signal });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const body = res.body as ReadableStream<Uint8Array>;
      expect(await readEvents(body, (t) => t.includes('\n\n'))).toBe('retry: 1000\n\n');
      const touched = join(running.dir, 'templates', 'message.txt');
      await writeFile(touched, 'second');
      const events = await readEvents(body, (t) => t.includes('event: reload'));
      expect(events).toContain('event: reload\n');
      expect(events).toMatch(new RegExp(`data: .*message\\.txt`));
    } finally {
      controller.abort();
    }
  });
});

describe('live reload in production', () => {
  let running: Running;
  beforeAll(async () => {
    running = await start(true);
  });
  afterAll(async () => running?.close());

  it('has no event stream and no client script: both answer 404', async () => {
    for (const path of [STREAM, `${STREAM}/client.js`]) {
      const res = await fetch(`${running.url}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      await res.body?.cancel();
    }
  });

  it('adds no script to HTML pages', async () => {
    const html = await (await fetch(`${running.url}/`)).text();
    expect(html).toContain('<p id="message">first</p></body>');
    expect(html).not.toContain('livereload');
  });
});

describe.skipIf(!ok)('live reload in a real browser', () => {
  let browser: Browser;
  let running: Running;
  beforeAll(async () => {
    [browser, running] = await Promise.all([launchChromium(), start(false)]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), running?.close()]);
  });

  it('reloads an open page, under a strict CSP, when a watched file is touched', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      // A CSP violation is reported on the console; the browser's own /favicon.ico request answers 404.
      page.on('console', (m) => void (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico') && errors.push(m.text())));
      const streamOpen = page.waitForResponse((r) => new URL(r.url()).pathname === STREAM);
      await page.goto(`${running.url}/`, { waitUntil: 'load' });
      await streamOpen;
      expect(await page.locator('#message').textContent()).toBe('first');
      await page.evaluate("sessionStorage.setItem('loads', 'before')");

      const reloaded = page.waitForEvent('load');
      await writeFile(join(running.dir, 'templates', 'message.txt'), 'changed on disk');
      await reloaded;
      // writeFile truncates, then writes: on a slow machine the two may be reported apart (two reloads).
      await expect.poll(() => page.locator('#message').textContent()).toBe('changed on disk');
      // The same document session (a reload, not a new tab), and the script ran under the CSP.
      expect(await page.evaluate("sessionStorage.getItem('loads')")).toBe('before');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
