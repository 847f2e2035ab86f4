/**
 * Issue "contract fidelity": every response of the e2e suite to an operation the app's published
 * OpenAPI document describes is checked against it (status declared, body valid, ajv 2020-12).
 * Loaded for the e2e project by vitest.config.ts; a mismatch fails the test that caused it.
 */
import { afterEach, expect } from 'vitest';
import { OpenApiConformance, type OpenApiDoc } from './openapi-conformance.js';

const realFetch = globalThis.fetch;
const documents = new Map<string, Promise<OpenApiConformance | null>>();
const mismatches: string[] = [];

/** The document an app publishes at `/api/openapi.json`, or null (production, or no OpenAPI plugin). */
function documentOf(origin: string): Promise<OpenApiConformance | null> {
  let doc = documents.get(origin);
  if (!doc) {
    doc = realFetch(`${origin}/api/openapi.json`).then(
      async (res) => (res.ok ? new OpenApiConformance((await res.json()) as OpenApiDoc) : null),
      () => null,
    );
    documents.set(origin, doc);
  }
  return doc;
}

const checked = async (input: Parameters<typeof fetch>[0], init: RequestInit | undefined, res: Response): Promise<void> => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  if (!url.pathname.startsWith('/api/') || url.pathname === '/api/openapi.json' || url.pathname.startsWith('/api/docs')) return;
  const conformance = await documentOf(url.origin);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  if (!conformance?.find(method, url.pathname)) return; // not a documented operation (OPTIONS, HEAD, a 405, auth routes)
  const body = await res.clone().text();
  mismatches.push(
    ...conformance.checkResponse({ method, path: `${url.pathname}${url.search}`, status: res.status, contentType: res.headers.get('content-type'), body, header: (n) => res.headers.get(n) }),
  );
};

globalThis.fetch = async (input, init) => {
  const res = await realFetch(input, init);
  await checked(input, init, res);
  return res;
};

afterEach(() => {
  const found = mismatches.splice(0);
  expect(found, 'responses that contradict the published OpenAPI document').toEqual([]);
});
