import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

describe('custom actions and their schemas (reference app: publish, recent)', () => {
  let ref: RunningReference;
  let token = '';
  beforeAll(async () => {
    ref = await startReference('sqlite', { env: { THROTTLE: 'off' } });
    const res = await new HttpClient(ref.url).json('/api/auth/login', 'POST', { username: 'bob', password: 'bob-password-1' });
    token = ((await res.json()) as { token: string }).token;
  });
  afterAll(async () => ref.close());
  const call = async (method: string, path: string, body?: unknown, auth = true) => {
    const res = await new HttpClient(ref.url).json(path, method, body, auth ? { authorization: `Bearer ${token}` } : {});
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown>, res };
  };

  it('publish validates the body before the handler, naming the offending field', async () => {
    const missing = await call('POST', '/api/post/3/publish/', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'invalid_input', errors: [{ field: 'reason', message: 'is required' }] });
    const badEnum = await call('POST', '/api/post/3/publish/', { reason: 'ok', channel: 'sms' });
    expect(badEnum.status).toBe(400);
    expect(badEnum.body).toMatchObject({ errors: [{ field: 'channel' }] });
    const badType = await call('POST', '/api/post/3/publish/', { reason: 5 });
    expect(badType.body).toMatchObject({ errors: [{ field: 'reason', message: 'must be string' }] });
    expect((await ref.app.store.getById('post', 3))?.published).toBe(false);
  });

  it('publish sets published and answers 200 with the row', async () => {
    const res = await call('POST', '/api/post/3/publish/', { reason: 'ready', channel: 'web' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 3, published: true });
    expect((await ref.app.store.getById('post', 3))?.published).toBe(true);
  });

  it('actions inherit the resource permission (IsAuthenticated) and 404 outside the scope', async () => {
    expect((await call('POST', '/api/post/1/publish/', { reason: 'x' }, false)).status).toBe(401);
    expect((await call('POST', '/api/post/9999/publish/', { reason: 'x' })).status).toBe(404);
    expect((await call('POST', '/api/post/abc/publish/', { reason: 'x' })).status).toBe(404);
    const wrong = await call('GET', '/api/post/1/publish/');
    expect(wrong.status).toBe(405);
    expect(wrong.res.headers.get('allow')).toBe('OPTIONS, POST');
  });

  it('recent answers the latest published posts, newest first, limited', async () => {
    const res = await new HttpClient(ref.url).request('/api/post/recent/?limit=2', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const posts = (await res.json()) as { id: number; published: boolean; created_at: string }[];
    expect(posts).toHaveLength(2);
    expect(posts.every((p) => p.published)).toBe(true);
    expect(new Date(posts[0]?.created_at ?? 0).getTime()).toBeGreaterThanOrEqual(new Date(posts[1]?.created_at ?? 0).getTime());
    const all = (await (await new HttpClient(ref.url).request('/api/post/recent/?limit=500', { headers: { authorization: `Bearer ${token}` } })).json()) as unknown[];
    expect(all.length).toBeLessThanOrEqual(50);
    expect((await new HttpClient(ref.url).request('/api/post/recent/?limit=zero', { headers: { authorization: `Bearer ${token}` } })).status).toBe(400);
  });

  it('the OpenAPI document publishes both actions with their schemas and stays valid', async () => {
    const doc = (await (await fetch(`${ref.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, { content?: unknown }> }>> };
    const publish = doc.paths['/api/post/{id}/publish']?.post;
    expect(publish?.requestBody).toMatchObject({ content: { 'application/json': { schema: { required: ['reason'] } } } });
    const recent = doc.paths['/api/post/recent']?.get;
    expect(recent?.responses['200']?.content).toMatchObject({ 'application/json': { schema: { type: 'array' } } });
    expect((await new Validator().validate(doc as never)).valid).toBe(true);
  });
});
