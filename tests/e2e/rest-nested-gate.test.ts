import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AllowAny, c, createApp, defineModel, rest, type PorticoApp } from '../../src/index.js';

describe('the nested write gate', () => {
  const box = defineModel('box', { id: c.id(), label: c.text() });
  const thing = defineModel('thing', { id: c.id(), box_id: c.fk('box'), name: c.text(), vip: c.bool().default(false).privileged(), note: c.text().nullable() });
  let app: PorticoApp;
  let url: string;
  beforeAll(async () => {
    app = createApp({ database: 'memory:', models: [box, thing], logRequests: false }).use(
      rest()
        .resource({ table: 'box', permission: AllowAny, nested: [{ key: 'things', table: 'thing' }] })
        .resource({ table: 'thing', hide: ['note'] }),
    );
    ({ url } = await app.listen(0));
  });
  afterAll(async () => app.close());
  const post = (body: unknown) => fetch(`${url}/api/box/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('checks each child\'s create permission (a ReadOnly child: 403) and writes nothing', async () => {
    const res = await post({ label: 'b', things: [{ name: 't' }] });
    expect(res.status).toBe(403);
    expect(await app.store.count('box')).toBe(0);
  });

  it('refuses a privileged field on a child with 400 and strips hidden ones', async () => {
    await app.close();
    app = createApp({ database: 'memory:', models: [box, thing], logRequests: false }).use(
      rest()
        .resource({ table: 'box', permission: AllowAny, nested: [{ key: 'things', table: 'thing' }] })
        .resource({ table: 'thing', permission: AllowAny, hide: ['note'] }),
    );
    ({ url } = await app.listen(0));
    const bad = await post({ label: 'b', things: [{ name: 't', vip: true }] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'privileged_field' });
    expect(await app.store.count('box')).toBe(0);
    const ok = await post({ label: 'b', things: [{ name: 't', note: 'secret' }] });
    expect(ok.status).toBe(201);
    expect((await app.store.find('thing'))[0]?.note).toBeNull();
  });
});
