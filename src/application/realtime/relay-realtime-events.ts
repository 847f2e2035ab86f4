import type { DeclaredChannels } from '../../domain/realtime/declared-channels.js';
import { REALTIME_TOPIC, realtimeEvent, type RealtimeEvent } from '../../domain/realtime/realtime-event.js';
import type { BusGap, EventBus } from '../../ports/event-bus.js';

/** The listener side of a process (the realtime adapter's hub): takes every event published on any process. */
export interface RealtimeListeners {
  /** Buffers `event` for resuming clients and writes it to the local listeners of its channel; synchronous, never waits on a client. */
  deliver(event: RealtimeEvent): void;
  /** The bus may have missed events of other processes: resumes across the hole must answer a gap, and (once it is over) live streams are told. */
  gap(gap: BusGap): void;
}

/**
 * Hands the realtime events of every process, as the event bus delivers them, to this
 * process's listeners: malformed events (another version of the app) and channels this process
 * does not declare are dropped. What the bus may have missed is handed on as a gap.
 */
export class RelayRealtimeEvents {
  constructor(
    private readonly declared: DeclaredChannels,
    private readonly bus: EventBus,
    private readonly listeners: RealtimeListeners,
  ) {}

  /** Starts relaying (events and the bus's gaps); returns the function that stops it. */
  start(): () => void {
    const stopEvents = this.bus.subscribe(REALTIME_TOPIC, (payload) => {
      const event = realtimeEvent(payload);
      if (event && this.declared.resolve(event.channel)) this.listeners.deliver(event);
    });
    const stopGaps = this.bus.onGap?.((gap) => this.listeners.gap(gap)) ?? (() => undefined);
    return () => {
      stopEvents();
      stopGaps();
    };
  }
}
