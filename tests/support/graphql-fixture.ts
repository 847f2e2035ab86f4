import { parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { expect } from 'vitest';
import { MemoryEventBus } from '../../src/adapters/events/memory-event-bus.js';
import { buildGraphqlSchema, type GraphqlContext } from '../../src/adapters/graphql/build-schema.js';
import { memoryRecords } from '../../src/adapters/persistence/open-database.js';
import { cryptoRandomSource } from '../../src/adapters/system/crypto-random-source.js';
import type { Identity } from '../../src/domain/auth/identity.js';
import { c, defineModel, ModelRegistry } from '../../src/domain/model/index.js';
import type { RecordStore } from '../../src/ports/record-store.js';
import { graphqlContext } from './graphql-context.js';
import { ManualClock } from './open-test-database.js';

/**
 * What the GraphQL executor's tests share: a schema of four models (a private column unlocked for
 * staff, a staff-only model), a memory store with a few rows of each, and requests over a store
 * whose reads are recorded.
 */
export const registry = ModelRegistry.build([
  defineModel('author', { id: c.id(), name: c.text(), note: c.text().nullable().private(), joined_at: c.timestamp().nullable() }),
  defineModel('post', { id: c.id(), title: c.text(), author_id: c.fk('author').nullable(), published: c.bool().default(false), score: c.int().default(0), rating: c.float().nullable(), data: c.json().nullable() }),
  defineModel('comment', { id: c.id(), post_id: c.fk('post'), body: c.text() }),
  defineModel('ticket', { id: c.id(), author_id: c.fk('author'), subject: c.text() }),
]);
const staffOnly = (who: Identity) => who.isStaff;
export const schema = buildGraphqlSchema(registry, {
  exposed: new Map([['author', undefined], ['post', undefined], ['comment', undefined], ['ticket', staffOnly]]),
  hidden: new Map(),
  unlocks: new Map([['author', new Map([['note', staffOnly]])]]),
});
export const STAFF: Identity = { isAuthenticated: true, id: 1, username: 'staff', isStaff: true, isSuperuser: false, via: 'bearer' };

/** The store with its rows (the same rows for every caller). */
export async function seededStore(): Promise<RecordStore> {
  const store = memoryRecords({ registry, events: new MemoryEventBus(), clock: new ManualClock(), random: cryptoRandomSource });
  await store.insertMany('author', [
    { name: 'Ada', note: 'private to staff', joined_at: new Date('2026-01-02T03:04:05.006Z') },
    { name: 'Grace', note: null, joined_at: null },
  ]);
  await store.insertMany('post', [
    { title: 'One', author_id: 1, published: true, score: 3, rating: 4.5, data: { tags: ['a', 'b'], n: 1 } },
    { title: 'Two', author_id: 2, score: -1 },
    { title: 'Orphan', author_id: null },
    { title: 'Four', author_id: 1, data: [1, 'two', null] },
  ]);
  await store.insertMany('comment', [
    { post_id: 1, body: 'first' },
    { post_id: 1, body: 'second' },
    { post_id: 2, body: 'third' },
    { post_id: 4, body: 'fourth' },
    { post_id: 1, body: 'fifth' },
  ]);
  await store.insertMany('ticket', [{ author_id: 1, subject: 'help' }]);
  return store;
}

/** One read of the store: `find` (with its `where` value) or `getManyByIds` (with its keys). */
export interface Read {
  readonly name: string;
  readonly table: string;
  readonly keys: unknown;
}

/** The store with its reads recorded; `fail` may answer a read with an error instead. */
export function watched(inner: RecordStore, fail?: (read: Read) => unknown): { store: RecordStore; reads: Read[] } {
  const reads: Read[] = [];
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const call = (value as (...a: unknown[]) => unknown).bind(target);
      if (name !== 'find' && name !== 'getManyByIds') return call;
      return (table: string, arg: unknown, ...rest: unknown[]) => {
        const read = { name, table, keys: name === 'find' ? (arg as { where?: { value?: unknown } }).where?.value : arg };
        reads.push(read);
        const error = fail?.(read);
        return error ? Promise.reject(error) : call(table, arg, ...rest);
      };
    },
  });
  return { store, reads };
}

export const names = (reads: readonly Read[]) => reads.map((r) => `${r.name} ${r.table}`).sort();

/** A request's resolver context over `s`. */
export const contextOver = (s: RecordStore, identity: Identity, signal?: AbortSignal): GraphqlContext => graphqlContext(s, registry, identity, signal);

/** What to execute (a fresh request context over the watched store), and the reads it makes. */
export function request(store: RecordStore, source: string, identity: Identity, variableValues?: Record<string, unknown>): { args: ExecutionArgs; reads: Read[] } {
  const { store: s, reads } = watched(store);
  return { args: { schema, document: parse(source), contextValue: contextOver(s, identity), ...(variableValues ? { variableValues } : {}) }, reads };
}

/**
 * `answer` (graphql-jit's) says what graphql-js's `reference` says: the same text without errors
 * (keys in the same order: "Serialized Map Ordering"); with errors the same data, errors first,
 * `data` present exactly when graphql-js has it (a variable refused before execution has none),
 * and every message graphql-js gives among ours (graphql-jit also reports fields whose parent
 * another error already nulled).
 */
export function expectAnswerOfGraphqlJs(answer: ExecutionResult, reference: ExecutionResult): void {
  if (!reference.errors) {
    expect(JSON.stringify(answer)).toBe(JSON.stringify(reference));
    return;
  }
  expect(JSON.stringify(answer.data)).toBe(JSON.stringify(reference.data));
  expect(Object.keys(answer)[0]).toBe('errors');
  expect('data' in answer).toBe('data' in reference);
  const messages = new Set(answer.errors?.map((e) => e.message));
  for (const error of reference.errors) expect(messages).toContain(error.message);
}
