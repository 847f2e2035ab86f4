/** One event of a channel, as buffered for resuming clients. */
export interface BufferedEvent {
  readonly id: string;
  readonly data: unknown;
}

/**
 * The last `capacity` events of one channel (a ring), for clients resuming with `Last-Event-ID`.
 *
 * @example
 * const buffer = new ChannelBuffer(100);
 * buffer.append({ id: 'a', data: 1 });
 * buffer.after('a'); // [] — nothing missed
 * buffer.after('zz'); // undefined — not buffered (evicted or unknown): the client has a gap
 */
export class ChannelBuffer {
  private readonly ring: (BufferedEvent | undefined)[];
  private start = 0;
  private size = 0;

  constructor(readonly capacity = 100) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`realtime: bufferSize must be a positive integer (got ${capacity})`);
    this.ring = new Array<BufferedEvent | undefined>(capacity);
  }

  /** Appends an event, evicting the oldest when full. */
  append(event: BufferedEvent): void {
    const end = (this.start + this.size) % this.capacity;
    this.ring[end] = event;
    if (this.size < this.capacity) this.size++;
    else this.start = (this.start + 1) % this.capacity;
  }

  /** The events after the one with `id`, oldest first; undefined when `id` is not buffered. */
  after(id: string): BufferedEvent[] | undefined {
    const events = this.all();
    const at = events.findIndex((e) => e.id === id);
    return at < 0 ? undefined : events.slice(at + 1);
  }

  /** The id of the newest buffered event, if any. */
  lastId(): string | undefined {
    return this.size === 0 ? undefined : (this.ring[(this.start + this.size - 1) % this.capacity] as BufferedEvent).id;
  }

  /** Every buffered event, oldest first. */
  all(): BufferedEvent[] {
    const out: BufferedEvent[] = [];
    for (let i = 0; i < this.size; i++) out.push(this.ring[(this.start + i) % this.capacity] as BufferedEvent);
    return out;
  }
}
