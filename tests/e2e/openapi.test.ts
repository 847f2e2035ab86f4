import { Validator } from '@seriousme/openapi-schema-validator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, defineModel, c, openapi, rest, AllowAny } from '../../src/index.js';
import { browserAvailable, launchChromium } from '../support/browser.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/*
 * The OpenAPI plugin on the reference app (DESIGN §3 "OpenAPI", "developer pages"; SPEC
 * "View scope" 5): the document validates against the OpenAPI 3.1 schema with an independent
 * validator, follows views and the field policy, and Swagger UI is served from swagger-ui-dist.
 */

type Doc = { openapi: string; paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
const ASSETS: readonly (readonly [string, string])[] = [
  ['/api/docs/swagger-ui.css', 'text/css; charset=utf-8'],
  ['/api/docs/swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['/api/docs/swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
];
const operations = (item: Record<string, unknown> | undefined) => Object.keys(item ?? {}).filter((k) => k !== 'parameters');

describe('OpenAPI document and Swagger UI in development', () => {
  let ref: RunningReference;
  let doc: Doc;

  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
  });
  afterAll(async () => ref?.close());

  it('GET /api/openapi.json answers the document as JSON', async () => {
    const res = await ref.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await res.json()) as Doc;
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is a valid OpenAPI 3.1 document for an independent validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('keeps only the operations the views keep', () => {
    expect(operations(doc.paths['/api/ticket'])).toEqual(['get']);
    expect(operations(doc.paths['/api/ticket/{id}'])).toEqual(['get']);
    expect(operations(doc.paths['/api/list_only'])).toEqual(['get']);
    expect(doc.paths['/api/list_only/{id}']).toBeUndefined();
    expect(operations(doc.paths['/api/author'])).toEqual(['get', 'post']);
    expect(operations(doc.paths['/api/author/{id}'])).toEqual(['get', 'put', 'patch', 'delete']);
  });

  it('documents only served tables', () => {
    const paths = Object.keys(doc.paths);
    for (const table of ['auth_user', 'secret_config', 'session']) expect(paths.filter((p) => p.includes(table))).toEqual([]);
    expect(paths).toContain('/api/order_item/{id}');
  });

  it('never names a hidden column or password_hash', () => {
    const text = JSON.stringify(doc);
    for (const secret of ['secret_note', 'moderation_note', 'password_hash', '"secret"']) expect(text).not.toContain(secret);
  });

  it('types each relation ?include= adds on the row, and says what a client generator needs (x-portico-*)', () => {
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, unknown>; 'x-portico-columns'?: string[] }>;
    const post = schemas.Post;
    expect(post?.['x-portico-columns']).toEqual(['id', 'title', 'body', 'author_id', 'created_by_id', 'published', 'featured', 'score', 'created_at', 'deleted_at']);
    expect(post?.properties.author).toMatchObject({ oneOf: [{ $ref: '#/components/schemas/Author' }, { type: 'null' }] });
    // auth_user is served by no resource: its row has a schema of its own, with its default hidden columns left out.
    expect(post?.properties.created_by).toMatchObject({ oneOf: [{ $ref: '#/components/schemas/AuthUser' }, { type: 'null' }] });
    expect(Object.keys(schemas.AuthUser?.properties ?? {})).toEqual(['id', 'username', 'is_staff', 'is_superuser', 'is_active', 'date_joined']);
    expect(schemas.Comment?.properties.post).toMatchObject({ oneOf: [{ $ref: '#/components/schemas/Post' }, { type: 'null' }] });
    const list = (doc.paths['/api/post'] as { get: { parameters: { name?: string; 'x-portico-items'?: string[]; 'x-portico-lookups'?: string[] }[] } }).get.parameters;
    const param = (name: string) => list.find((p) => p.name === name);
    expect(param('include')?.['x-portico-items']).toEqual(['author', 'created_by', 'tags']);
    expect(param('fields')?.['x-portico-items']).toEqual(post?.['x-portico-columns']);
    expect(param('ordering')?.['x-portico-items']).toContain('created_at');
    expect(param('title')?.['x-portico-lookups']).toEqual(['ne', 'gt', 'gte', 'lt', 'lte', 'in', 'isnull', 'contains', 'icontains', 'iexact', 'startswith']);
    expect(param('score')?.['x-portico-lookups']).toEqual(['ne', 'gt', 'gte', 'lt', 'lte', 'in', 'isnull']);
  });

  it('is advertised in the API root', async () => {
    const root = (await (await ref.get('/api/')).json()) as { endpoints: { group: string; path: string }[] };
    expect(root.endpoints.filter((e) => e.group === 'openapi').map((e) => e.path)).toEqual(['/api/openapi.json', '/api/docs']);
  });

  it('GET /api/docs answers the Swagger UI page in UTF-8, loading the local assets', async () => {
    const res = await ref.get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('/api/docs/swagger-ui-bundle.js');
    expect(html).toContain('/api/docs/swagger-ui-standalone-preset.js');
    expect(html).toContain('/api/docs/swagger-ui.css');
    expect(html).toContain('"/api/openapi.json"');
    expect(html).not.toMatch(/https?:\/\//);
  });

  it.each(ASSETS)('GET %s answers the swagger-ui-dist file as %s', async (path, type) => {
    const res = await ref.get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect((await res.text()).length).toBeGreaterThan(1000);
  });
});

describe('OpenAPI in production (off unless enabled)', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { NODE_ENV: 'production', THROTTLE: 'off' } });
  });
  afterAll(async () => ref?.close());

  it.each(['/api/openapi.json', '/api/docs', ...ASSETS.map(([p]) => p)])('GET %s answers 404', async (path) => {
    expect((await ref.get(path)).status).toBe(404);
  });

  it('is not advertised in the API root', async () => {
    const root = (await (await ref.get('/api/')).json()) as { endpoints: { group: string }[] };
    expect(root.endpoints.some((e) => e.group === 'openapi')).toBe(false);
  });
});

