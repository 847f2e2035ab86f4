/** The event-bus topic every realtime event travels on between processes. */
export const REALTIME_TOPIC = 'portico.realtime';

/** One published event, as it travels on {@link REALTIME_TOPIC}. */
export interface RealtimeEvent {
  readonly channel: string;
  /** Unique across processes. */
  readonly id: string;
  /** Any JSON value. */
  readonly data: unknown;
}

/** A well-formed event from the bus (another process may run another version), else undefined. */
export function realtimeEvent(payload: unknown): RealtimeEvent | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const { channel, id, data } = payload as Record<string, unknown>;
  return typeof channel === 'string' && typeof id === 'string' ? { channel, id, data } : undefined;
}
