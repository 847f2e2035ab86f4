/**
 * Hot-path bench child process, raw side on PostgreSQL: a hand-written Koa 3 + @koa/router +
 * `pg` server (one pool of 10, every statement a NAMED prepared statement) with no Portico code
 * in the request path. It opens the schema the Portico server migrated and seeded, and does
 * exactly the database work of each measured Portico route, answering the same JSON (same keys
 * and values; key order aside).
 *
 * Callers are identified as Portico's bearer authentication does: no token is anonymous; a
 * token (sha256 hex looked up in `auth_token`, joined to its active `auth_user` in one statement)
 * that identifies nobody answers 401 on every route.
 *
 * - `GET /api/post/:id` (authenticated): the live post.
 * - `GET /api/post/?limit&offset` (authenticated): `count(*)` and the page ordered by id
 *   (concurrently, as Portico does), in the `{count, next, previous, results}` envelope with
 *   absolute page links. The bench runs it with RAW_TOKEN_CACHE_SECONDS=5 (see below).
 * - `POST /api/post/` (authenticated, JSON `{title, author_id[, body]}`): one
 *   `insert … returning *` with created_by_id = the caller; 201 with the row.
 * - `GET /api/author/:id` (anyone): the author without `secret_note`.
 * - `POST /graphql` (anyone) for the one query `{ posts(limit: 50) { id title author { name }
 *   comments { body } } }`: the first 50 live posts by id, then their authors (`id = any($1)`)
 *   and at most 50 comments per post (`row_number()` window), concurrently; ids as strings.
 *   There is no GraphQL parser here: any other query answers 400.
 * - `POST /api/tag/` (anyone; JSON array of `{id, label}`): one multi-row insert (`unnest`)
 *   `returning *` in a transaction; 201 with the rows.
 * - `POST /api/auth/login` (JSON `{username, password}`): the user by case-insensitive username,
 *   an argon2id verify (@node-rs/argon2, loaded as Portico loads it; an unknown user is verified
 *   against a random hash of the same parameters), then the `last_login` stamp and a new bearer
 *   token's row (sha256 hex of 32 random bytes) in ONE statement (a data-modifying CTE: one round
 *   trip, one commit, where Portico pipelines two statements); `{user, token}` as Portico answers
 *   it, 400 for bad credentials. The bench sets its login rate beside Portico's, both against the
 *   raw verify rate.
 *
 * With `RAW_RESPONSE_HEADERS=portico` every answer also carries the headers Portico's reference
 * app sends in production over plain HTTP beside the JSON (`X-Request-Id` with a random UUID, and
 * the hardening headers: nosniff, X-Frame-Options, CSP frame-ancestors, Referrer-Policy, COOP;
 * HSTS goes only on secure requests since the 29th), set the way Portico sets them. The bench
 * measures this variant for the anonymous read only, as information on what those headers cost;
 * the goals are read against the server without them.
 *
 * Usage: `node dist/bench/hot-path/raw-pg-server.js --port 0 --db postgres://…/test?schema=x`;
 * prints `READY <port>` on stdout once listening on 127.0.0.1, and closes on SIGTERM.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import type * as Argon2 from '@node-rs/argon2';
import Router from '@koa/router';
import Koa from 'koa';
import pg from 'pg';
import getRawBody from 'raw-body';
import { unknownUserArgon2Hash } from '../../src/adapters/crypto/argon2-password-hasher.js';
import { serveUntilSignal } from '../server-lifecycle.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;
const MAX_BATCH = 1000;
const BODY_LIMIT = 1024 * 1024;
const MAX_INT = 2 ** 31 - 1;
/** The one GraphQL document this server answers (whitespace-normalised). */
const GRAPHQL_POSTS_QUERY = '{ posts(limit: 50) { id title author { name } comments { body } } }';
const GRAPHQL_LIMIT = 50;
/** Portico's default (and here fixed) page size of a nested list: comments per post. */
const GRAPHQL_CHILD_LIMIT = 50;

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, db: { type: 'string' } } });
if (!values.db) throw new Error('--db <postgres url> is required');

