import type { ModelDef } from '../model/types.js';
import { isFileKey } from './file-key.js';

/** What a file column holds (one JSON value): the storage key, the kept name, the size and the sniffed type. */
export interface StoredFileValue {
  readonly key: string;
  readonly name: string;
  readonly size: number;
  readonly content_type: string;
}

/** True for a value a file column may hold. */
export function isStoredFileValue(value: unknown): value is StoredFileValue {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.key === 'string' && isFileKey(v.key) && typeof v.name === 'string' && typeof v.size === 'number' && Number.isSafeInteger(v.size) && v.size > 0 && typeof v.content_type === 'string';
}

/**
 * A file an upload just stored, as the upload path hands it to a write. Only the upload path makes
 * one, and no parsed body (JSON, a form, GraphQL variables) can: a file column takes its value
 * from an instance of this class or null, never from a client's `{key, ...}` object.
 */
export class UploadedFile implements StoredFileValue {
  constructor(
    readonly key: string,
    readonly name: string,
    readonly size: number,
    readonly content_type: string,
  ) {
    Object.freeze(this);
  }

  /** The value the column stores (a plain JSON object). */
  stored(): StoredFileValue {
    return { key: this.key, name: this.name, size: this.size, content_type: this.content_type };
  }
}

/** A file column as every surface answers it: never the storage key, a signed `url` instead. */
export interface PresentedFile {
  readonly name: string;
  readonly size: number;
  readonly content_type: string;
  readonly url: string;
}

const fileColumns = new WeakMap<ModelDef, ReadonlySet<string>>();

/** The names of the model's file columns (worked out once per model). */
export function fileColumnsOf(model: ModelDef): ReadonlySet<string> {
  let names = fileColumns.get(model);
  if (!names) fileColumns.set(model, (names = new Set(model.columns.filter((c) => c.file).map((c) => c.name))));
  return names;
}
