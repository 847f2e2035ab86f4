import { describe, expect, it } from 'vitest';
import { ChannelPattern, isChannelName } from '../../../../src/domain/realtime/channel-pattern.js';

describe('ChannelPattern', () => {
  it('matches literal segments and captures :parameters', () => {
    const p = new ChannelPattern('chat/:room');
    expect(p.match('chat/42')).toEqual({ room: '42' });
    expect(p.match('chat/general-2.x_~')).toEqual({ room: 'general-2.x_~' });
    expect(new ChannelPattern('news').match('news')).toEqual({});
    expect(new ChannelPattern('org/:org/team/:team').match('org/a/team/b')).toEqual({ org: 'a', team: 'b' });
  });

  it('refuses other shapes, empty and non-URL-safe segments', () => {
    const p = new ChannelPattern('chat/:room');
    for (const channel of ['chat', 'chat/', 'chat/42/x', 'news/42', 'chat/4 2', 'chat/%2F', 'chat/ü', '/chat/42', 'chat//42']) {
      expect(p.match(channel), channel).toBeUndefined();
    }
  });

  it('refuses malformed patterns', () => {
    expect(() => new ChannelPattern('chat/:room/:room')).toThrow(/twice/);
    expect(() => new ChannelPattern('chat/a b')).toThrow(/URL-safe/);
    expect(() => new ChannelPattern('')).toThrow();
    expect(() => new ChannelPattern('a/b/c/d/e/f/g/h/i')).toThrow(/segments/);
  });

  it('isChannelName accepts 1-8 URL-safe segments', () => {
    expect(isChannelName('chat/42')).toBe(true);
    expect(isChannelName('chat/4%32')).toBe(false);
    expect(isChannelName('x'.repeat(65))).toBe(false);
  });
});
