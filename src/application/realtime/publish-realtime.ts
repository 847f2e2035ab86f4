import type { DeclaredChannels } from '../../domain/realtime/declared-channels.js';
import { REALTIME_TOPIC, type RealtimeEvent } from '../../domain/realtime/realtime-event.js';
import type { Clock } from '../../ports/clock.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { RandomSource } from '../../ports/random-source.js';

/**
 * Publishing to realtime channels (`app.realtime`): an event reaches the listeners of its
 * channel on every process of the app (through the event bus), over SSE and WebSocket.
 *
 * @example
 * const id = await app.realtime.publish('chat/42', { from: 'ada', text: 'hello' });
 */
export interface Realtime {
  /**
   * Publishes `data` (any JSON value) on `channel`, which must match a declared pattern (else
   * throws an Error). Resolves with the event's id, unique across processes. Inside a
   * transaction the event waits for the commit and is dropped on rollback.
   */
  publish(channel: string, data: unknown): Promise<string>;
  /** The declared channel patterns. */
  channels(): readonly string[];
}

/**
 * Publishes an event on the event bus's {@link REALTIME_TOPIC}, which every process of the app
 * (this one too) relays to its listeners (`RelayRealtimeEvents`). The id is the clock's time,
 * this publisher's random origin and a sequence number: unique across processes.
 */
export class PublishRealtime implements Realtime {
  private readonly origin: string;
  private seq = 0;

  constructor(
    private readonly declared: DeclaredChannels,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    random: RandomSource,
  ) {
    this.origin = Buffer.from(random.bytes(6)).toString('base64url');
  }

  async publish(channel: string, data: unknown): Promise<string> {
    if (!this.declared.resolve(channel)) {
      throw new Error(`realtime: "${channel}" matches no declared channel (declared: ${this.declared.patterns().join(', ') || 'none'})`);
    }
    const json = JSON.stringify(data ?? null);
    if (json === undefined) throw new Error('realtime: the event data is not JSON');
    const id = `${this.clock.now().getTime().toString(36)}-${this.origin}-${(this.seq++).toString(36)}`;
    const event: RealtimeEvent = { channel, id, data: JSON.parse(json) as unknown };
    await this.bus.publish(REALTIME_TOPIC, event);
    return id;
  }

  channels(): readonly string[] {
    return this.declared.patterns();
  }
}
