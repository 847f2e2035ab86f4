import { tasks, type TasksPlugin } from '../../src/index.js';

/** The payload of `send_welcome`: the new account's id. */
export interface WelcomePayload {
  readonly user_id: number;
}

/**
 * The reference app's background tasks: `send_welcome`, enqueued in the signup transaction,
 * mails the new user through the configured mailer; an SMTP failure fails the attempt, which is
 * retried with backoff (5 retries from 5 s), then kept as `dead`.
 */
export function referenceTasks(): TasksPlugin {
  return tasks().define<WelcomePayload>(
    'send_welcome',
    async ({ user_id }, ctx) => {
      const user = await ctx.store.getById('auth_user', user_id);
      if (!user || typeof user.email !== 'string' || user.email === '') return;
      await ctx.mailer.send({
        to: user.email,
        subject: 'Welcome to Portico',
        text: `Hello ${String(user.username)},\n\nyour account is ready. Welcome to Portico!\n`,
        kind: 'Welcome',
        data: { username: String(user.username) },
      });
    },
    { retries: 5, backoff: { baseMs: 5_000 } },
  );
}
