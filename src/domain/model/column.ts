import type { StoredFileValue } from '../storage/file-value.js';
import { fileRule, type FileRule } from '../storage/upload-rules.js';
import type { ColumnDef, ColumnType, JsonValue, Value } from './types.js';

/**
 * The declaration a host app writes for one column: a ColumnDef without its name (the key it is
 * declared under) and with the foreign key's target table still unresolved; `defineModel`
 * resolves it into a ColumnDef.
 */
export interface ColumnSpec extends Omit<ColumnDef, 'name' | 'references'> {
  /** The table a foreign key points to (`c.fk('author')`); resolved into ColumnDef's `references`. */
  readonly referencesTable?: string;
}

/**
 * What a column builder knows of its column at the type level (nothing of it exists at run
 * time): the TypeScript type of a value, and the flags the row types read (`Row`, `Insert`,
 * `Patch` in typed-model.ts).
 */
export interface ColumnTraits {
  /** The type of a non-null value as the store reads and writes it. */
  readonly value: unknown;
  readonly primary: boolean;
  readonly nullable: boolean;
  /** An insert may leave it out: it has a default, or is nullable. */
  readonly optional: boolean;
  /** The database sets it (`c.id()`): an insert or patch never names it. */
  readonly generated: boolean;
  readonly hidden: boolean;
  readonly private: boolean;
  /** A foreign key's target table, whose key type the column takes. */
  readonly target: string | undefined;
}

/** The traits of a column of `value`: required, not a key, no flags. */
export interface Plain<V> extends ColumnTraits {
  readonly value: V;
  readonly primary: false;
  readonly nullable: false;
  readonly optional: false;
  readonly generated: false;
  readonly hidden: false;
  readonly private: false;
  readonly target: undefined;
}

/** `T` with the traits of `U` in place of its own. */
export type WithTraits<T extends ColumnTraits, U extends Partial<ColumnTraits>> = {
  readonly [K in keyof ColumnTraits]: K extends keyof U ? U[K] & ColumnTraits[K] : T[K];
};

/** What `default(value)` accepts for a column: its value type, or null when it is nullable. */
export type DefaultOf<T extends ColumnTraits> = T['value'] | (T['nullable'] extends true ? null : never);

/**
 * An immutable column builder: each call returns a new builder. Its type parameter carries the
 * column's TypeScript type and flags, so `Row<typeof post>` knows `title: string`.
 *
 * @example
 * c.text().nullable()          // text null
 * c.bool().default(false)      // bool not null default false
 * c.fk('author')               // int not null, relation `author` (column must end in _id)
 */
export class ColumnBuilder<T extends ColumnTraits = ColumnTraits> {
  /** The column's type-level traits (never set: only the type exists). */
  declare readonly traits?: T;

  constructor(readonly spec: ColumnSpec) {}

  /** A new builder with `patch` applied; its traits are the caller's return type. */
  private with<R extends ColumnTraits>(patch: Partial<ColumnSpec>): ColumnBuilder<R> {
    return new ColumnBuilder<R>({ ...this.spec, ...patch });
  }
  /** Allows NULL (an insert may leave it out: it is null). */
  nullable(): ColumnBuilder<WithTraits<T, { nullable: true; optional: true }>> {
    return this.with({ nullable: true });
  }
  /** Adds a unique constraint. */
  unique(): ColumnBuilder<T> {
    return this.with({ unique: true });
  }
  /** Adds a unique constraint that compares case-insensitively (usernames, emails). */
  uniqueIgnoreCase(): ColumnBuilder<T> {
    return this.with({ unique: true, uniqueIgnoreCase: true });
  }
  /** A literal default applied when an insert omits the column; its type is the column's. */
  default(value: DefaultOf<T> & Value): ColumnBuilder<WithTraits<T, { optional: true }>> {
    return this.with({ default: { kind: 'value', value } });
  }
  /** Defaults to the current time (from the injected clock). */
  defaultNow(this: ColumnBuilder<T & { value: Date }>): ColumnBuilder<WithTraits<T, { optional: true }>> {
    return new ColumnBuilder<WithTraits<T, { optional: true }>>({ ...this.spec, default: { kind: 'now' } });
  }
  /** Defaults to a fresh random UUID. */
  defaultUuid(this: ColumnBuilder<T & { value: string }>): ColumnBuilder<WithTraits<T, { optional: true }>> {
    return new ColumnBuilder<WithTraits<T, { optional: true }>>({ ...this.spec, default: { kind: 'uuid' } });
  }
  /** Stripped from every response and write body. */
  hidden(): ColumnBuilder<WithTraits<T, { hidden: true }>> {
    return this.with({ hidden: true });
  }
  /** Readable only where an unlock rule passes. */
  private(): ColumnBuilder<WithTraits<T, { private: true }>> {
    return this.with({ private: true });
  }
  /** Never assigned from an untrusted body. */
  privileged(): ColumnBuilder<T> {
    return this.with({ privileged: true });
  }
  /** Stripped from write bodies. */
  noform(): ColumnBuilder<T> {
    return this.with({ noform: true });
  }
}

