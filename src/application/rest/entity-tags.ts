import { createHmac, hash } from 'node:crypto';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { JsonValue, ModelDef, Row, Value } from '../../domain/model/types.js';
import type { Presented } from './hydrate-includes.js';

/**
 * A write's `If-Match` precondition, as the HTTP adapter parsed it: `'*'` (any current row), or
 * the strong entity tags listed (weak ones are left out: they never match for If-Match).
 */
export type IfMatch = '*' | readonly string[];

/** A one-row REST answer: the presented row, and the entity tag of the row as stored. */
export interface TaggedRow {
  readonly body: Presented;
  readonly etag: string;
}

/** The key of the tags when the app has no secret of its own (a random per-process one would split processes). */
const UNKEYED = 'portico entity tag';

/**
 * Strong entity tags (RFC 9110 §8.8.3) of stored rows: `"` + the first 22 base64url characters
 * (132 bits) of SHA-256 over a 256-bit key and the canonical JSON of the row's column values in
 * the model's column order (every column, hidden ones too: any change changes the tag) + `"`:
 * a keyed hash, truncated (so that no length extension applies), in one call where an HMAC needs
 * a keyed object per row (see docs/decisions.md). Keyed by the app secret when one is configured, so that a tag reveals nothing of the columns a caller cannot
 * see (a hidden low-entropy column could otherwise be found by hashing guesses); every process
 * that shares the secret (as they must for CSRF tokens) computes the same tag. Without a
 * configured secret the key is a fixed one.
 *
 * @example
 * const tags = new EntityTags(settings.configuredSecret);
 * tags.of(model, row); // '"3q2-7wAAAAAAAAAAAAAAAA"'
 */
export class EntityTags {
  /** The key, as the text every hashed row starts with. */
  private readonly key: string;

  constructor(secret: string | undefined) {
    this.key = createHmac('sha256', secret ?? UNKEYED).update(UNKEYED).digest('base64url');
  }

  /** The tag of `row` (read with every column: a partial row is a programming error). */
  of(model: ModelDef, row: Row): string {
    return `"${hash('sha256', this.key + canonicalRow(model, row), 'base64url').slice(0, 22)}"`;
  }

  /**
   * Throws `precondition_failed` unless `row` (as the writing transaction read it) satisfies
   * `ifMatch`: `*`, or a list holding its current tag. No precondition: nothing to check.
   */
  check(model: ModelDef, row: Row, ifMatch: IfMatch | undefined): void {
    if (ifMatch === undefined || ifMatch === '*') return;
    if (!ifMatch.includes(this.of(model, row))) {
      throw new DomainError('precondition_failed', `${model.table} ${String(row[model.primaryKey])} has changed since the version If-Match names: read it again (its ETag) and retry`);
    }
  }

  /**
   * Whether `version` (a version a write carried: the admin form's `_version`, GraphQL's
   * `expectedVersion`, a bulk item's `_version`) is the current tag of `row`. The tag is accepted
   * as `of` gives it (`"…"`, the REST ETag) or without its quotes.
   */
  matches(model: ModelDef, row: Row, version: string): boolean {
    const tag = version.startsWith('"') ? version : `"${version}"`;
    return tag === this.of(model, row);
  }

  /**
   * Throws `precondition_failed` unless `row` (as the writing transaction read it, locked) is at
   * `version` (see {@link matches}); no version: nothing to check.
   */
  checkVersion(model: ModelDef, row: Row, version: string | undefined): void {
    if (version === undefined || this.matches(model, row, version)) return;
    throw new DomainError('precondition_failed', `${model.table} ${String(row[model.primaryKey])} has changed since the version given: read it again (its current version) and retry`);
  }
}

/** True when a precondition needs the row's current version (and so a locked read): a list of tags, not `*`. */
export const comparesVersion = (ifMatch: IfMatch | undefined): ifMatch is readonly string[] => ifMatch !== undefined && ifMatch !== '*';

/** The canonical JSON of a row: its column values in column order (timestamps in ISO form, object keys sorted). */
export function canonicalRow(model: ModelDef, row: Row): string {
  // JSON.stringify of the array of canonical values, written out: most values are scalars.
  let text = '[';
  for (const c of model.columns) {
    const value = row[c.name];
    if (value === undefined) throw new Error(`the entity tag of ${model.table} needs every column; ${c.name} was not read`);
    if (text.length > 1) text += ',';
    if (value === null || typeof value === 'boolean') text += String(value);
    else if (typeof value === 'number') text += Number.isFinite(value) ? String(value) : 'null';
    else text += JSON.stringify(canonical(value));
  }
  return `${text}]`;
}

function canonical(value: Value): JsonValue {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => canonical(v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(value).sort()) out[key] = canonical(value[key] as Value);
    return out;
  }
  return value;
}
