import type { Value } from '../../domain/model/types.js';

/** A map key for a column value (Dates by instant). */
export const keyOf = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));

/** Keys waiting for the next read: one promise for all of them. */
interface Queued<V> {
  readonly keys: Value[];
  readonly names: string[];
  readonly read: Promise<ReadonlyMap<string, V>>;
}

/**
 * What one loader of a request knows, and its batching, shared by its two kinds of callers:
 * DataLoader (the general executor's resolvers, one key a call; this is its `cacheMap` and its
 * batch function) and the plain executor (a whole level's keys a call, `level`). A key is read
 * once per request whichever asks first: values settled, reads in flight and keys queued for the
 * next read are visible to both, and the keys both ask in one turn are one read, made when the
 * turn's promise jobs have run (DataLoader's own moment).
 *
 * `level` holds one promise per read, not per key (DataLoader's `loadMany` makes a promise and a
 * catch handler for every key: about 150 promise jobs for the 50 parents of a list field).
 */
export class LoaderMemory<V> {
  private readonly promises = new Map<string, Promise<V>>();
  private readonly values = new Map<string, V>();
  private readonly reading = new Map<string, Promise<ReadonlyMap<string, V>>>();
  private queued: Queued<V> | undefined;

  /**
   * @param read the values of these keys, by `keyOf` (a key it leaves out gets `absent`)
   * @param absent the value of a key with nothing stored
   */
  constructor(
    private readonly read: (keys: readonly Value[]) => Promise<ReadonlyMap<string, V>>,
    private readonly absent: V,
  ) {}

  /** DataLoader's cache: the key's value if known, settled or coming. */
  get(key: string): Promise<V> | undefined {
    const promise = this.promises.get(key);
    if (promise) return promise;
    if (this.values.has(key)) return Promise.resolve(this.values.get(key) as V);
    return this.reading.get(key)?.then((found) => found.get(key) ?? this.absent);
  }

  set(key: string, promise: Promise<V>): this {
    this.promises.set(key, promise);
    return this;
  }

  /** DataLoader forgets a key whose read failed, so that a later call reads it again. */
  delete(key: string): boolean {
    const had = this.promises.delete(key);
    return this.values.delete(key) || had;
  }

  clear(): void {
    this.promises.clear();
    this.values.clear();
  }

  /**
   * The values of `keys`, by `keyOf`: known ones at once, the rest in one read; the first failure
   * is thrown. The map answered is the memory's own (every key asked is in it, others may be).
   */
  async level(keys: readonly Value[]): Promise<ReadonlyMap<string, V>> {
    await this.settle(keys, true);
    return this.values;
  }

  /**
   * DataLoader's batch function (its keys are none that `get` knows): their values in order, read
   * with whatever else is queued in this turn. DataLoader hands its batch over at once
   * (`batchScheduleFn`), so that the keys resolvers ask and the keys levels ask in one turn are
   * one read.
   */
  async batch(keys: readonly Value[]): Promise<V[]> {
    await this.settle(keys, false);
    return keys.map((k) => this.values.get(keyOf(k)) ?? this.absent);
  }

  /**
   * Waits until every key of `keys` has its value in `values`: the reads already under way, one
   * new read for the rest, and (`withLoads`) DataLoader's own promises (not from its batch
   * function, whose keys they are).
   */
  private async settle(keys: readonly Value[], withLoads: boolean): Promise<void> {
    const waits = new Set<Promise<unknown>>();
    for (const k of keys) {
      const key = keyOf(k);
      if (this.values.has(key)) continue;
      const promise = withLoads ? this.promises.get(key) : undefined;
      if (promise) {
        waits.add(promise.then((value) => void this.values.set(key, value)));
        continue;
      }
      waits.add(this.reading.get(key) ?? this.enqueue(key, k));
    }
    if (waits.size === 1) for (const wait of waits) await wait;
    else if (waits.size > 1) await Promise.all(waits);
  }

  /** Queues `k` for the turn's read (made with the first key queued); the read fills `values` before anyone awaiting it resumes. */
  private enqueue(key: string, k: Value): Promise<ReadonlyMap<string, V>> {
    let queued = this.queued;
    if (!queued) {
      const keys: Value[] = [];
      const names: string[] = [];
      // DataLoader's moment: after the promise jobs of this turn, so every caller of the turn has queued.
      const turnEnd = new Promise<void>((resolve) => {
        void Promise.resolve().then(() => process.nextTick(resolve));
      });
      const read = turnEnd
        .then(() => {
          this.queued = undefined;
          return this.read(keys);
        })
        .then(
          (found) => {
            for (const name of names) {
              this.values.set(name, found.get(name) ?? this.absent);
              this.reading.delete(name);
            }
            return found;
          },
          (error: unknown) => {
            for (const name of names) this.reading.delete(name);
            throw error;
          },
        );
      queued = this.queued = { keys, names, read };
    }
    queued.keys.push(k);
    queued.names.push(key);
    this.reading.set(key, queued.read);
    return queued.read;
  }
}
