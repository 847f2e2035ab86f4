import { buildReferenceApp } from '../../examples/reference/app.js';
import type { PorticoApp } from '../../src/index.js';
import { freshPgSchema } from './postgres.js';

export interface RunningReference {
  readonly app: PorticoApp;
  readonly url: string;
  get(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Starts the reference app in-process on a fresh database (SQLite in memory, or a new PostgreSQL schema). */
export async function startReference(backend: 'sqlite' | 'postgresql', database?: string): Promise<RunningReference> {
  const pg = backend === 'postgresql' && !database ? freshPgSchema() : undefined;
  const app = buildReferenceApp({ database: database ?? pg?.url ?? 'sqlite::memory:', logRequests: false, env: {} });
  const { url } = await app.listen(0);
  return {
    app,
    url,
    get: (path, init) => fetch(`${url}${path}`, init),
    async close() {
      await app.close();
      await pg?.drop();
    },
  };
}
