import { describe, expect, it } from 'vitest';
import { RealtimeHub } from '../../../../src/adapters/realtime/realtime-hub.js';
import { openEventStream } from '../../../../src/adapters/realtime/sse-endpoint.js';
import { ShuttingDown } from '../../../../src/domain/errors/domain-error.js';

describe('the SSE endpoint while the app drains', () => {
  it('refuses a new stream with the error a WebSocket upgrade is refused with (503 overloaded, Retry-After 1), before identifying the caller', async () => {
    const hub = new RealtimeHub();
    hub.declare('news');
    let identified = false;
    const opening = openEventStream(hub, {
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
