import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchChromium } from '../support/browser.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const browser = await browserAvailable();

describe('GraphiQL and introspection (development only)', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
  });
  afterAll(async () => ref.close());

  it('GET /graphql serves the explorer page and its assets', async () => {
    const page = await fetch(`${ref.url}/graphql`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('/graphql/assets/graphiql.js');
    expect(html).not.toMatch(/https?:\/\/(unpkg|cdn|jsdelivr)/);
    for (const [file, type] of [['react.js', 'application/javascript'], ['react-dom.js', 'application/javascript'], ['graphiql.js', 'application/javascript'], ['graphiql.css', 'text/css']]) {
      const res = await fetch(`${ref.url}/graphql/assets/${file}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
    }
    expect((await fetch(`${ref.url}/graphql/assets/nope.js`)).status).toBe(404);
  });

  it('is off in production', async () => {
    const prod = await startReference('sqlite', { env: { THROTTLE: 'off', NODE_ENV: 'production' } });
    try {
      expect((await fetch(`${prod.url}/graphql`)).status).toBe(405);
      expect((await fetch(`${prod.url}/graphql/assets/graphiql.js`)).status).toBe(404);
      const introspect = await fetch(`${prod.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __schema { types { name } } }' }) });
      expect(JSON.stringify(await introspect.json())).toMatch(/introspection/i);
      const plain = await fetch(`${prod.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ authors { name } }' }) });
      expect(((await plain.json()) as { data: { authors: unknown[] } }).data.authors).toHaveLength(2);
    } finally {
      await prod.close();
    }
  });

  it.skipIf(!browser)('renders in chromium with no network beyond the app, and runs a query', async () => {
    const chromium = await launchChromium();
    try {
      const context = await chromium.newContext();
      const blocked: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith(ref.url)) return route.continue();
        blocked.push(url);
        return route.abort();
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${ref.url}/graphql`, { waitUntil: 'load' });
      await page.waitForSelector('.graphiql-container', { timeout: 15_000 });
      expect(errors).toEqual([]);
      expect(blocked).toEqual([]);
      await context.close();
    } finally {
      await chromium.close();
    }
  });
});
