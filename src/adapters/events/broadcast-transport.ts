/** Whether a transport's listening connection is up, and if not, why. */
export interface TransportState {
  readonly up: boolean;
  readonly reason?: string;
}

/**
 * A channel every process of an app shares (PostgreSQL LISTEN/NOTIFY, Redis pub/sub). Messages
 * one process sends reach every process listening, the sender included, in the order it sent
 * them. Delivery is at most once: what is sent while a listener is disconnected is not replayed
 * to it.
 */
export interface BroadcastTransport {
  /** A short name for logs and the readiness check (`postgresql`, `redis`). */
  readonly name: string;
  /**
   * Connects and listens; `receive` gets each message's text. Reconnects with backoff until closed.
   * A first connection that fails is not an error: the state says so and retries go on.
   */
  start(receive: (text: string) => void): Promise<void>;
  /**
   * Sends a message's text to every listener. Rejects when it cannot be sent now. May be called
   * again before an earlier call settles: messages go out in call order, and a call settles only
   * after every earlier one has.
   */
  send(text: string): Promise<void>;
  /** The listening connection's state (for `/ready`). */
  state(): TransportState;
  close(): Promise<void>;
}

/** Exponential backoff for reconnecting: 100 ms doubling up to 5 s. */
export function backoffMs(attempt: number): number {
  return Math.min(5_000, 100 * 2 ** Math.min(attempt, 6));
}
