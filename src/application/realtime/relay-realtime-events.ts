import type { DeclaredChannels } from '../../domain/realtime/declared-channels.js';
import { REALTIME_TOPIC, realtimeEvent, type RealtimeEvent } from '../../domain/realtime/realtime-event.js';
import type { EventBus } from '../../ports/event-bus.js';

/** The listener side of a process (the realtime adapter's hub): takes every event published on any process. */
export interface RealtimeListeners {
  /** Buffers `event` for resuming clients and writes it to the local listeners of its channel; synchronous, never waits on a client. */
  deliver(event: RealtimeEvent): void;
}

/**
 * Hands the realtime events of every process, as the event bus delivers them, to this
 * process's listeners: malformed events (another version of the app) and channels this process
 * does not declare are dropped.
 */
export class RelayRealtimeEvents {
  constructor(
    private readonly declared: DeclaredChannels,
    private readonly bus: EventBus,
    private readonly listeners: RealtimeListeners,
  ) {}

  /** Starts relaying; returns the function that stops it. */
  start(): () => void {
    return this.bus.subscribe(REALTIME_TOPIC, (payload) => {
      const event = realtimeEvent(payload);
      if (event && this.declared.resolve(event.channel)) this.listeners.deliver(event);
    });
  }
}
