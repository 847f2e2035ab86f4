import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

const pg = await postgresAvailable();

/** DESIGN §3 "idempotency": POST, PATCH and DELETE with an Idempotency-Key, across retries. */
function idempotency(backend: 'sqlite' | 'postgresql'): void {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
  });
  afterAll(async () => ref.close());

  const send = (path: string, method: string, body: unknown, key?: string, headers: Record<string, string> = {}, signal?: AbortSignal) =>
    fetch(`${ref.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}), ...headers },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  const named = async (prefix: string) => (await ref.app.store.find('author', {})).filter((r) => String(r.name).startsWith(prefix)).length;

  it('a retry with the same key and body gets the first answer, not a second write', async () => {
    const first = await send('/api/author/', 'POST', { name: 'idem-one' }, 'key-one');
    expect(first.status).toBe(201);
    const body = await first.text();
    const retry = await send('/api/author/', 'POST', { name: 'idem-one' }, 'key-one');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.text()).toBe(body);
    expect(await named('idem-one')).toBe(1);
  });

  it('a JSON answer of more than 2 kB (written as bytes) is replayed byte for byte, with its type and length', async () => {
    const bio = 'Ünïcødé bio, long enough to be written as bytes. '.repeat(60);
    const first = await send('/api/author/', 'POST', { name: 'idem-large', bio }, 'key-large');
    expect(first.status).toBe(201);
    const body = await first.text();
    expect(body.length).toBeGreaterThan(2048);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(first.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    expect((JSON.parse(body) as { bio: string }).bio).toBe(bio);
    const retry = await send('/api/author/', 'POST', { name: 'idem-large', bio }, 'key-large');
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await retry.text()).toBe(body);
    const id = (JSON.parse(body) as { id: number }).id;
    const head = await fetch(`${ref.url}/api/author/${id}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(await (await fetch(`${ref.url}/api/author/${id}`)).text()));
    expect(await head.text()).toBe('');
    expect(await named('idem-large')).toBe(1);
  });

  it('the same key with another body answers 422 and does nothing', async () => {
    await (await send('/api/author/', 'POST', { name: 'idem-two' }, 'key-two')).text();
    const reused = await send('/api/author/', 'POST', { name: 'idem-other' }, 'key-two');
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as { code: string }).code).toBe('idempotency_key_reused');
    expect(await named('idem-other')).toBe(0);
  });

  it('keys are per caller: another caller with the same key gets its own answer', async () => {
    const login = await send('/api/auth/login', 'POST', { username: 'alice', password: 'alice-password-1' });
    const token = ((await login.json()) as { token: string }).token;
    await (await send('/api/author/', 'POST', { name: 'idem-scope' }, 'key-scope')).text();
    const other = await send('/api/author/', 'POST', { name: 'idem-scope' }, 'key-scope', { authorization: `Bearer ${token}` });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(await named('idem-scope')).toBe(2);
  });

  it('a retried DELETE answers like the first (204), not 404', async () => {
    const made = (await (await send('/api/author/', 'POST', { name: 'idem-del' })).json()) as { id: number };
    const del = () => fetch(`${ref.url}/api/author/${made.id}`, { method: 'DELETE', headers: { 'idempotency-key': 'key-del' } });
    expect((await del()).status).toBe(204);
    const again = await del();
    expect(again.status).toBe(204);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await fetch(`${ref.url}/api/author/${made.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('100 creates retried concurrently and after a lost reply leave exactly 100 rows', async () => {
    const create = async (i: number, signal?: AbortSignal): Promise<number> => {
      const res = await send('/api/author/', 'POST', { name: `idem-bulk-${i}` }, `bulk-${i}`, {}, signal);
      await res.arrayBuffer();
      return res.status;
    };
    const settle = async (i: number): Promise<void> => {
      for (let attempt = 0; attempt < 50; attempt++) {
        const status = await create(i);
        if (status === 201) return;
        expect(status).toBe(409); // the first request with the key is still running
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`key bulk-${i} never answered`);
    };
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        if (i % 4 === 0) {
          // A lost reply: the client gives up right after sending, then retries.
          const lost = new AbortController();
          const sent = create(i, lost.signal).catch(() => 0);
          setTimeout(() => lost.abort(), 5);
          await sent;
        }
        await Promise.all([settle(i), settle(i)]);
      }),
    );
    expect(await named('idem-bulk-')).toBe(100);
  });

  it('a malformed key is a 400; requests without a key are untouched', async () => {
    expect((await send('/api/author/', 'POST', { name: 'x' }, 'bad key with spaces')).status).toBe(400);
    expect((await send('/api/author/', 'POST', { name: 'idem-plain' })).status).toBe(201);
    expect((await send('/api/author/', 'POST', { name: 'idem-plain' })).status).toBe(201);
    expect(await named('idem-plain')).toBe(2);
  });
}

describe('idempotency keys on SQLite', () => idempotency('sqlite'));
describe.skipIf(!pg)('idempotency keys on PostgreSQL', () => idempotency('postgresql'));
