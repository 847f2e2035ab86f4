import { DomainError } from '../../domain/errors/domain-error.js';

/** SPEC "Bulk endpoints" 8: batches are capped at 1000 items, refused before any database work. */
export const MAX_BATCH = 1000;

/** Checks the batch shape and size before anything touches the database. */
export function checkBatch(items: unknown, what: string): unknown[] {
  if (!Array.isArray(items)) throw new DomainError('invalid_input', `${what} must be a JSON array`);
  if (items.length === 0) throw new DomainError('invalid_input', `${what} is empty`);
  if (items.length > MAX_BATCH) throw new DomainError('invalid_input', `a batch holds at most ${MAX_BATCH} items (got ${items.length})`);
  return items;
}

/** Re-raises a failure of batch item `index` with the index attached (SPEC "Bulk endpoints" 9). */
export function atIndex(error: unknown, index: number): never {
  if (error instanceof DomainError) {
    const errors = error.errors.length > 0 ? error.errors.map((e) => ({ ...e, index })) : [{ field: '(item)', message: error.detail, index }];
    throw new DomainError(error.code, `item ${index}: ${error.detail}`, errors);
  }
  throw error;
}
