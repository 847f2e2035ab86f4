import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { auth, cache, createApp, health, liveReload, staticFiles, storage, openapi, realtime, security, sessions, SmtpMailer, type Clock, type Logger, type Mailer, type PorticoApp } from '../../src/index.js';
import { REFERENCE_MIGRATIONS, REFERENCE_MODELS } from './models.js';
import { referenceGraphql } from './graphql-config.js';
import { referencePages } from './pages.js';
import { referenceAdmin, referencePermissions } from './admin-config.js';
import { referenceRest } from './rest-config.js';
import { referenceTasks } from './tasks.js';
import type { TasksPlugin } from '../../src/index.js';
import { seedReference } from './seed.js';
import { referenceProviders, referenceSocial } from './social.js';

/** A folder beside this file in the source tree (dist/ holds no copy): the mail templates, the static files. */
const besideSource = (name: string): string => fileURLToPath(existsSync(new URL(`./${name}`, import.meta.url)) ? new URL(`./${name}`, import.meta.url) : new URL(`../../../examples/reference/${name}`, import.meta.url));

/** The reference app's mail templates. */
const TEMPLATES = besideSource('templates');

export interface ReferenceOptions {
  /** Database address (REFERENCE-APP.md "Starting it"). */
  readonly database: string;
  /** Environment switches; defaults to process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** One log line per request (default true). */
  readonly logRequests?: boolean;
  /** Replaces the mailer (tests pass an in-memory outbox). */
  readonly mailer?: Mailer;
  /** Replaces the logger (tests read what is logged). */
  readonly logger?: Logger;
  /** Replaces the clock (tests move time). */
  readonly clock?: Clock;
  /** Defines more tasks on the app's task plugin (tests add their own). */
  readonly defineTasks?: (plugin: TasksPlugin) => void;
  /** Where `portico collectstatic` writes the collected static files (default: `examples/reference/staticfiles`). */
  readonly staticRoot?: string;
  /** Create a missing SQLite folder or PostgreSQL database (`npm start`'s `./data/`, `--create-db`). */
  readonly createDatabase?: boolean;
}

/**
 * The reference app: every model and seed row of REFERENCE-APP.md, migrated and seeded at
 * start, with sessions, CSRF and hardening headers, form and JSON auth with email
 * verification, the health probes, realtime channels (`chat/:room` for signed-in callers,
 * `chat/staff` for staff, `news` for everyone) and its own pages; in development, live reload of
 * its pages when a file of the app changes.
 */
export function buildReferenceApp(options: ReferenceOptions): PorticoApp {
  const env = options.env ?? process.env;
  const jobs = referenceTasks();
  const providers = referenceProviders(env);
  const social = referenceSocial(env, providers);
  options.defineTasks?.(jobs);
  const app: PorticoApp = createApp({
    database: options.database,
    models: REFERENCE_MODELS,
    migrations: REFERENCE_MIGRATIONS,
    autoMigrate: true,
    trustedProxyHops: Number(env.TRUSTED_PROXY_HOPS ?? 0) || 0,
    ...(env.TRUSTED_ORIGINS ? { trustedOrigins: env.TRUSTED_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean) } : {}),
    production: env.NODE_ENV === 'production',
    // The reference app's own mail templates (welcome, export); Portico's are built in.
    templatesDir: TEMPLATES,
    ...(options.mailer ? { mailer: options.mailer } : env.SMTP_URL ? { mailer: new SmtpMailer(env.SMTP_URL, env.MAIL_FROM ?? 'Portico reference <no-reply@localhost>') } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    // Portico's default bus: LISTEN/NOTIFY on PostgreSQL (events reach every process), in memory on SQLite.
    ...(env.EVENT_BUS ? { events: referenceEventBus(env.EVENT_BUS) } : {}),
    ...(options.logRequests !== undefined ? { logRequests: options.logRequests } : {}),
    ...(options.createDatabase ? { createDatabase: true } : {}),
  })
    .use({
      name: 'reference-seed',
      install: async (ctx) => {
        if (await seedReference(ctx.store, ctx.hasher, ctx.clock)) ctx.logger.info({}, 'seeded the reference data');
      },
    })
    // /static/site.css and the rest of ./static: ETag, 304, ranges; hashed names once collected.
    .use(staticFiles({ dir: besideSource('static'), ...(options.staticRoot ? { root: options.staticRoot } : {}) }))
    // Uploaded files: the disk by default, S3 with STORAGE_URL=s3://<bucket>?endpoint=…; signed links at /media/.
    .use(
      storage({
        url: env.STORAGE_URL ?? 'file:./data/media',
        ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY ? { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY } } : {}),
      }),
    )
    // The cache: this process's memory by default, Redis shared by every process with CACHE_URL=redis://…
    .use(cache({ url: env.CACHE_URL ?? 'memory:' }))
    .use(sessions())
    .use(security({ csrfExempt: ['/graphql'] }))
    .use(jobs)
    .use(
      auth({
        requireVerifiedEmail: env.REQUIRE_VERIFIED_EMAIL === '1',
        throttle: env.THROTTLE !== 'off',
        // The welcome mail's job is written in the signup transaction: no account, no mail.
        afterSignUp: (tx, user) => app.tasks.enqueueIn(tx, 'send_welcome', { user_id: user.id }),
        // Mailed links start here (default: the address the app listens on), never at a request's Host.
        ...(env.PUBLIC_URL ? { publicUrl: env.PUBLIC_URL.replace(/\/+$/, '') } : {}),
      }),
    )
    .use(health())
    // A published post is announced on the `news` channel, to every process's listeners.
    .use(
      referenceRest(
        env.PROFILE,
        (post): Promise<string> => app.realtime.publish('news', { type: 'post_published', id: post.id, title: post.title }),
        // The export's mail is a job: the request answers 202, a worker mails the attachment.
        (userId, post) => app.tasks.enqueue('export_post', { user_id: userId, post }),
      ),
    )
    .use(openapi({ enabled: env.NODE_ENV !== 'production' }))
    .use(referenceGraphql())
    .use(
      realtime()
        // Signed-in callers only; the `staff` room is for staff.
        .channel('chat/:room', { authorize: ({ identity, params }) => identity.isAuthenticated && (params.room !== 'staff' || identity.isStaff) })
        .channel('news'),
    )
    .use(referencePermissions())
    .use(referenceAdmin())
    .use(referencePages(providers.map((p) => p.name)));
  // Sign in with google or github: mounted only for the providers SOCIAL_* configures.
  if (social) app.use(social);
  // The pages are rendered by pages.ts: its folder is what changes while working on them.
  if (env.NODE_ENV !== 'production') app.use(liveReload({ watch: [fileURLToPath(new URL('.', import.meta.url))] }));
  return app;
}

/** `EVENT_BUS` chooses the bus explicitly: `memory`, `postgresql` or a `redis://` URL. */
function referenceEventBus(choice: string): 'memory' | 'postgresql' | { redis: string } {
  return choice === 'memory' || choice === 'postgresql' ? choice : { redis: choice };
}

/** For `portico migrate --app`: builds the app on the given database. */
export default function app(database: string): PorticoApp {
  return buildReferenceApp({ database });
}
