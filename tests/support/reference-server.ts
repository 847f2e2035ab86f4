import { buildReferenceApp } from '../../examples/reference/app.js';
import { MemoryMailer, type Clock, type Logger, type Plugin, type PorticoApp, type TasksPlugin } from '../../src/index.js';
import { freshPgSchema } from './postgres.js';

export interface RunningReference {
  readonly app: PorticoApp;
  readonly url: string;
  /** The outbox every mail of this app lands in. */
  readonly mailer: MemoryMailer;
  get(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface ReferenceTestOptions {
  /** An explicit database address (default: SQLite in memory, or a fresh PostgreSQL schema). */
  readonly database?: string;
  /** Environment switches of REFERENCE-APP.md (`REQUIRE_VERIFIED_EMAIL`, `THROTTLE`, …). */
  readonly env?: NodeJS.ProcessEnv;
  /** A logger the test reads. */
  readonly logger?: Logger;
  /** The port to listen on (default: any free one). */
  readonly port?: number;
  /** A clock the test moves. */
  readonly clock?: Clock;
  /** Keep the app's own mailer (for example SMTP from `env.SMTP_URL`) instead of the outbox. */
  readonly realMailer?: boolean;
  /** Defines more tasks on the app's task plugin. */
  readonly defineTasks?: (plugin: TasksPlugin) => void;
  /** More plugins, mounted after the app's own. */
  readonly plugins?: readonly Plugin[];
}

/** Starts the reference app in-process on a fresh database with an in-memory mailer. */
export async function startReference(backend: 'sqlite' | 'postgresql', options: ReferenceTestOptions | string = {}): Promise<RunningReference> {
  const opts = typeof options === 'string' ? { database: options } : options;
  const pg = backend === 'postgresql' && !opts.database ? freshPgSchema() : undefined;
  const mailer = new MemoryMailer();
  const app = buildReferenceApp({
    database: opts.database ?? pg?.url ?? 'sqlite::memory:',
    logRequests: false,
    env: opts.env ?? {},
    ...(opts.realMailer ? {} : { mailer }),
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.logger ? { logger: opts.logger } : {}),
    ...(opts.defineTasks ? { defineTasks: opts.defineTasks } : {}),
  });
  for (const plugin of opts.plugins ?? []) app.use(plugin);
  const { url } = await app.listen(opts.port ?? 0);
  return {
    app,
    url,
    mailer,
    get: (path, init) => fetch(`${url}${path}`, { redirect: 'manual', ...init }),
    async close() {
      await app.close();
      await pg?.drop();
    },
  };
}
