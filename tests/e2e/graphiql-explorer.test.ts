import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchChromium } from '../support/browser.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const browser = await browserAvailable();
const pg = await postgresAvailable();

/**
 * Opens GraphiQL at `GET /graphql` with every request to another origin blocked, waits for its
 * own introspection request, opens the documentation explorer and follows Query (screenshot),
 * then Post.
 */
async function exploreDocs(appUrl: string, screenshot: string) {
  const chromium = await launchChromium();
  try {
    const context = await chromium.newContext({ viewport: { width: 1280, height: 800 } });
    const origin = new URL(appUrl).origin;
    const blocked: string[] = [];
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (new URL(url).origin === origin) return route.continue();
      blocked.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const introspection = page.waitForResponse((r) => r.url() === `${origin}/graphql` && r.request().method() === 'POST' && (r.request().postData() ?? '').includes('__schema'));
    await page.goto(`${appUrl}/graphql`, { waitUntil: 'load' });
    const introspected = await introspection;

    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    const explorer = page.locator('.graphiql-doc-explorer');
    const sections = explorer.locator('.graphiql-doc-explorer-section-content');
    await explorer.locator('.graphiql-doc-explorer-section-title', { hasText: 'Root Types' }).waitFor({ timeout: 15_000 });
    const lines = async (index: number) => (await sections.nth(index).innerText()).split('\n').map((line) => line.trim()).filter(Boolean);
    const rootTypes = await lines(0);
    const allTypes = await lines(1);

    await sections.first().locator('.graphiql-doc-explorer-type-name', { hasText: /^Query$/ }).click();
    await explorer.locator('.graphiql-doc-explorer-title', { hasText: /^Query$/ }).waitFor();
    const queryFields = await explorer.locator('.graphiql-doc-explorer-field-name').allInnerTexts();
    const queryTypeLinks = await explorer.locator('.graphiql-doc-explorer-type-name').allInnerTexts();
    await page.screenshot({ path: screenshot });

    await explorer.locator('.graphiql-doc-explorer-type-name', { hasText: /^Post$/ }).first().click();
    await explorer.locator('.graphiql-doc-explorer-title', { hasText: /^Post$/ }).waitFor();
    const postFields = await explorer.locator('.graphiql-doc-explorer-field-name').allInnerTexts();
    await context.close();
    return { introspectionStatus: introspected.status(), rootTypes, allTypes, queryFields, queryTypeLinks, postFields, errors, blocked };
  } finally {
    await chromium.close();
  }
}

function explorerCase(backend: 'sqlite' | 'postgresql', screenshot: string): void {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
  });
  afterAll(async () => ref.close());

  it.skipIf(!browser)('shows the root types and Query → Post, loaded by GraphiQL’s own introspection', async () => {
    const seen = await exploreDocs(ref.url, screenshot);
    expect(seen.introspectionStatus).toBe(200);
    expect(seen.rootTypes).toEqual(['query: Query', 'mutation: Mutation', 'subscription: Subscription']);
    expect(seen.allTypes).toEqual(expect.arrayContaining(['Author', 'Post', 'Comment']));
    expect(seen.allTypes).not.toContain('AuthUser');
    expect(seen.queryFields).toEqual(expect.arrayContaining(['post', 'posts', 'postsConnection', 'author', 'authors']));
    expect(seen.queryTypeLinks).toContain('Post');
    expect(seen.postFields).toEqual(expect.arrayContaining(['id', 'title', 'author', 'comments']));
    expect(seen.errors).toEqual([]);
    expect(seen.blocked).toEqual([]);
  }, 60_000);
}

describe('GraphiQL documentation explorer on SQLite (development)', () => explorerCase('sqlite', '/tmp/graphiql-docs.png'));
describe.skipIf(!pg)('GraphiQL documentation explorer on PostgreSQL (development)', () => explorerCase('postgresql', '/tmp/graphiql-docs-postgresql.png'));
