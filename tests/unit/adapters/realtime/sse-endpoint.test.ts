import { describe, expect, it } from 'vitest';
import { RealtimeHub } from '../../../../src/adapters/realtime/realtime-hub.js';
import { openEventStream } from '../../../../src/adapters/realtime/sse-endpoint.js';
import { AuthorizeChannel } from '../../../../src/application/realtime/authorize-channel.js';
import { DeclaredChannels } from '../../../../src/domain/realtime/declared-channels.js';
import { ShuttingDown } from '../../../../src/domain/errors/domain-error.js';

describe('the SSE endpoint while the app drains', () => {
  it('refuses a new stream with the error a WebSocket upgrade is refused with (503 overloaded, Retry-After 1), before identifying the caller', async () => {
    const hub = new RealtimeHub();
    const channels = new DeclaredChannels();
    channels.declare('news');
    let identified = false;
    const opening = openEventStream(hub, new AuthorizeChannel(channels), {
      channel: 'news',
      lastEventId: undefined,
      ip: '127.0.0.1',
      draining: true,
      identity: () => {
        identified = true;
        return Promise.reject(new Error('not reached'));
      },
    });
    await expect(opening).rejects.toBeInstanceOf(ShuttingDown);
    await expect(opening).rejects.toMatchObject({ code: 'overloaded', retryAfterSeconds: 1 });
    expect(identified).toBe(false);
  });
});

describe('the SSE endpoint\'s parameters', () => {
  const open = (channel: unknown, lastEventId?: unknown) => {
    const hub = new RealtimeHub();
    const channels = new DeclaredChannels();
    channels.declare('news');
    let identified = false;
    const opening = openEventStream(hub, new AuthorizeChannel(channels), {
      channel,
      lastEventId,
      ip: '127.0.0.1',
      draining: false,
      identity: () => {
        identified = true;
        return Promise.reject(new Error('not reached'));
      },
    });
    return { opening, identified: () => identified };
  };

  it('refuses a channel given twice with 400 naming the parameter, rather than serving the first', async () => {
    const { opening, identified } = open(['news', 'sport']);
    await expect(opening).rejects.toMatchObject({ code: 'invalid_input', errors: [{ field: 'channel', message: 'given more than once' }] });
    await expect(opening).rejects.toThrow('channel may be given once (a stream serves one channel; the WebSocket endpoint serves several)');
    expect(identified()).toBe(false);
  });

  it('holds channel names and event ids to the WebSocket endpoint\'s lengths (512, 200)', async () => {
    await expect(open('n'.repeat(513)).opening).rejects.toThrow('channel is longer than 512 characters');
    await expect(open('news', 'i'.repeat(201)).opening).rejects.toThrow('lastEventId is longer than 200 characters');
    await expect(open('news', ['a', 'b']).opening).rejects.toThrow(/^lastEventId may be given once$/);
    await expect(open('news', ['a', 'b']).opening).rejects.toMatchObject({ code: 'invalid_input', errors: [{ field: 'lastEventId', message: 'given more than once' }] });
    // At the limits the request goes on to identify its caller.
    await expect(open('n'.repeat(512), 'i'.repeat(200)).opening).rejects.toThrow('not reached');
  });
});
