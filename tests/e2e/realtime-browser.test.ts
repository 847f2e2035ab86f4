import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchChromium } from '../support/browser.js';
import { freshPgSchema, postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const ok = (await browserAvailable()) && (await postgresAvailable());

/**
 * A browser's own EventSource (headless Chromium) on app A hears what app B publishes: two
 * reference apps on one PostgreSQL schema, events through LISTEN/NOTIFY.
 */
describe.skipIf(!ok)('realtime channels in a real browser, across apps', () => {
  const schema = freshPgSchema();
  let browser: Browser;
  let a: RunningReference;
  let b: RunningReference;
  beforeAll(async () => {
    browser = await launchChromium();
    a = await startReference('postgresql', { database: schema.url, env: { THROTTLE: 'off' } });
    b = await startReference('postgresql', { database: schema.url, env: { THROTTLE: 'off' } });
  }, 60_000);
  afterAll(async () => {
    await Promise.all([browser?.close(), a?.close(), b?.close()]);
    await schema.drop();
  });

  it('an EventSource on A receives a publish made on B, with its id; an unknown channel errors', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${a.url}/`, { waitUntil: 'load' });
    const received = page.evaluate(
      () =>
        new Promise<{ id: string; data: unknown }>((resolve, reject) => {
          const source = new EventSource('/realtime/events?channel=news');
          source.addEventListener('message', (e) => {
            source.close();
            resolve({ id: e.lastEventId, data: JSON.parse(e.data) as unknown });
          });
          source.addEventListener('open', () => ((globalThis as unknown as { opened: boolean }).opened = true));
          setTimeout(() => reject(new Error('no event in 10 s')), 10_000);
        }),
    );
    await page.waitForFunction(() => (globalThis as unknown as { opened?: boolean }).opened === true);
    const id = await b.app.realtime.publish('news', { hello: 'from B' });
    expect(await received).toEqual({ id, data: { hello: 'from B' } });
    const unknown = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const source = new EventSource('/realtime/events?channel=nope');
          source.onerror = () => {
            resolve(source.readyState === EventSource.CLOSED ? 'closed' : 'retrying');
            source.close();
          };
        }),
    );
    expect(unknown).toBe('closed'); // a 404 is not an event stream: the browser gives up
  });
});
