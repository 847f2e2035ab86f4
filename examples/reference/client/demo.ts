import { ApiError, createClient, paginate } from './api.js';

/**
 * A program against the reference app's generated client (`examples/reference/client/api.ts`,
 * written by `npx portico gen-client --app dist/examples/reference/app.js --out …`): bearer login,
 * a typed include, an idempotent create, a conditional update and a stale one, pagination.
 * Prints one JSON object. Run: `node dist/examples/reference/client/demo.js http://127.0.0.1:3000`.
 */
async function main(baseUrl: string): Promise<void> {
  // The login is not a REST resource: the client takes the token it answers.
  const login = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'alice', password: 'alice-password-1' }) });
  const { token } = (await login.json()) as { token: string };
  const api = createClient({ baseUrl, token });

  // `include: ['author']` types `author` as present: an Author, or null when out of sight.
  const { data: page } = await api.listPost({ include: ['author'], ordering: ['id'], limit: 2 });
  const authors = page.results.map((post) => `${post.title} by ${post.author?.name ?? 'nobody'}`);
  // `fields` narrows the row type to the columns asked for.
  const { data: titles } = await api.listPost({ fields: ['id', 'title'], title__icontains: 'engine' });
  const titled = titles.results.map((post) => post.title);

  // The same Idempotency-Key twice: one row, the second answer replayed.
  const key = `demo-${Date.now()}`;
  const first = await api.createTag({ id: `demo-${Date.now()}`, label: 'Demo' }, { idempotencyKey: key });
  const again = await api.createTag({ id: first.data.id, label: 'Demo' }, { idempotencyKey: key });

  // A conditional update with the ETag of the read, then one with a stale ETag.
  const read = await api.retrieveTag(first.data.id);
  const changed = await api.partialUpdateTag(first.data.id, { label: 'Demo, changed' }, { ifMatch: read.etag });
  let stale = '';
  try {
    await api.partialUpdateTag(first.data.id, { label: 'lost update' }, { ifMatch: read.etag });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    stale = `${error.status} ${error.code}`;
  }

  // Every post, two rows a page.
  let walked = 0;
  for await (const post of paginate((window) => api.listPost({ ...window, ordering: ['-id'] }), 2)) if (post.id > 0) walked++;

  // Typed answers of a custom action; an invalid body answers a problem naming the field.
  const { data: published } = await api.publishPost(1, { reason: 'demo', channel: 'web' });
  let invalid = '';
  try {
    await api.createPost({ title: '', author_id: 999_999 });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    invalid = `${error.status} ${error.code}`;
  }
  await api.deleteTag(first.data.id);

  console.log(JSON.stringify({ authors, titled, created: first.status, replayed: again.headers.get('idempotent-replayed'), sameRow: again.data.id === first.data.id, changed: changed.data.label, stale, walked, count: page.count, published: published.published, invalid }));
}

main(process.argv[2] ?? 'http://127.0.0.1:3000').catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
