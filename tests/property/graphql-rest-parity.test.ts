import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/index.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';

/**
 * SPEC "GraphQL" 8: GraphQL mutations and REST writes share one write path
 * (src/application/write). For random inputs and callers, `POST /api/post/` and the same input
 * through `createPost` must agree: both succeed or both fail with the same kind of error, and on
 * success they store the same row (except `id` and `created_at`).
 */

const pg = await postgresAvailable();

type Caller = 'alice' | 'bob' | 'staff';
const PASSWORDS: Readonly<Record<Caller, string>> = { alice: 'alice-password-1', bob: 'bob-password-1', staff: 'staff-password-1' };

/** One generated post input; absent keys are simply not in the object. */
interface PostCase {
  readonly caller: Caller;
  readonly input: {
    title?: string;
    body?: string | null;
    author_id: 1 | 2;
    published?: boolean;
    score?: number;
    featured?: boolean;
  };
  /** Only ever sent over REST: GraphQL's `PostInput` has no `created_by_id` field (it is server-set by the model's `setOnCreate`), so a GraphQL caller cannot even name it. REST strips it. */
  readonly restCreatedBy?: number;
}

/** What a write came to, normalised across the two surfaces. */
type Outcome = { kind: 'ok'; id: number } | { kind: 'privileged_field' } | { kind: 'invalid'; detail: string };

/** Unicode text without NUL (PostgreSQL text cannot hold it). */
const text = fc
  .oneof(fc.string({ unit: 'grapheme', maxLength: 24 }), fc.string({ unit: 'binary', maxLength: 24 }), fc.string({ maxLength: 24 }))
  .filter((s) => !s.includes('\u0000'));

const postCase: fc.Arbitrary<PostCase> = fc
  .record(
    {
      caller: fc.constantFrom<Caller>('alice', 'bob', 'staff'),
      // Title missing about one case in eight: both surfaces must refuse it as invalid input.
      title: fc.oneof({ weight: 7, arbitrary: text }, { weight: 1, arbitrary: fc.constant(undefined) }),
      body: fc.oneof(text, fc.constant(null), fc.constant(undefined)),
      author_id: fc.constantFrom<1 | 2>(1, 2),
      published: fc.option(fc.boolean(), { nil: undefined }),
      score: fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: undefined }),
      // `featured` is privileged (model flag): any value, true or false, is refused.
      featured: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.boolean() }),
      restCreatedBy: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    },
    { requiredKeys: ['caller', 'author_id'] },
  )
  .map(({ caller, restCreatedBy, ...fields }) => {
    const input = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as PostCase['input'];
    return { caller, input, ...(restCreatedBy !== undefined ? { restCreatedBy } : {}) };
  });

/** The columns both surfaces must store alike (everything but `id` and `created_at`). */
const COMPARED = ['title', 'body', 'author_id', 'created_by_id', 'published', 'featured', 'score', 'deleted_at'] as const;
const compared = (row: Row): Record<string, unknown> => Object.fromEntries(COMPARED.map((c) => [c, row[c] ?? null]));

