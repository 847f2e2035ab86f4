import DataLoader from 'dataloader';
import { describe, expect, it } from 'vitest';
import { keyOf, LoaderMemory } from '../../../src/adapters/graphql/loader-memory.js';
import type { Value } from '../../../src/domain/model/types.js';

const STORED: Record<string, string> = { '1': 'Ada', '2': 'Grace', '3': 'Edsger' };

/** A memory over STORED that records each read's keys, and fails the reads whose keys include `failOn`. */
function memory(failOn?: Value) {
  const reads: Value[][] = [];
  const read = (keys: readonly Value[]): Promise<ReadonlyMap<string, string>> => {
    reads.push([...keys]);
    if (failOn !== undefined && keys.includes(failOn)) return Promise.reject(new Error(`read of ${String(failOn)} failed`));
    return Promise.resolve(new Map(keys.filter((k) => STORED[keyOf(k)] !== undefined).map((k) => [keyOf(k), STORED[keyOf(k)] as string])));
  };
  const kept = new LoaderMemory<string | null>(read, null);
  // As Loaders makes it: DataLoader's batch handed to the memory's queue at once.
  const loader = new DataLoader<Value, string | null, string>((keys) => kept.batch(keys), { cacheKeyFn: keyOf, cacheMap: kept, batchScheduleFn: queueMicrotask });
  return { kept, loader, reads };
}

/** The answer's entries for the keys asked (the map answered is the memory's own: it may hold keys asked before). */
const entries = (map: ReadonlyMap<string, unknown>, keys: readonly Value[]) =>
  [...new Set(keys.map(keyOf))].sort().map((key) => {
    expect(map.has(key), `the answer holds ${key}`).toBe(true);
    return [key, map.get(key)];
  });

describe('LoaderMemory', () => {
  it('reads the keys of every level call of one turn together, each once, and answers absent keys with the absent value', async () => {
    const { kept, reads } = memory();
    const [a, b] = await Promise.all([kept.level([1, 2, 1]), kept.level([2, 9])]);
    expect(reads).toEqual([[1, 2, 9]]);
    expect(entries(a, [1, 2, 1])).toEqual([['1', 'Ada'], ['2', 'Grace']]);
    expect(entries(b, [2, 9])).toEqual([['2', 'Grace'], ['9', null]]);
  });

  it('answers settled keys without reading, and reads only the new ones later', async () => {
    const { kept, reads } = memory();
    await kept.level([1, 9]);
    const later = await kept.level([9, 1, 3]);
    expect(reads).toEqual([[1, 9], [3]]);
    expect(entries(later, [9, 1, 3])).toEqual([['1', 'Ada'], ['3', 'Edsger'], ['9', null]]);
  });

  it('shares what it knows with DataLoader both ways: a level read serves later loads, and loads serve later level reads', async () => {
    const { kept, loader, reads } = memory();
    await kept.level([1]);
    expect(await loader.load(1)).toBe('Ada');
    expect(await loader.load(2)).toBe('Grace');
    expect(entries(await kept.level([1, 2]), [1, 2])).toEqual([['1', 'Ada'], ['2', 'Grace']]);
    expect(reads).toEqual([[1], [2]]);
  });

  it('does not read twice a key that the other kind of caller is reading in the same turn', async () => {
    const { kept, loader, reads } = memory();
    const [level, loaded] = await Promise.all([kept.level([1, 2]), loader.load(2)]);
    const [loaded3, level3] = await Promise.all([loader.load(3), kept.level([3])]);
    expect(reads).toEqual([[1, 2], [3]]);
    expect([level.get('2'), loaded, loaded3, level3.get('3')]).toEqual(['Grace', 'Grace', 'Edsger', 'Edsger']);
  });

  it('throws a failed read to every caller waiting for it, and reads the keys again when asked again', async () => {
    const { kept, reads } = memory(2);
    const [first, second] = await Promise.allSettled([kept.level([1, 2]), kept.level([2])]);
    expect(first).toMatchObject({ status: 'rejected', reason: { message: 'read of 2 failed' } });
    expect(second).toMatchObject({ status: 'rejected', reason: { message: 'read of 2 failed' } });
    expect(entries(await kept.level([1]), [1])).toEqual([['1', 'Ada']]);
    expect(reads).toEqual([[1, 2], [1]]);
  });

  it('reads the keys resolvers and levels ask in one turn together', async () => {
    const { kept, loader, reads } = memory();
    const loads = [loader.load(3), loader.load(1)];
    const level = kept.level([1, 2]);
    expect(await Promise.all(loads)).toEqual(['Edsger', 'Ada']);
    expect(entries(await level, [1, 2])).toEqual([['1', 'Ada'], ['2', 'Grace']]);
    expect(reads.map((keys) => [...keys].sort())).toEqual([[1, 2, 3]]);
  });

  it('lets DataLoader forget a key its own read failed for', async () => {
    const { loader, kept, reads } = memory(3);
    await expect(loader.load(3)).rejects.toThrow('read of 3 failed');
    await expect(kept.level([3])).rejects.toThrow('read of 3 failed');
    expect(reads).toEqual([[3], [3]]);
  });
});
