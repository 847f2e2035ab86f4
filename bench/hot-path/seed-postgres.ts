import type pg from 'pg';

/** The bench's PostgreSQL data: this many posts and comments, written in chunks of SEED_CHUNK rows. */
export const POSTS = 10_000;
export const COMMENTS = 50_000;
export const SEED_CHUNK = 2_500;

/**
 * A post's body is this text repeated and cut to 200-1 999 characters (about 1 100 on average, as
 * a short article): typographic quotes, accented letters, a JSON-escaped quote, backslash, tab and
 * newline, so the answers carry multi-byte UTF-8 and escapes as a real table's do.
 */
const BODY_TEXT =
  'Lorem ipsum dolor sit amet, “consectetur” adipiscing elit — sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Über das Café: naïve "quoted" text, a \\ backslash, a\ttab and a newline.\n';
/** Bench posts soft-deleted (every DELETED_EVERY-th): their rows stay in the table, out of every list and count. */
const DELETED_EVERY = 33;
/** Tags linked to the bench posts (post_tags: 0 to 3 a post); the REST list names them only with `?include=tags`. */
const BENCH_TAGS = 20;

/**
 * Adds POSTS posts and COMMENTS comments (spread evenly over every post) with multi-row inserts.
 * The posts are shaped like rows the reference app writes (issue 46): every column of `post` set,
 * bodies of 200-1 999 characters, `created_at` with milliseconds (as Portico writes them; the
 * timestamps of `now()` would carry microseconds), one post in DELETED_EVERY soft-deleted, some
 * featured, and 0-3 tags each. Titles stay `Bench post <n>`: the GraphQL scenario reads them.
 */
export async function seedPostgres(client: pg.Client, aliceId: number): Promise<void> {
  for (let from = 1; from <= POSTS; from += SEED_CHUNK) {
    await client.query(
      `insert into post (title, body, author_id, created_by_id, published, featured, score, created_at, deleted_at)
       select 'Bench post ' || g, left(repeat($4::text, 12), 200 + (g * 7919) % 1800), 1 + g % 2, $3, g % 3 <> 0, g % 10 = 0, g % 100,
              date_trunc('milliseconds', now()) - g * interval '1 second' - (g * 37 % 1000) * interval '1 millisecond',
              case when g % $5::int = 0 then date_trunc('milliseconds', now()) - (g % 600) * interval '1 second' end
       from generate_series($1::int, $2::int) g`,
      [from, Math.min(POSTS, from + SEED_CHUNK - 1), aliceId, BODY_TEXT, DELETED_EVERY],
    );
  }
  await client.query(`insert into tag (id, label) select 'bench-tag-' || t, 'Bench tag ' || t from generate_series(1, ${BENCH_TAGS}) t`);
  await client.query(
    `insert into post_tags (post_id, tag_id)
     select p.id, 'bench-tag-' || (1 + (p.id + k) % ${BENCH_TAGS}) from post p cross join generate_series(0, 2) k
     where p.title like 'Bench post %' and (p.id + k) % 4 <> 0`,
  );
  const { rows } = await client.query<{ n: number }>('select max(id)::int as n from post');
  const maxPost = rows[0]?.n ?? 1;
  for (let from = 1; from <= COMMENTS; from += SEED_CHUNK * 4) {
    await client.query(
      `insert into comment (post_id, body, votes, moderation_note)
       select 1 + (g - 1) % $3, 'Bench comment ' || g, g % 7, 'note ' || g from generate_series($1::int, $2::int) g`,
      [from, Math.min(COMMENTS, from + SEED_CHUNK * 4 - 1), maxPost],
    );
  }
  await client.query('analyze post; analyze comment; analyze author; analyze auth_token; analyze auth_user; analyze tag; analyze post_tags');
}

