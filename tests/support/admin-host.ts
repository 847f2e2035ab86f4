import { admin, auth, c, createApp, defineModel, MemoryMailer, security, sessions, type AdminOptions, type Plugin, type PorticoApp } from '../../src/index.js';

/** The passwords of the users {@link startAdminHost} seeds: `<username>-password-1`. */
export const hostPassword = (username: string): string => `${username}-password-1`;

export interface AdminHost {
  readonly app: PorticoApp;
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A new host app as the README shows it (one model, sessions, security, auth and the admin with
 * its defaults) on SQLite in memory, with the users `root` (superuser), `staff`, `alice` (not
 * staff), `carol` (staff, for the throttle) and `dora` (staff, inactive). `after`: more plugins,
 * mounted after the admin.
 */
export async function startAdminHost(options: { admin?: AdminOptions; throttle?: boolean; after?: readonly Plugin[] } = {}): Promise<AdminHost> {
  const note = defineModel('note', { id: c.id(), title: c.text() });
  const app = createApp({ database: 'sqlite::memory:', models: [note], autoMigrate: true, logRequests: false, mailer: new MemoryMailer() })
    .use({
      name: 'admin-host-seed',
      install: async (ctx) => {
        const users: [string, boolean, boolean, boolean][] = [
          ['root', true, true, true],
          ['staff', true, false, true],
          ['alice', false, false, true],
          ['carol', true, false, true],
          ['dora', true, false, false],
        ];
        for (const [username, isStaff, isSuperuser, isActive] of users) {
          await ctx.store.insert('auth_user', {
            username,
            email: `${username}@example.com`,
            password_hash: await ctx.hasher.hash(hostPassword(username)),
            is_staff: isStaff,
            is_superuser: isSuperuser,
            is_active: isActive,
            email_verified_at: ctx.clock.now(),
          });
        }
        await ctx.store.insert('note', { title: 'First note' });
      },
    })
    .use(sessions())
    .use(security())
    .use(auth({ throttle: options.throttle ?? true }))
    .use(admin(options.admin));
  for (const plugin of options.after ?? []) app.use(plugin);
  const { url } = await app.listen(0);
  return { app, url, close: () => app.close() };
}
