import { afterEach, describe, expect, it } from 'vitest';
import {
  AllowAny,
  bearerAuthentication,
  c,
  createApp,
  defineModel,
  IsAuthenticated,
  rest,
  type Logger,
  type PorticoApp,
} from '../../src/index.js';

const note = defineModel('note', { id: c.id(), owner_id: c.int().nullable(), body: c.text(), kind: c.text().default('plain') });
const tally = defineModel('tally', { id: c.id(), n: c.int() });

class RecordingLogger implements Logger {
  readonly warnings: { obj: object; msg?: string }[] = [];
  debug(): void {}
  info(): void {}
  error(): void {}
  warn(obj: object, msg?: string): void {
    this.warnings.push({ obj, ...(msg ? { msg } : {}) });
  }
}

let app: PorticoApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(plugin: ReturnType<typeof rest>, logger?: Logger): Promise<string> {
  app = createApp({ database: 'memory:', models: [note, tally], logRequests: false, ...(logger ? { logger } : {}) }).use(plugin);
  return (await app.listen(0)).url;
}

describe('REST options', () => {
  it('a resource throttle answers 429 with Retry-After once spent', async () => {
    const url = await start(rest().resource({ table: 'note', permission: AllowAny, throttle: '3/min' }));
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${url}/api/note/`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const blocked = await fetch(`${url}/api/note/`);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await blocked.json()).toMatchObject({ code: 'throttled' });
    expect((await fetch(`${url}/api/tally/`)).status).toBe(200);
  });

  it('ownedBy and scope filter rows with AND; another owner\'s row is a 404', async () => {
    const url = await start(
      rest()
        .authenticate(bearerAuthentication())
        .resource({ table: 'note', permission: AllowAny, scope: () => ({ column: 'kind', op: 'eq', value: 'plain' }) }),
    );
    const store = (app as PorticoApp).store;
    await store.insertMany('note', [
      { owner_id: 1, body: 'a' },
      { owner_id: 1, body: 'b', kind: 'draft' },
      { owner_id: 2, body: 'c' },
    ]);
    const list = (await (await fetch(`${url}/api/note/`)).json()) as { count: number; results: { body: string }[] };
    expect(list.results.map((n) => n.body)).toEqual(['a', 'c']);
    expect((await fetch(`${url}/api/note/2`)).status).toBe(404);
    expect((await fetch(`${url}/api/note/2`, { method: 'DELETE' })).status).toBe(404);
    expect(await store.count('note')).toBe(3);
  });

  it('ownedBy shows an anonymous caller nothing', async () => {
    const url = await start(rest().resource({ table: 'note', permission: AllowAny, ownedBy: 'owner_id' }));
    await (app as PorticoApp).store.insert('note', { owner_id: 1, body: 'mine' });
    expect(((await (await fetch(`${url}/api/note/`)).json()) as { count: number }).count).toBe(0);
    expect((await fetch(`${url}/api/note/1`)).status).toBe(404);
  });

  it('transform and computed apply to responses', async () => {
    const url = await start(
      rest().resource({
        table: 'note',
        permission: AllowAny,
        transform: { body: (v) => String(v).toUpperCase() },
        computed: { length: (row) => String(row.body).length },
      }),
    );
    await (app as PorticoApp).store.insert('note', { body: 'hello' });
    expect(await (await fetch(`${url}/api/note/1`)).json()).toEqual({ id: 1, owner_id: null, body: 'HELLO', kind: 'plain', length: 5 });
  });

  it('mounted at the bare root, the API index is not served', async () => {
    const url = await start(rest({ prefix: '' }).resource({ table: 'note', permission: AllowAny }));
    expect((await fetch(`${url}/note/`)).status).toBe(200);
    expect((await fetch(`${url}/`)).status).toBe(404);
  });

  it('resources(iterable) equals one resource() per item', async () => {
    const url = await start(rest().resources(new Set([{ table: 'note', permission: AllowAny }, { table: 'tally', permission: IsAuthenticated }])));
    expect((await fetch(`${url}/api/note/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"body":"x"}' })).status).toBe(201);
    expect((await fetch(`${url}/api/tally/`)).status).toBe(401);
  });

  it('warns at boot when anonymous callers can read or write (no authentication backend)', async () => {
    const logger = new RecordingLogger();
    await start(rest().resource({ table: 'note', permission: AllowAny }), logger);
    const messages = logger.warnings.map((w) => `${JSON.stringify(w.obj)} ${w.msg ?? ''}`);
    expect(messages.some((m) => m.includes('"table":"note"') && m.includes('read and write'))).toBe(true);
    expect(messages.some((m) => m.includes('"table":"tally"') && m.includes('can read'))).toBe(true);
  });

  it('no warning once an authentication backend is set', async () => {
    const logger = new RecordingLogger();
    await start(rest().authenticate(bearerAuthentication()).resource({ table: 'note', permission: AllowAny }), logger);
    expect(logger.warnings.filter((w) => (w.msg ?? '').startsWith('rest:'))).toEqual([]);
  });

  it('a resource() for an unknown table fails at boot', async () => {
    app = createApp({ database: 'memory:', models: [note], logRequests: false }).use(rest().resource({ table: 'nope', permission: AllowAny }));
    await expect(app.listen(0)).rejects.toThrow(/names no registered model/);
  });
});