function paritySuite(backend: 'sqlite' | 'postgresql'): void {
  let ref: RunningReference;
  const tokens = new Map<Caller, string>();
  const userIds = new Map<Caller, number>();

  beforeAll(async () => {
    ref = await startReference(backend, { env: { THROTTLE: 'off' } });
    for (const caller of ['alice', 'bob', 'staff'] as const) {
      const res = await fetch(`${ref.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: caller, password: PASSWORDS[caller] }),
      });
      expect(res.status).toBe(200);
      tokens.set(caller, ((await res.json()) as { token: string }).token);
      const [user] = await ref.app.store.find('auth_user', { where: { column: 'username', op: 'eq', value: caller } });
      userIds.set(caller, Number(user?.id));
    }
  }, 60_000);
  afterAll(async () => ref?.close());

  const auth = (caller: Caller) => ({ 'content-type': 'application/json', authorization: `Bearer ${tokens.get(caller) ?? ''}` });

  async function viaRest(c: PostCase): Promise<Outcome> {
    const body = { ...c.input, ...(c.restCreatedBy !== undefined ? { created_by_id: c.restCreatedBy } : {}) };
    const res = await fetch(`${ref.url}/api/post/`, { method: 'POST', headers: auth(c.caller), body: JSON.stringify(body) });
    const json = (await res.json()) as { id?: number; code?: string; detail?: string };
    if (res.status === 201) return { kind: 'ok', id: Number(json.id) };
    expect(res.status, JSON.stringify(json)).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    if (json.code === 'privileged_field') return { kind: 'privileged_field' };
    // A required column missing or null is refused as bad input (the store's not-null check).
    expect(['invalid_input', 'not_null_violation'], JSON.stringify(json)).toContain(json.code);
    return { kind: 'invalid', detail: `${json.code}: ${json.detail}` };
  }

  async function viaGraphql(c: PostCase): Promise<Outcome> {
    // Keys go over GraphQL as ID strings; `created_by_id` is never sent (not a PostInput field).
    const data = { ...c.input, author_id: String(c.input.author_id) };
    const res = await fetch(`${ref.url}/graphql`, {
      method: 'POST',
      headers: auth(c.caller),
      body: JSON.stringify({ query: 'mutation($data: PostInput!) { createPost(data: $data) { id } }', variables: { data } }),
    });
    const json = (await res.json()) as { data?: { createPost: { id: string } | null } | null; errors?: { message: string; extensions?: { code?: string } }[] };
    const created = json.data?.createPost;
    if (!json.errors && created) return { kind: 'ok', id: Number(created.id) };
    expect(created ?? null, JSON.stringify(json)).toBeNull();
    const [error] = json.errors ?? [];
    expect(error, JSON.stringify(json)).toBeDefined();
    if (error?.extensions?.code === 'privileged_field') return { kind: 'privileged_field' };
    // Bad input is either BAD_USER_INPUT from the write path, or the request's own variable
    // coercion failing (a NON_NULL `title` not provided), which graphql-js reports before any
    // resolver runs and without an `extensions.code`.
    const code = error?.extensions?.code;
    expect(code === 'BAD_USER_INPUT' || (code === undefined && /Variable "\$data" got invalid value/.test(error?.message ?? '')), JSON.stringify(json)).toBe(true);
    return { kind: 'invalid', detail: `${code ?? 'variable coercion'}: ${error?.message ?? ''}` };
  }

  /** The outcome the shared write policy prescribes for a case. */
  function expected(c: PostCase): Outcome['kind'] {
    if (c.input.title === undefined) return 'invalid';
    if (c.input.featured !== undefined) return 'privileged_field';
    return 'ok';
  }

  it(
    'REST and GraphQL createPost agree on success, refusal and the stored row',
    async () => {
      await fc.assert(
        fc.asyncProperty(postCase, async (c) => {
          const store = ref.app.store;
          const before = await store.count('post');
          const rest = await viaRest(c);
          const afterRest = await store.count('post');
          const gql = await viaGraphql(c);
          const afterGql = await store.count('post');

          const want = expected(c);
          if (want === 'invalid' && c.input.featured !== undefined) {
            // Title missing AND a privileged column: the two surfaces check in a different order.
            // REST's write path meets `featured` first (privileged_field); GraphQL refuses the
            // variables against PostInput (title is NON_NULL) before the write path runs. Both
            // refuse and write nothing; which refusal is reported is not part of the parity.
            expect(rest.kind).not.toBe('ok');
            expect(gql.kind).not.toBe('ok');
          } else {
            expect(rest.kind, `REST ${JSON.stringify(rest)}`).toBe(want);
            expect(gql.kind, `GraphQL ${JSON.stringify(gql)}`).toBe(want);
          }

          if (rest.kind !== 'ok' || gql.kind !== 'ok') {
            // A refusal writes nothing, on either path.
            expect(afterRest).toBe(before);
            expect(afterGql).toBe(afterRest);
            return;
          }
          expect(afterRest).toBe(before + 1);
          expect(afterGql).toBe(before + 2);

          const restRow = await store.getById('post', rest.id);
          const gqlRow = await store.getById('post', gql.id);
          expect(restRow).not.toBeNull();
          expect(gqlRow).not.toBeNull();
          const restStored = compared(restRow as Row);
          const gqlStored = compared(gqlRow as Row);
          expect(gqlStored).toEqual(restStored);
          // And both equal what the write policy prescribes: the caller as creator (a REST body's
          // created_by_id is stripped), the defaults where a column was absent.
          expect(restStored).toEqual({
            title: c.input.title,
            body: c.input.body ?? null,
            author_id: c.input.author_id,
            created_by_id: userIds.get(c.caller),
            published: c.input.published ?? false,
            featured: false,
            score: c.input.score ?? 0,
            deleted_at: null,
          });
        }),
        { numRuns: 25 },
      );
    },
    120_000,
  );

  it('a privileged refusal writes nothing on either path, for every caller', async () => {
    for (const caller of ['alice', 'bob', 'staff'] as const) {
      for (const featured of [true, false]) {
        const c: PostCase = { caller, input: { title: `privileged ${caller} ${String(featured)}`, author_id: 1, featured }, restCreatedBy: 4 };
        const before = await ref.app.store.count('post');
        expect(await viaRest(c)).toEqual({ kind: 'privileged_field' });
        expect(await ref.app.store.count('post')).toBe(before);
        expect(await viaGraphql(c)).toEqual({ kind: 'privileged_field' });
        expect(await ref.app.store.count('post')).toBe(before);
        expect(await ref.app.store.count('post', { column: 'title', op: 'eq', value: c.input.title ?? '' })).toBe(0);
      }
    }
  }, 60_000);
}

describe('GraphQL/REST write parity: SQLite', () => paritySuite('sqlite'));
describe.skipIf(!pg)('GraphQL/REST write parity: PostgreSQL', () => paritySuite('postgresql'));
