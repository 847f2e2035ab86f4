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

  /** The values of `keys`, by `keyOf`: known ones at once, the rest in one read; the first failure is thrown. */
  level(keys: readonly Value[]): Promise<ReadonlyMap<string, V>> {
    return this.collect(keys, true);
  }

  /**
   * DataLoader's batch function (its keys are none that `get` knows): their values in order, read
   * with whatever else is queued in this turn. DataLoader hands its batch over at once
   * (`batchScheduleFn`), so that the keys resolvers ask and the keys levels ask in one turn are
   * one read.
   */
  async batch(keys: readonly Value[]): Promise<V[]> {
    const found = await this.collect(keys, false);
    return keys.map((k) => found.get(keyOf(k)) ?? this.absent);
  }

  /** `withLoads`: wait for DataLoader's own promises too (not from its batch function, whose keys they are). */
  private async collect(keys: readonly Value[], withLoads: boolean): Promise<ReadonlyMap<string, V>> {
    const out = new Map<string, V>();
    const reads = new Map<Promise<ReadonlyMap<string, V>>, string[]>();
    const singles: [string, Promise<V>][] = [];
    for (const k of keys) {
      const key = keyOf(k);
      if (out.has(key)) continue;
      if (this.values.has(key)) {
        out.set(key, this.values.get(key) as V);
        continue;
      }
      out.set(key, this.absent);
      const promise = withLoads ? this.promises.get(key) : undefined;
      if (promise) {
        singles.push([key, promise]);
        continue;
      }
      const read = this.reading.get(key) ?? this.enqueue(key, k);
      const names = reads.get(read);
      if (names) names.push(key);
      else reads.set(read, [key]);
    }
    const waits: Promise<void>[] = [];
    for (const [read, names] of reads) {
      waits.push(
        read.then((found) => {
          for (const key of names) out.set(key, found.get(key) ?? this.absent);
        }),
      );
    }
    for (const [key, promise] of singles) {
      waits.push(
        promise.then((value) => {
          out.set(key, value);
        }),
      );
    }
    if (waits.length === 1) await waits[0];
    else if (waits.length > 1) await Promise.all(waits);
    return out;
  }

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
