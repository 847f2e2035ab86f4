import { tasks, type TasksPlugin } from '../../src/index.js';

/** The payload of `send_welcome`: the new account's id. */
export interface WelcomePayload {
  readonly user_id: number;
}

/** The payload of `export_post`: who asked, and the post as `GET /api/post/{id}` showed it to them. */
export interface ExportPayload {
  readonly user_id: number;
  readonly post: { readonly id: number; readonly title: string } & Record<string, unknown>;
}

/**
 * The reference app's background tasks, each mail from a template of `templates/reference/`
 * (text and HTML, in Portico's layout); an SMTP failure fails the attempt, which is retried with
 * backoff (5 retries from 5 s), then kept as `dead`:
 * - `send_welcome`, enqueued in the signup transaction, welcomes the new user;
 * - `export_post`, enqueued by `POST /api/post/{id}/export/`, mails the caller the post as
 *   `post-<id>.json`.
 */
export function referenceTasks(): TasksPlugin {
  return tasks()
    .define<WelcomePayload>(
      'send_welcome',
      async ({ user_id }, ctx) => {
        const user = await ctx.store.getById('auth_user', user_id);
        if (!user || typeof user.email !== 'string' || user.email === '') return;
        const mail = ctx.templates.render('reference/welcome', { username: String(user.username) });
        await ctx.mailer.send({ to: user.email, ...mail, kind: 'Welcome', data: { username: String(user.username) } });
      },
      { retries: 5, backoff: { baseMs: 5_000 } },
    )
    .define<ExportPayload>(
      'export_post',
      async ({ user_id, post }, ctx) => {
        const user = await ctx.store.getById('auth_user', user_id);
        if (!user || typeof user.email !== 'string' || user.email === '') return;
        const file = `post-${post.id}.json`;
        const mail = ctx.templates.render('reference/export', { username: String(user.username), id: String(post.id), title: post.title, file });
        const content = new TextEncoder().encode(JSON.stringify(post));
        await ctx.mailer.send({ to: user.email, ...mail, kind: 'PostExport', attachments: [{ filename: file, contentType: 'application/json', content }] });
      },
      { retries: 5, backoff: { baseMs: 5_000 } },
    );
}
