import pg from 'pg';

/** The PostgreSQL server tests use (DESIGN §5). */
export const PG_URL = process.env.PORTICO_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const REQUIRED = process.env.PORTICO_REQUIRE_PG === '1';

/**
 * Whether PostgreSQL answers. Without it the PostgreSQL cases are skipped with a loud notice,
 * unless PORTICO_REQUIRE_PG=1 (CI), where this throws and the test file fails.
 */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    if (REQUIRED) throw new Error(`PORTICO_REQUIRE_PG=1 but PostgreSQL at ${PG_URL} is unreachable: ${String(error)}`);
    console.warn(`\n*** PostgreSQL at ${PG_URL} is unreachable: PostgreSQL cases are SKIPPED ***\n`);
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

let counter = 0;

/** A database URL in a fresh, uniquely named schema; `drop()` removes the schema. */
export function freshPgSchema(): { url: string; schema: string; drop(): Promise<void> } {
  const schema = `portico_t${process.pid}_${Date.now().toString(36)}_${counter++}`;
  const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`;
  return {
    url,
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(`drop schema if exists "${schema}" cascade`);
      } finally {
        await client.end();
      }
    },
  };
}
