/**
 * Test helpers for host apps (`portico/testing`): an app on the in-memory store with a mail
 * outbox, a clock the test moves, and a seeded random source.
 *
 * @example
 * import { testApp } from 'portico/testing';
 * const t = await testApp({ models, plugins: [rest().resource({ table: 'book', permission: AllowAny })] });
 * const res = await fetch(`${t.url}/api/book/`);
 * await t.close();
 *
 * @packageDocumentation
 */
// Everything shared with the main entry comes through it, so `portico` and `portico/testing`
// declare one PorticoApp, one ModelRegistry… (scripts/api-report.mjs points these imports at
// the package itself in the shipped declarations).
import { createApp, MemoryMailer, type AppOptions, type AppSchema, type Clock, type ModelDecl, type Plugin, type PorticoApp, type RandomSource, type TypedStore, type UntypedSchema } from './index.js';

export { MemoryFileStorage, MemoryMailer, type MailMessage } from './index.js';

/**
 * A clock that stands still until the test moves it.
 * @public
 */
export class FixedClock implements Clock {
  private current: Date;

  /** Starts at `start` (default 2026-01-01T00:00:00Z). */
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start);
  }

  /** The fixed time (a copy). */
  now(): Date {
    return new Date(this.current);
  }

  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }

  /** Sets the clock to `time`. */
  set(time: Date | string): void {
    this.current = new Date(time);
  }
}

/**
 * A deterministic random source (sfc32 seeded from `seed`): the same seed gives the same UUIDs,
 * tokens and codes run after run. Never use it outside tests.
 * @public
 */
export class SeededRandom implements RandomSource {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed = 1) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A uniformly random integer in [0, max). */
  int(max: number): number {
    if (!Number.isSafeInteger(max) || max <= 0) throw new RangeError(`max must be a positive integer (got ${max})`);
    return Math.floor((this.next() / 2 ** 32) * max);
  }

  /** `size` pseudo-random bytes. */
  bytes(size: number): Uint8Array {
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i++) out[i] = this.next() & 0xff;
    return out;
  }

  /** A version-4 UUID from the seeded stream. */
  uuid(): string {
    const b = this.bytes(16);
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
    const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  private next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
}

/**
 * Options of {@link testApp}: those of `createApp` without the database (always the in-memory
 * store), plus the plugins to install.
 * @public
 */
export interface TestAppOptions<Models extends readonly ModelDecl[] = readonly ModelDecl[]> extends Omit<AppOptions, 'database' | 'models'> {
  /** The app's models (typed: `store` is typed by them). */
  readonly models?: Models;
  /** Plugins installed in order (`rest()`, `graphql()`, `auth()`, …). */
  readonly plugins?: readonly Plugin[];
}

/**
 * A running test app: its base URL, the app, its store (typed by the models), mail outbox and clock.
 * @public
 */
export interface TestApp<S = UntypedSchema> {
  readonly app: PorticoApp<S>;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly store: TypedStore<S>;
  readonly mailer: MemoryMailer;
  /** The app's clock (a {@link FixedClock} unless `clock` was passed). */
  readonly clock: Clock;
  /** Closes the server and the store. */
  close(): Promise<void>;
}

/**
 * Starts an app on the in-memory store (`database: 'memory:'`, same integrity rules as SQL) on
 * a random local port, with a {@link MemoryMailer}, a {@link FixedClock}, a
 * {@link SeededRandom}, request logs off and a fixed secret. Close it after the test.
 * @public
 */
export async function testApp<Models extends readonly ModelDecl[] = readonly []>(options: TestAppOptions<Models> = {}): Promise<TestApp<AppSchema<Models>>> {
  const { plugins = [], ...rest } = options;
  const mailer = rest.mailer instanceof MemoryMailer ? rest.mailer : new MemoryMailer();
  const clock = rest.clock ?? new FixedClock();
  const app = createApp({ logRequests: false, secret: 'portico-test-secret-0123456789abcdef', random: new SeededRandom(), ...rest, database: 'memory:', mailer, clock });
  for (const plugin of plugins) app.use(plugin);
  const { url } = await app.listen(0);
  return { app, url, store: app.store, mailer, clock, close: () => app.close(0) };
}
