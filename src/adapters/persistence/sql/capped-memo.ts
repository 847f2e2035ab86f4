/**
 * The value `memo` holds for `key`, made by `make(arg)` when it holds none. Past `max` entries a
 * new value is made each time and not kept, so the memory stays bounded whatever names, statements
 * or result shapes the process meets.
 */
export function cappedMemo<K, A, V>(memo: Map<K, V>, max: number, key: K, arg: A, make: (arg: A) => V): V {
  let value = memo.get(key);
  if (value === undefined) {
    value = make(arg);
    if (memo.size < max) memo.set(key, value);
  }
  return value;
}
