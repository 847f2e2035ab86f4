import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestOf, type DrawnRequest } from '../support/openapi-arbitraries.js';
import { ConformanceClient, login } from '../support/openapi-client.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/*
 * Seeded fuzzing from the document itself: for every operation of the reference app's OpenAPI
 * document, spec-valid requests (path keys that exist and random ones, query parameters and
 * bodies drawn from their schemas) sent with a bearer token. The server must never answer 5xx,
 * and every answer must be a declared status with a conforming body. Deletes run last so that
 * the other operations still find rows. Replay a failure with PORTICO_FUZZ_SEED=<seed>
 * (and PORTICO_FUZZ_RUNS=<n> for more requests per operation).
 */

const SEED = Number(process.env.PORTICO_FUZZ_SEED ?? 20_260_101);
const RUNS_PER_OPERATION = Number(process.env.PORTICO_FUZZ_RUNS ?? 5);
/** SQLite by default; `PORTICO_FUZZ_BACKEND=postgresql` fuzzes the PostgreSQL store the same way. */
const BACKEND = process.env.PORTICO_FUZZ_BACKEND === 'postgresql' ? 'postgresql' : 'sqlite';

interface Failure {
  readonly request: DrawnRequest;
  readonly status: number;
  readonly problems: readonly string[];
  readonly answer: string;
}

describe(`fuzzing every operation from the OpenAPI document (${BACKEND})`, () => {
  let ref: RunningReference;
  let api: ConformanceClient;
  let alice = '';
  let staff = '';
  /** Existing keys per collection template, read before fuzzing. */
  const known = new Map<string, unknown[]>();

  beforeAll(async () => {
    ref = await startReference(BACKEND, { env: { THROTTLE: 'off' } });
    api = await ConformanceClient.load(ref.url);
    [alice, staff] = await Promise.all([login(ref.url, 'alice', 'alice-password-1'), login(ref.url, 'staff', 'staff-password-1')]);
    for (const op of api.conformance.operations().filter((o) => o.method === 'get' && !o.template.endsWith('}') && !o.template.endsWith('recent'))) {
      const path = op.template.replace('{parent_id}', '1');
      const res = await api.call('GET', `${path}?limit=1000`, { token: op.template.includes('staff_report') ? staff : alice });
      expect(res.problems).toEqual([]);
      known.set(op.template, (res.json?.results as { id: unknown }[] | undefined)?.map((r) => r.id) ?? []);
    }
    known.set('/api/project', [...(known.get('/api/project') ?? []), 999]);
  });
  afterAll(async () => ref?.close());

  /** Existing keys for `{id}` (of the collection the template hangs under) and `{parent_id}` (the parent's). */
  const pathValues = (template: string, name: string): unknown[] => {
    const segments = template.split('/');
    const at = segments.indexOf(`{${name}}`);
    return known.get(segments.slice(0, at).join('/').replace(/\/\{parent_id\}/, '/{parent_id}')) ?? [];
  };

  it(`sends ${RUNS_PER_OPERATION} spec-valid requests to every operation: no 5xx, only declared statuses, conforming bodies`, async () => {
    const operations = api.conformance.operations().sort((a, b) => Number(a.method === 'delete') - Number(b.method === 'delete'));
    const failures: Failure[] = [];
    let sent = 0;
    for (const [i, op] of operations.entries()) {
      const requests = fc.sample(requestOf(api.conformance.doc, op, pathValues), { seed: SEED + i, numRuns: RUNS_PER_OPERATION });
      for (const request of requests) {
        // The generator must stay inside the document: a request it draws is spec-valid.
        expect(api.conformance.checkRequestBody(request.method, request.path, request.body), `${request.method} ${request.path}`).toEqual([]);
        const token = op.template.includes('staff_report') ? staff : alice;
        const res = await api.call(request.method, request.path, { token, ...(request.body === undefined ? {} : { body: request.body }) });
        sent++;
        if (res.status >= 500 || res.problems.length > 0) failures.push({ request, status: res.status, problems: res.problems, answer: res.text.slice(0, 300) });
      }
    }
    expect(failures, `seed ${SEED}`).toEqual([]);
    expect(sent).toBe(operations.length * RUNS_PER_OPERATION);
    expect(api.unexercised()).toEqual([]);
  });
});
