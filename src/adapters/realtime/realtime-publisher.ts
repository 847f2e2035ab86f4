import type { Clock } from '../../ports/clock.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { RealtimeHub } from './realtime-hub.js';

/** The event-bus topic every realtime event travels on between processes. */
export const REALTIME_TOPIC = 'portico.realtime';

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

/** What travels on {@link REALTIME_TOPIC}. */
interface WireEvent {
  readonly channel: string;
  readonly id: string;
  readonly data: unknown;
}

/** Publishes through the event bus and feeds what the bus delivers (from every process) to the hub. */
export class RealtimePublisher implements Realtime {
  private readonly origin: string;
  private seq = 0;

  constructor(
    private readonly hub: RealtimeHub,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    random: RandomSource,
  ) {
    this.origin = Buffer.from(random.bytes(6)).toString('base64url');
  }

  /** Starts handing the events of every process to the hub; returns the function that stops it. */
  listen(): () => void {
    return this.bus.subscribe(REALTIME_TOPIC, (payload) => {
      const event = wireEvent(payload);
      if (event && this.hub.resolve(event.channel)) this.hub.deliver(event);
    });
  }

  async publish(channel: string, data: unknown): Promise<string> {
    if (!this.hub.resolve(channel)) {
      throw new Error(`realtime: "${channel}" matches no declared channel (declared: ${this.hub.patterns().join(', ') || 'none'})`);
    }
    const json = JSON.stringify(data ?? null);
    if (json === undefined) throw new Error('realtime: the event data is not JSON');
    const id = `${this.clock.now().getTime().toString(36)}-${this.origin}-${(this.seq++).toString(36)}`;
    const event: WireEvent = { channel, id, data: JSON.parse(json) as unknown };
    await this.bus.publish(REALTIME_TOPIC, event);
    return id;
  }

  channels(): readonly string[] {
    return this.hub.patterns();
  }
}

/** A well-formed event from the bus (another process may run another version), else undefined. */
function wireEvent(payload: unknown): WireEvent | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { channel, id, data } = payload as Record<string, unknown>;
  return typeof channel === 'string' && typeof id === 'string' ? { channel, id, data } : undefined;
}
