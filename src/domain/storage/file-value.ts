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