const url = new URL(values.db);
const schema = url.searchParams.get('schema');
url.searchParams.delete('schema');
if (schema !== null && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('schema must be a lower-case identifier');

// The schema is set as a startup parameter of each connection (as Portico does), not by a `set
// search_path` from pool.on('connect'): the pool hands the new client out without waiting for
// that query, and pg 8.20 deprecates queueing a query behind another on one client.
const pool = new pg.Pool({ connectionString: url.toString(), max: 10, ...(schema !== null ? { options: `-c search_path=${schema}` } : {}) });

type PgRow = Record<string, unknown>;

// @node-rs/argon2 with the allocator setting Portico loads it with (docs/decisions.md, "The hash's memory").
const { verify } = createRequire(import.meta.url)('@node-rs/argon2') as typeof Argon2;
const UNKNOWN_USER_HASH = unknownUserArgon2Hash((size) => randomBytes(size));

async function run(name: string, text: string, params: unknown[]): Promise<PgRow[]> {
  return (await pool.query<PgRow>({ name, text, values: params })).rows;
}

/**
 * `RAW_TOKEN_CACHE_SECONDS` (default 0: none): an active user found for a token hash is trusted
 * for that long, as Portico's `TokenManager` trusts it (5 s by default), so both sides send the
 * same statements (the bench's list scenario). Nothing here revokes an entry early: the bench
 * never logs out or changes a user during a load.
 */
const TOKEN_CACHE_MS = Number(process.env.RAW_TOKEN_CACHE_SECONDS ?? 0) * 1000;
const tokenCache = new Map<string, { readonly id: number; readonly until: number }>();

/** SHA-256 hex of the token: what `auth_token.token_hash` stores (Portico's `hashToken`). */
const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The caller, as Portico's bearer authentication decides it: undefined without a bearer token
 * (anonymous), null for a malformed or unknown token or an inactive user (answered 401 on every
 * route), else the user's id, from one join.
 */
async function identify(ctx: Koa.Context): Promise<number | null | undefined> {
  const header = ctx.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer ([A-Za-z0-9_.~+/=-]{20,200})$/.exec(header.trim());
  if (!match?.[1]) return /^Bearer\b/i.test(header.trim()) ? null : undefined;
  if (match[1].length > 100) return null;
  const hash = hashToken(match[1]);
  const now = TOKEN_CACHE_MS > 0 ? Date.now() : 0;
  const hit = TOKEN_CACHE_MS > 0 ? tokenCache.get(hash) : undefined;
  if (hit && hit.until > now) return hit.id;
  const [user] = await run('auth-user', 'select u.id from auth_token t join auth_user u on u.id = t.user_id where t.token_hash = $1 and u.is_active', [hash]);
  if (!user) return null;
  if (TOKEN_CACHE_MS > 0) tokenCache.set(hash, { id: user.id as number, until: now + TOKEN_CACHE_MS });
  return user.id as number;
}

/** The authenticated caller's id; otherwise answers 401 and returns undefined. */
async function authenticated(ctx: Koa.Context): Promise<number | undefined> {
  const user = await identify(ctx);
  if (user === undefined || user === null) problem(ctx, 401, user === null ? 'invalid or revoked token' : 'authentication required');
  return user ?? undefined;
}

/** False (after answering 401) when a bearer token was sent but identifies nobody. */
async function anonymousOrUser(ctx: Koa.Context): Promise<boolean> {
  if ((await identify(ctx)) !== null) return true;
  problem(ctx, 401, 'invalid or revoked token');
  return false;
}

function problem(ctx: Koa.Context, status: number, error: string): void {
  ctx.status = status;
  ctx.body = { error };
}

/** A positive int4 id from the path, or undefined. */
function idParam(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id <= MAX_INT ? id : undefined;
}

/** A non-negative integer query parameter, or `fallback` when absent; NaN when malformed. */
function count(value: string | string[] | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  return typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
}

/** The same list URL with another page. */
function pageUrl(ctx: Koa.Context, limit: number, offset: number): string {
  const link = new URL(`${ctx.protocol}://${ctx.host}${ctx.path}`);
  for (const [k, v] of Object.entries(ctx.query)) {
    if (k === 'limit' || k === 'offset' || v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) link.searchParams.append(k, item);
  }
  link.searchParams.set('limit', String(limit));
  link.searchParams.set('offset', String(offset));
  return link.toString();
}

/** The JSON body, or undefined after answering 415/400. */
async function jsonBody(ctx: Koa.Context): Promise<unknown> {
  if (ctx.request.type !== 'application/json') {
    problem(ctx, 415, 'the body must be application/json');
    return undefined;
  }
  try {
    return JSON.parse(await getRawBody(ctx.req, { limit: BODY_LIMIT, encoding: 'utf-8' })) as unknown;
  } catch {
    problem(ctx, 400, 'the body is not valid JSON');
    return undefined;
  }
}

const router = new Router();

router.get('/api/post/', async (ctx) => {
  const limit = Math.min(count(ctx.query.limit, DEFAULT_LIMIT), MAX_LIMIT);
  const offset = count(ctx.query.offset, 0);
  if (Number.isNaN(limit) || Number.isNaN(offset)) return problem(ctx, 400, 'invalid query');
  if ((await authenticated(ctx)) === undefined) return;
  const [[total], rows] = await Promise.all([
    run('post-count', 'select count(*)::int as n from post where deleted_at is null', []),
    run('post-page', 'select * from post where deleted_at is null order by id limit $1 offset $2', [limit, offset]),
  ]);
  const n = (total?.n as number | undefined) ?? 0;
  ctx.body = {
    count: n,
    next: offset + limit < n && limit > 0 ? pageUrl(ctx, limit, offset + limit) : null,
    previous: offset > 0 ? pageUrl(ctx, limit, Math.max(0, offset - limit)) : null,
    results: rows,
  };
});

router.get('/api/post/:id', async (ctx) => {
  const id = idParam(ctx.params.id);
  if ((await authenticated(ctx)) === undefined) return;
  const [row] = id === undefined ? [] : await run('post-detail', 'select * from post where id = $1 and deleted_at is null', [id]);
  if (!row) return problem(ctx, 404, 'not found');
  ctx.body = row;
});

router.post('/api/post/', async (ctx) => {
  const user = await authenticated(ctx);
  if (user === undefined) return;
  const input = await jsonBody(ctx);
  if (input === undefined) return;
  const { title, author_id: authorId, body } = (input ?? {}) as { title?: unknown; author_id?: unknown; body?: unknown };
  if (typeof title !== 'string' || typeof authorId !== 'number' || !Number.isSafeInteger(authorId) || (body !== undefined && body !== null && typeof body !== 'string')) {
    return problem(ctx, 400, 'title (string) and author_id (integer) are required');
  }
  const [row] = await run(
    'post-insert',
    'insert into post (title, body, author_id, created_by_id, published, featured, score, created_at) values ($1, $2, $3, $4, false, false, 0, now()) returning *',
    [title, body ?? null, authorId, user],
  );
  ctx.status = 201;
  ctx.body = row;
});

router.get('/api/author/:id', async (ctx) => {
  const id = idParam(ctx.params.id);
  if (!(await anonymousOrUser(ctx))) return;
  const [row] = id === undefined ? [] : await run('author-detail', 'select id, name, bio, email from author where id = $1', [id]);
  if (!row) return problem(ctx, 404, 'not found');
  ctx.body = row;
});

router.post('/graphql', async (ctx) => {
  const input = await jsonBody(ctx);
  if (input === undefined) return;
  const query = (input as { query?: unknown } | null)?.query;
  if (typeof query !== 'string' || query.replace(/\s+/g, ' ').trim() !== GRAPHQL_POSTS_QUERY) return problem(ctx, 400, 'only the bench query is served');
  // Anonymous callers may read posts through GraphQL in the reference app.
  if (!(await anonymousOrUser(ctx))) return;
  const posts = await run('gql-posts', 'select id, title, author_id from post where deleted_at is null order by id limit $1', [GRAPHQL_LIMIT]);
  const postIds = posts.map((p) => p.id as number);
  const authorIds = [...new Set(posts.map((p) => p.author_id as number))];
  const [authors, comments] = await Promise.all([
    run('gql-authors', 'select id, name from author where id = any($1::int[])', [authorIds]),
    run(
      'gql-comments',
      'select post_id, body from (select id, post_id, body, row_number() over (partition by post_id order by id) as rn from comment where post_id = any($1::int[])) c where rn <= $2 order by id',
      [postIds, GRAPHQL_CHILD_LIMIT],
    ),
  ]);
  const authorById = new Map(authors.map((a) => [a.id as number, { name: a.name }]));
  const commentsByPost = new Map<number, { body: unknown }[]>();
  for (const c of comments) {
    const list = commentsByPost.get(c.post_id as number);
    if (list) list.push({ body: c.body });
    else commentsByPost.set(c.post_id as number, [{ body: c.body }]);
  }
  ctx.body = {
    data: {
      posts: posts.map((p) => ({
        id: String(p.id),
        title: p.title,
        author: authorById.get(p.author_id as number) ?? null,
        comments: commentsByPost.get(p.id as number) ?? [],
      })),
    },
  };
});

/** The user's columns a login answers with (Portico's `auth_user` without the hash and `is_active`). */
const LOGIN_USER_COLUMNS = 'id, username, email, is_staff, is_superuser, date_joined, last_login, email_verified_at';

router.post('/api/auth/login', async (ctx) => {
  const input = await jsonBody(ctx);
  if (input === undefined) return;
  const { username, password } = (input ?? {}) as { username?: unknown; password?: unknown };
  if (typeof username !== 'string' || typeof password !== 'string' || username === '') return problem(ctx, 400, 'username and password (strings) are required');
  const [user] = await run('login-user', 'select * from auth_user where lower(username) = lower($1) limit 1', [username]);
  // An unknown user still costs a verify, as in Portico (timing does not tell who exists).
  const hash = typeof user?.password_hash === 'string' ? user.password_hash : UNKNOWN_USER_HASH;
  const matches = await verify(hash, password).catch(() => false);
  if (!user || !matches || user.is_active !== true) return problem(ctx, 400, 'invalid username or password');
  const token = randomBytes(32).toString('base64url');
  // The `last_login` stamp and the token's row in one statement: one round trip, one commit.
  const [stamped] = await run(
    'login-grant',
    `with stamped as (update auth_user set last_login = $2 where id = $1 returning ${LOGIN_USER_COLUMNS}),
     granted as (insert into auth_token (token_hash, user_id, created_at) values ($3, $1, $2) returning id)
     select stamped.* from stamped, granted`,
    [user.id, new Date(), hashToken(token)],
  );
  ctx.body = { user: stamped, token };
});

router.post('/api/tag/', async (ctx) => {
  if (!(await anonymousOrUser(ctx))) return;
  const input = await jsonBody(ctx);
  if (input === undefined) return;
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_BATCH) return problem(ctx, 400, `the body must be an array of 1 to ${MAX_BATCH} tags`);
  const ids: string[] = [];
  const labels: string[] = [];
  for (const item of input as { id?: unknown; label?: unknown }[]) {
    if (typeof item?.id !== 'string' || typeof item.label !== 'string') return problem(ctx, 400, 'every tag needs a string id and label');
    ids.push(item.id);
    labels.push(item.label);
  }
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<PgRow>({
      name: 'tag-bulk',
      text: 'insert into tag (id, label) select * from unnest($1::text[], $2::text[]) returning *',
      values: [ids, labels],
    });
    await client.query('commit');
    ctx.status = 201;
    ctx.body = rows;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
});

const app = new Koa();
app.silent = true;
if (process.env.RAW_RESPONSE_HEADERS === 'portico') {
  app.use(async (ctx, next) => {
    ctx.res.setHeader('X-Request-Id', randomUUID());
    await next();
    const res = ctx.res;
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    if (!res.hasHeader('Content-Security-Policy')) res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  });
}
app.use(async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    const code = (error as { code?: string }).code;
    problem(ctx, code === '23505' ? 409 : code === '23503' ? 400 : 500, code ?? 'internal error');
  }
});
app.use(router.routes());
app.use(router.allowedMethods());

const server = createServer(app.callback());
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(Number(values.port), '127.0.0.1', () => resolve());
});
serveUntilSignal((server.address() as AddressInfo).port, async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await pool.end();
});