describe('openapi() mounting', () => {
  it('refuses to start when mounted before rest()', async () => {
    const app = createApp({ database: 'sqlite::memory:', logRequests: false }).use(openapi()).use(rest());
    try {
      await expect(app.start()).rejects.toThrow('openapi() must be mounted after rest()');
    } finally {
      await app.close();
    }
  });

  it('follows the REST prefix and serves in production when enabled: true', async () => {
    const app = createApp({ database: 'sqlite::memory:', logRequests: false, production: true, autoMigrate: true, models: [defineModel('note', { id: c.id(), body: c.text() })] })
      .use(rest({ prefix: '/v1' }).resource({ table: 'note', permission: AllowAny, views: ['List'] }))
      .use(openapi({ enabled: true, title: 'Notes', version: '2.0.0' }));
    const { url } = await app.listen(0);
    try {
      const res = await fetch(`${url}/v1/openapi.json`);
      expect(res.status).toBe(200);
      const doc = (await res.json()) as Doc & { info: unknown };
      expect(doc.info).toMatchObject({ title: 'Notes', version: '2.0.0' });
      expect(Object.keys(doc.paths)).toEqual(['/v1/note']);
      expect((await new Validator().validate(doc)).valid).toBe(true);
      expect((await fetch(`${url}/v1/docs`)).status).toBe(200);
      expect((await fetch(`${url}/v1/docs/swagger-ui.css`)).status).toBe(200);
      expect((await fetch(`${url}/api/openapi.json`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });
});

const withBrowser = await browserAvailable();

describe.skipIf(!withBrowser)('Swagger UI in a real browser with no network', () => {
  let browser: Browser;
  let ref: RunningReference;

  beforeAll(async () => {
    [browser, ref] = await Promise.all([launchChromium(), startReference('sqlite', { env: { THROTTLE: 'off' } })]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), ref?.close()]);
  });

  it('renders the operations from the local assets and the document', async () => {
    const context = await browser.newContext();
    context.setDefaultTimeout(15_000);
    const blocked: string[] = [];
    const errors: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.protocol === 'data:' || url.hostname === '127.0.0.1') return route.continue();
      blocked.push(url.href);
      return route.abort();
    });
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(`${ref.url}/api/docs`, { waitUntil: 'load' });
      await page.locator('.swagger-ui').first().waitFor();
      await page.locator('.opblock').first().waitFor();
      expect(await page.locator('.opblock-tag', { hasText: 'order_item' }).count()).toBeGreaterThan(0);
      expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
      expect(blocked).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
