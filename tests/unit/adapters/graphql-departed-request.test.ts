import { createRequire } from 'node:module';
import { execute, parse, type ExecutionArgs } from 'graphql';
import { describe, expect, it } from 'vitest';
import { MemoryEventBus } from '../../../src/adapters/events/memory-event-bus.js';
import type { GraphqlContext } from '../../../src/adapters/graphql/build-schema.js';
import { executeCompiled } from '../../../src/adapters/graphql/compiled-execution.js';
import { Loaders } from '../../../src/adapters/graphql/loaders.js';
import { DatabaseUnavailable } from '../../../src/domain/errors/domain-error.js';
import type { RecordStore } from '../../../src/ports/record-store.js';
import { names, schema, seededStore, STAFF, watched, type Read } from '../../support/graphql-plain-fixture.js';

/**
 * A GraphQL request whose client goes away during its plain run is answered by graphql-js's
 * `execute`, not handed to graphql-jit: no compilation (nor loading of graphql-jit) for an answer
 * nobody reads, no read after the departure, and the same answer as before.
 */
const QUERY = '{ posts(limit: 50) { id title author { name } comments { body } } }';
const cjs = createRequire(import.meta.url);
const jitLoaded = (): boolean => cjs.resolve('graphql-jit') in cjs.cache;

/** A request over `store` whose every read first runs `onRead` (which may depart, or fail the read). */
function requestWith(store: RecordStore, onRead: (read: Read, depart: () => void) => unknown): { args: ExecutionArgs; reads: Read[]; depart: () => void } {
  const controller = new AbortController();
  const depart = (): void => controller.abort(new Error('the client disconnected'));
  const { store: s, reads } = watched(store, (read) => onRead(read, depart));
  const context: GraphqlContext = { identity: STAFF, loaders: new Loaders(s, () => 'id', controller.signal), store: s, events: new MemoryEventBus(), signal: controller.signal, departure: controller.signal };
  return { args: { schema, document: parse(QUERY), contextValue: context }, reads, depart };
}

describe('a GraphQL request whose client departs', () => {
  it('is answered by graphql-js without loading graphql-jit, and reads nothing after the departure', async () => {
    const store = await seededStore();
    expect(jitLoaded()).toBe(false);

    const ours = requestWith(store, (_read, depart) => depart());
    const answer = JSON.parse(JSON.stringify(await executeCompiled(ours.args))) as unknown;
    expect(names(ours.reads)).toEqual(['find post']);
    expect(jitLoaded()).toBe(false);

    // graphql-js's own answer for a request whose client has gone (as graphql-jit's was).
    const theirs = requestWith(store, () => undefined);
    theirs.depart();
    expect(answer).toEqual(JSON.parse(JSON.stringify(await execute(theirs.args))));
    expect(theirs.reads).toEqual([]);
    expect(answer).toMatchObject({ data: null, errors: [{ message: 'the client disconnected', path: ['posts'] }] });
  });

  it('still hands a failed read over to graphql-jit (which this test would see loaded)', async () => {
    const store = await seededStore();
    const failing = requestWith(store, (read) => (read.table === 'author' ? new DatabaseUnavailable('the database is unavailable') : undefined));
    const answer = JSON.parse(JSON.stringify(await executeCompiled(failing.args))) as unknown;
    expect(answer).toEqual({ errors: [{ message: 'the database is unavailable', locations: [{ line: 1, column: 3 }], path: ['posts'] }], data: null });
    expect(jitLoaded()).toBe(true);
  });
});