function plain<V>(type: ColumnType): ColumnBuilder<Plain<V>> {
  return new ColumnBuilder<Plain<V>>({
    type,
    primary: false,
    nullable: false,
    unique: false,
    uniqueIgnoreCase: false,
    hidden: false,
    private: false,
    privileged: false,
    noform: false,
  });
}

/** The traits of a primary key: `generated` when the database makes it, `optional` when Portico does. */
type KeyTraits<V, Generated extends boolean, Optional extends boolean> = WithTraits<Plain<V>, { primary: true; generated: Generated; optional: Optional }>;

/** Column constructors for `defineModel`; each carries its TypeScript type (`c.int()`: number). */
export const c = {
  /** Integer primary key generated by the database. */
  id: (): ColumnBuilder<KeyTraits<number, true, true>> => new ColumnBuilder({ ...plain('int').spec, primary: true, pkKind: 'int-auto' }),
  /** String primary key supplied by the caller (a slug, a code). */
  stringId: (): ColumnBuilder<KeyTraits<string, false, false>> => new ColumnBuilder({ ...plain('text').spec, primary: true, pkKind: 'string' }),
  /** UUID primary key generated on insert (an insert may give its own). */
  uuidId: (): ColumnBuilder<KeyTraits<string, false, true>> =>
    new ColumnBuilder({ ...plain('uuid').spec, primary: true, pkKind: 'uuid', default: { kind: 'uuid' } }),
  int: () => plain<number>('int'),
  /** A 64-bit integer, as a decimal string (beyond a JavaScript number's exact range). */
  bigint: () => plain<string>('bigint'),
  text: () => plain<string>('text'),
  string: () => plain<string>('string'),
  bool: () => plain<boolean>('bool'),
  float: () => plain<number>('float'),
  /** An exact decimal, as a string. */
  decimal: () => plain<string>('decimal'),
  /** A calendar date, `YYYY-MM-DD`. */
  date: () => plain<string>('date'),
  timestamp: () => plain<Date>('timestamp'),
  /** A JSON value; `c.json<{ tags: string[] }>()` types it. */
  json: <J extends JsonValue = JsonValue>() => plain<J>('json'),
  uuid: () => plain<string>('uuid'),
  /**
   * A file (issue 51): stored by the storage() plugin under a generated key, kept in a JSON column
   * as `{key, name, size, content_type}`, written through a `multipart/form-data` upload only, and
   * answered as `{name, size, content_type, url}` with a signed link. `accept` is checked on the
   * type the bytes show (`image/png`, or a family `image/*`); markup is never accepted.
   *
   * @example
   * file: c.file({ maxBytes: 5 * 1024 * 1024, accept: ['image/png', 'application/pdf'] })
   */
  file: (rule: FileRule) => new ColumnBuilder<Plain<StoredFileValue>>({ ...plain('json').spec, file: fileRule(rule) }),
  /** A foreign key to `table`'s primary key; its type follows the target's key type. */
  fk: <Table extends string>(table: Table): ColumnBuilder<WithTraits<Plain<number | string>, { target: Table }>> =>
    new ColumnBuilder({ ...plain('int').spec, referencesTable: table }),
};
