import type { FileRule } from '../storage/upload-rules.js';
import type { RowPolicy } from './row-policy.js';
/**
 * Neutral model metadata. The host application declares models once (see `defineModel`);
 * every adapter (persistence, REST, GraphQL) derives its own view from these plain objects.
 * Nothing here knows about an ORM or a transport.
 */

/** Column value types a model may declare. */
export type ColumnType =
  | 'int'
  | 'bigint'
  | 'text'
  | 'string'
  | 'bool'
  | 'float'
  | 'decimal'
  | 'date'
  | 'timestamp'
  | 'json'
  | 'uuid';

/** How a primary key gets its value: database sequence, caller-supplied string, or generated UUID. */
export type PrimaryKeyKind = 'int-auto' | 'string' | 'uuid';

/** A JSON-compatible value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A value as the domain sees it: int/float → number; bigint/decimal/text/string/uuid/date
 * (`YYYY-MM-DD`) → string; bool → boolean; timestamp → Date; json → JsonValue.
 */
export type Value = string | number | boolean | Date | null | JsonValue;

/** One stored record, keyed by column name (database names, snake_case). */
export type Row = Record<string, Value>;

/** A column default: a literal, the current time, or a fresh UUID. */
export type ColumnDefault =
  | { readonly kind: 'value'; readonly value: Value }
  | { readonly kind: 'now' }
  | { readonly kind: 'uuid' };

/** A foreign key: column `author_id` is relation `author` to table `author`'s primary key. */
export interface ForeignKey {
  readonly relation: string;
  readonly table: string;
  readonly column: string;
}

export interface ColumnDef {
  readonly name: string;
  readonly type: ColumnType;
  readonly primary: boolean;
  readonly pkKind?: PrimaryKeyKind;
  readonly nullable: boolean;
  readonly unique: boolean;
  /** Unique compared case-insensitively (implies `unique`). */
  readonly uniqueIgnoreCase: boolean;
  readonly default?: ColumnDefault;
  readonly references?: ForeignKey;
  /** Stripped from responses and write bodies (SPEC "Model resource" 3). */
  readonly hidden: boolean;
  /** Readable only when an unlock rule passes (SPEC "GraphQL types" 5). */
  readonly private: boolean;
  /** Never mass-assigned from an untrusted body (DESIGN §3 "field policy on writes"). */
  readonly privileged: boolean;
  /** Stripped from write bodies only (SPEC "Model resource" 3). */
  readonly noform: boolean;
  /**
   * A file column (`c.file(...)`, type `json`): it holds a `StoredFileValue`, is written only from
   * an upload (never from a JSON body) and is answered as `{name, size, content_type, url}`.
   */
  readonly file?: FileRule;
}

/** A many-to-many relation stored in a junction table with two foreign keys. */
export interface ManyToManyDef {
  readonly name: string;
  readonly target: string;
  readonly through: string;
  readonly sourceColumn: string;
  readonly targetColumn: string;
}

/** A column set by the server on create from the caller, never from a body (for example `created_by_id`). */
export type ServerSetFn = (caller: { readonly id: Value | null; readonly isAuthenticated: boolean }) => Value;

export interface ModelDef {
  readonly table: string;
  readonly columns: readonly ColumnDef[];
  readonly primaryKey: string;
  readonly pkKind: PrimaryKeyKind;
  /** True when the model has a `deleted_at` column: deleting stamps it (SPEC "Model resource" 6). */
  readonly softDelete: boolean;
  readonly manyToMany: readonly ManyToManyDef[];
  /** Column sets that must be unique together. */
  readonly uniqueTogether: readonly (readonly string[])[];
  /**
   * Columns the server sets on create from the caller (the model's write policy, honoured by
   * REST, GraphQL and every other surface); a write body may not supply them.
   */
  readonly setOnCreate: Readonly<Record<string, ServerSetFn>>;
  /** Which rows a caller reaches, on every surface (the model's `ownedBy`/`scope`, and surfaces' sugar for it). */
  readonly rowPolicy?: RowPolicy;
}
