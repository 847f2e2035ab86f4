import { execute } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCompiled } from '../../../src/adapters/graphql/compiled-execution.js';
import { ANONYMOUS } from '../../../src/domain/auth/identity.js';
import type { RecordStore } from '../../../src/ports/record-store.js';
import { request, seededStore } from '../../support/graphql-fixture.js';

/**
 * No query leaves a rejection unobserved, on any executor a transport uses: graphql-js's
 * `execute` (mutations, subscription events, everything over SSE and WebSocket) and graphql-jit
 * (queries over POST). Node ends the process on an unhandled rejection, so
 * one leaked rejection is a query that stops the server. graphql-js 16 leaks the earlier items
 * of a list when a later item fails synchronously: here the post without an author fails at once
 * on `comments(limit: -1)` while the others fail after their author is read.
 */
const DOCUMENTS = [
  '{ posts { author { name } comments(limit: -1) { body } } }',
  '{ posts(limit: 3, offset: 1) { data a: author { name } b: comments(limit: -1) { id } } }',
  '{ comments { post { author { name } comments(limit: -1) { body } } } }',
  '{ authors { posts { author { tickets { id } } comments(limit: -1) { id } } } }',
];

let store: RecordStore;
let unhandled: unknown[] = [];
const record = (reason: unknown) => void unhandled.push(reason);

beforeAll(async () => {
  store = await seededStore();
  process.on('unhandledRejection', record);
});
afterAll(() => {
  process.off('unhandledRejection', record);
});

/** Runs `run` and lets every turn it scheduled pass (a late rejection is reported within them). */
async function settled(run: () => unknown): Promise<unknown[]> {
  unhandled = [];
  await run();
  for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 5));
  return unhandled;
}

describe('GraphQL execution leaves no rejection unobserved', () => {
  for (const source of DOCUMENTS) {
    it(`graphql-js's execute and graphql-jit, on ${source}`, async () => {
      const answers: unknown[] = [];
      expect(await settled(async () => answers.push(await execute(request(store, source, ANONYMOUS).args)))).toEqual([]);
      expect(await settled(async () => answers.push(await executeCompiled(request(store, source, ANONYMOUS).args)))).toEqual([]);
      // Both answered the error (the data nulled up to the list's nullable parent).
      for (const answer of answers) expect((answer as { errors?: unknown[] }).errors?.length).toBeGreaterThan(0);
    });
  }

});
