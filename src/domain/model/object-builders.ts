/** Builds a plain object with fixed keys from its values, given in the order of the keys. */
export type ObjectBuilder = (values: readonly unknown[]) => Record<string, unknown>;

/**
 * Objects of one shape built by a compiled object literal (`{ "id": v[0], "title": v[1] }`), so
 * every object gets its final layout in one allocation, from code that only ever sees that layout.
 *
 * They replace the two generic ways of building such objects on the hot path, spreading a
 * template (`{ ...template }`) and storing each key by name (`out[name] = value`): those sites serve
 * every shape of the process, and once they have seen more than a few V8 takes its slowest path for
 * each copy, load and store (docs/performance.md, "Objects built by their shape").
 *
 * Keys are written as JSON string literals, so any key is taken as it is; a later duplicate key wins
 * at the place of the first, as when the keys are stored one by one. A literal cannot have an own
 * key `__proto__` (it would set the prototype), and a process may forbid compiling code from strings
 * (`--disallow-code-generation-from-strings`): then `compiledLiteral` answers undefined and the
 * caller builds its objects one key at a time.
 */

let codeFromStrings = true;

/**
 * A function of `params` returning the object literal of `entries` (each a key and the JavaScript
 * expression of its value, over the params), or undefined where none can be compiled.
 */
export function compiledLiteral<F>(params: readonly string[], entries: readonly (readonly [name: string, expression: string])[]): F | undefined {
  if (entries.some(([name]) => name === '__proto__')) return undefined;
  return compiled<F>(params, `return { ${entries.map(([name, expression]) => `${key(name)}: ${expression}`).join(', ')} };`);
}

/**
 * A function of `params` running `body`, or undefined where code may not be compiled from strings.
 * Only Portico's own templates make the body; any name in it is a JSON string literal (`key`).
 */
export function compiled<F>(params: readonly string[], body: string): F | undefined {
  if (!codeFromStrings) return undefined;
  try {
    return new Function(...params, body) as F;
  } catch (error) {
    // Any other error (a template that does not compile) is a bug, and is not hidden as a refusal.
    if (!(error instanceof EvalError)) throw error;
    // The process was started without code generation from strings.
    codeFromStrings = false;
    return undefined;
  }
}

/** `name` as a JavaScript string literal, for a key in compiled code. */
export const key = (name: string): string => JSON.stringify(name);

/**
 * A builder of objects with these keys, in this order, from their values.
 *
 * @example
 * const row = objectBuilder(['id', 'title']);
 * row([1, 'Hello']); // { id: 1, title: 'Hello' }
 */
export function objectBuilder(keys: readonly string[]): ObjectBuilder {
  return compiledLiteral<ObjectBuilder>(['v'], keys.map((name, i) => [name, `v[${i}]`])) ?? storingBuilder(keys);
}

/** `object[key] = value`, with a key `__proto__` made an own property instead of setting the prototype. */
export function storeKey(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

function storingBuilder(keys: readonly string[]): ObjectBuilder {
  return (values) => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) storeKey(object, keys[i] as string, values[i]);
    return object;
  };
}
