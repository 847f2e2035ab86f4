import { describe, expect, it } from 'vitest';
import { AuthorizeChannel } from '../../../../src/application/realtime/authorize-channel.js';
import { ANONYMOUS, type Identity } from '../../../../src/domain/auth/identity.js';
import { DeclaredChannels } from '../../../../src/domain/realtime/declared-channels.js';

const user = (id: number): Identity => ({ isAuthenticated: true, id, username: `u${id}`, isStaff: false, isSuperuser: false, via: 'bearer' });

describe('AuthorizeChannel', () => {
  const make = () => {
    const channels = new DeclaredChannels();
    channels.declare('chat/:room', ({ identity, params }) => identity.isAuthenticated && params.room !== 'staff');
    channels.declare('news');
    return { channels, authorize: new AuthorizeChannel(channels) };
  };

  it('admits by pattern and authorize: unknown 404, anonymous refused 401, identified refused 403', async () => {
    const { channels, authorize } = make();
    expect(await authorize.execute('news', ANONYMOUS)).toEqual({ ok: true, params: {} });
    expect(await authorize.execute('chat/42', user(1))).toEqual({ ok: true, params: { room: '42' } });
    expect(await authorize.execute('chat/42', ANONYMOUS)).toEqual({ ok: false, code: 'not_authenticated' });
    expect(await authorize.execute('chat/staff', user(1))).toEqual({ ok: false, code: 'forbidden' });
    expect(await authorize.execute('weather', user(1))).toEqual({ ok: false, code: 'not_found' });
    expect(() => channels.declare('news')).toThrow(/twice/);
  });

  it('hands authorize the identity, the parameters and the channel, and awaits it', async () => {
    const channels = new DeclaredChannels();
    const seen: unknown[] = [];
    channels.declare('org/:org/team/:team', async (args) => {
      seen.push(args);
      return false;
    });
    expect(await new AuthorizeChannel(channels).execute('org/a/team/b', user(2))).toEqual({ ok: false, code: 'forbidden' });
    expect(seen).toEqual([{ identity: user(2), params: { org: 'a', team: 'b' }, channel: 'org/a/team/b' }]);
  });
});
