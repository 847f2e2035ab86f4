import { admin, permissions, type Plugin } from '../../src/index.js';

/** Django-style permissions, which the admin reads per table (`reference.change_post`, …). */
export const referencePermissions = permissions;

/**
 * The reference app's admin (docs/admin.md): every option shown on `post`; `note` is listed by
 * its body and owner; the other tables use the defaults. Staff users sign in at `/login` and
 * land back on `/admin/`.
 */
export function referenceAdmin(): Plugin {
  return admin({
    prefix: '/admin',
    loginUrl: '/login',
    appLabel: 'reference',
    models: {
      post: {
        label: 'Posts',
        listDisplay: ['title', 'author_id', 'published', 'featured', 'created_at'],
        searchFields: ['title', 'body'],
        listFilter: ['published', 'author_id', 'created_at'],
        readonlyFields: ['created_at'],
        ordering: '-created_at',
        hidden: ['score'],
        fieldsets: [
          { title: 'Content', fields: ['title', 'body', 'author_id', 'tags'] },
          { title: 'Publishing', fields: ['published', 'featured', 'created_at', 'created_by_id', 'deleted_at'] },
        ],
      },
      // The model's row policy: staff see their own notes; superusers see every one.
      note: { label: 'Notes', listDisplay: ['body', 'owner_id'], searchFields: ['body'] },
    },
  });
}
