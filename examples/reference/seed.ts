import type { Clock, PasswordHasher, RecordStore } from '../../src/index.js';

/** The seed users (REFERENCE-APP.md "Seed users"); every address is verified. */
export const SEED_USERS = [
  { username: 'alice', email: 'alice@example.com', password: 'alice-password-1', is_staff: false, is_superuser: false },
  { username: 'bob', email: 'bob@example.com', password: 'bob-password-1', is_staff: false, is_superuser: false },
  { username: 'staff', email: 'staff@example.com', password: 'staff-password-1', is_staff: true, is_superuser: false },
  { username: 'root', email: 'root@example.com', password: 'root-password-1', is_staff: true, is_superuser: true },
] as const;

/**
 * Seeds a fresh database in one transaction; does nothing when users exist already,
 * so restarting the app keeps its data.
 */
export async function seedReference(store: RecordStore, hasher: PasswordHasher, clock: Clock): Promise<boolean> {
  if ((await store.count('auth_user')) > 0) return false;
  const hashes = await Promise.all(SEED_USERS.map((u) => hasher.hash(u.password)));
  const mallory = await hasher.hash('mallory-password-1');
  await store.transaction(async (tx) => {
    const now = clock.now();
    const users = await tx.insertMany(
      'auth_user',
      SEED_USERS.map((u, i) => ({
        username: u.username,
        email: u.email,
        password_hash: hashes[i] ?? null,
        is_staff: u.is_staff,
        is_superuser: u.is_superuser,
        email_verified_at: now,
      })),
    );
    const alice = users[0]?.id ?? null;
    await tx.insertMany('author', [
      { id: 1, name: 'Ada Lovelace', bio: 'First programmer', email: 'ada@example.com', secret_note: 'ada-secret-note' },
      { id: 2, name: 'Alan Turing', bio: 'Computability', email: 'alan@example.com', secret_note: 'alan-secret-note' },
    ]);
    await tx.insertMany('post', [
      { id: 1, title: 'Notes on the Analytical Engine', body: 'The engine weaves algebraic patterns.', author_id: 1, created_by_id: alice, published: true, score: 10 },
      { id: 2, title: 'On Bernoulli numbers', body: 'Note G.', author_id: 1, created_by_id: alice, published: true, score: 7 },
      { id: 3, title: 'Draft: poetical science', body: null, author_id: 1, created_by_id: alice, published: false, score: 1 },
      { id: 4, title: 'Computing machinery and intelligence', body: 'Can machines think?', author_id: 2, created_by_id: alice, published: true, score: 42 },
    ]);
    await tx.insertMany('comment', [
      { id: 1, post_id: 1, body: 'Remarkable foresight.', votes: 3, moderation_note: 'looks fine' },
      { id: 2, post_id: 1, body: 'What about loops?', votes: 1, moderation_note: null },
    ]);
    await tx.insert('reply', { id: 1, comment_id: 2, body: 'See Note G.' });
    await tx.insertMany('tag', [
      { id: 'orm', label: 'ORM' },
      { id: 'rest', label: 'REST' },
    ]);
    await tx.insertMany('post_tags', [
      { post_id: 1, tag_id: 'orm' },
      { post_id: 1, tag_id: 'rest' },
      { post_id: 2, tag_id: 'orm' },
    ]);
    await tx.insertMany('project', [
      { id: 1, name: 'Portico' },
      { id: 2, name: 'Website' },
    ]);
    await tx.insertMany('milestone', [
      { id: 1, project_id: 1, title: 'Foundation', due: '2026-12-01' },
      { id: 2, project_id: 1, title: 'REST layer', due: '2027-01-15' },
      { id: 3, project_id: 2, title: 'Design', due: null },
      { id: 4, project_id: 2, title: 'Launch', due: '2027-03-01' },
    ]);
    await tx.insert('announcement', { id: 1, title: 'Welcome to the Portico reference app' });
    await tx.insert('staff_report', { id: 1, title: 'Quarterly numbers', body: 'Staff eyes only.' });
    await tx.insert('member', { id: 1, username: 'mallory', password_hash: mallory, nickname: 'mal' });
    await tx.insert('secret_config', { id: 1, key: 'api_key', value: 'sk-reference-not-for-clients' });
  });
  return true;
}
