import { afterEach } from 'vitest';
import { MemoryEventBus } from '../../src/adapters/events/memory-event-bus.js';
import { parseDatabaseUrl } from '../../src/adapters/persistence/database-url.js';
import { openDatabase, type Database } from '../../src/adapters/persistence/open-database.js';
import { cryptoRandomSource } from '../../src/adapters/system/crypto-random-source.js';
import { BUILTIN_MIGRATIONS, BUILTIN_MODELS, ModelRegistry } from '../../src/domain/model/index.js';
import { FixedClock } from '../../src/testing.js';
import { CONTRACT_MIGRATIONS, CONTRACT_MODELS } from './contract-models.js';
import { freshPgSchema } from './postgres.js';

/** A clock tests move by hand: portico/testing's FixedClock at this suite's start time. */
export class ManualClock extends FixedClock {
  constructor(start: Date | string = '2026-01-02T03:04:05.678Z') {
    super(start);
  }
}

export type Backend = 'memory' | 'sqlite' | 'postgresql';

export interface TestDatabase {
  readonly db: Database;
  readonly events: MemoryEventBus;
  readonly clock: ManualClock;
  readonly registry: ModelRegistry;
  close(): Promise<void>;
}

/** Opens a migrated, empty database of the contract models on `backend`. */
export async function openTestDatabase(backend: Backend): Promise<TestDatabase> {
  const registry = ModelRegistry.build([...BUILTIN_MODELS, ...CONTRACT_MODELS]);
  const events = new MemoryEventBus();
  const clock = new ManualClock();
  const pg = backend === 'postgresql' ? freshPgSchema() : undefined;
  const url = backend === 'memory' ? 'memory:' : backend === 'sqlite' ? 'sqlite::memory:' : (pg?.url as string);
  const db = await openDatabase(parseDatabaseUrl(url), { registry, events, clock, random: cryptoRandomSource }, [
    ...BUILTIN_MIGRATIONS,
    ...CONTRACT_MIGRATIONS,
  ]);
  await db.migrate();
  return {
    db,
    events,
    clock,
    registry,
    async close() {
      await db.close();
      await pg?.drop();
    },
  };
}

/**
 * For a test file: opens a database like `openTestDatabase`, closed (and its PostgreSQL schema
 * dropped) after the test that opened it.
 */
export function databasePerTest(): (backend: Backend) => Promise<TestDatabase> {
  let open: TestDatabase | undefined;
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });
  return async (backend) => (open = await openTestDatabase(backend));
}
