/** Whether a transport's listening connection is up, and if not, why. */
export interface TransportState {
  readonly up: boolean;
  readonly reason?: string;
}

/**
 * A channel every process of an app shares (PostgreSQL LISTEN/NOTIFY, Redis pub/sub). Messages
 * one process sends reach every process listening, the sender included, in the order it sent
 * them. What is sent while a listener is disconnected is not replayed to it: the transport says
 * when its listener goes down and comes back (`changed`), so the bus can report the gap.
 * Sending while the connection is down holds the message (up to a bound) and sends it once back.
 */
export interface BroadcastTransport {
  /** A short name for logs and the readiness check (`postgresql`, `redis`). */
  readonly name: string;
  /**
   * Connects and listens; `receive` gets each message's text. Reconnects with backoff until closed.
   * A first connection that fails is not an error: the state says so and retries go on.
   */
  start(receive: (text: string) => void, changed: (up: boolean) => void): Promise<void>;
  /**
   * Sends a message's text to every listener. While the connection is down the message waits
   * (behind the others) and goes once it is back; it rejects when more than `MAX_HELD_MESSAGES`
   * wait, when the server refuses it, or at `close`. May be called again before an earlier call
   * settles: messages go out in call order, and a call settles only after every earlier one has.
   * A message whose sending was cut by a lost connection may arrive twice.
   */
  send(text: string): Promise<void>;
  /** The listening connection's state (for `/ready`). */
  state(): TransportState;
  close(): Promise<void>;
}

/** Messages a transport holds while its connection is down; beyond, a send is refused. */
export const MAX_HELD_MESSAGES = 10_000;

/** Exponential backoff for reconnecting: 100 ms doubling up to 5 s. */
export function backoffMs(attempt: number): number {
  return Math.min(5_000, 100 * 2 ** Math.min(attempt, 6));
}
