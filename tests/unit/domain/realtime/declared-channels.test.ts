import { describe, expect, it } from 'vitest';
import { refusalFor } from '../../../../src/domain/realtime/channel-authorization.js';
import { DeclaredChannels } from '../../../../src/domain/realtime/declared-channels.js';
import { realtimeEvent } from '../../../../src/domain/realtime/realtime-event.js';
import { ANONYMOUS } from '../../../../src/domain/auth/identity.js';

describe('DeclaredChannels', () => {
  it('resolves a channel to the first pattern it matches, in declaration order', () => {
    const channels = new DeclaredChannels();
    const only = () => true;
    channels.declare('chat/staff', only);
    channels.declare('chat/:room');
    expect(channels.patterns()).toEqual(['chat/staff', 'chat/:room']);
    expect(channels.resolve('chat/staff')).toEqual({ params: {}, authorize: only });
    expect(channels.resolve('chat/42')).toEqual({ params: { room: '42' }, authorize: undefined });
    expect(channels.resolve('chat/4 2')).toBeUndefined();
    expect(channels.resolve('news')).toBeUndefined();
  });

  it('refuses a pattern declared twice, and a malformed one', () => {
    const channels = new DeclaredChannels();
    channels.declare('news');
    expect(() => channels.declare('news')).toThrow(/twice/);
    expect(() => channels.declare('chat/:a/:a')).toThrow(/twice/);
  });
});

describe('the realtime rules', () => {
  it('a refused caller is not_authenticated when anonymous, forbidden when identified', () => {
    expect(refusalFor(ANONYMOUS)).toBe('not_authenticated');
    expect(refusalFor({ ...ANONYMOUS, isAuthenticated: true, id: 1, via: 'session' })).toBe('forbidden');
  });

  it('reads a bus payload as an event only when it has a string channel and id', () => {
    expect(realtimeEvent({ channel: 'news', id: 'a', data: { n: 1 } })).toEqual({ channel: 'news', id: 'a', data: { n: 1 } });
    for (const payload of [null, 'news', 1, { channel: 'news' }, { id: 'a' }, { channel: 1, id: 'a' }]) expect(realtimeEvent(payload), JSON.stringify(payload)).toBeUndefined();
  });
});
