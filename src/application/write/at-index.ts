import { DomainError } from '../../domain/errors/domain-error.js';

/** Re-raises a failure of batch item `index` with the index attached (SPEC "Bulk endpoints" 9): every field error names it, the detail starts `item <index>:`. */
export function atIndex(error: unknown, index: number): never {
  if (error instanceof DomainError) {
    const errors = error.errors.length > 0 ? error.errors.map((e) => ({ ...e, index })) : [{ field: '(item)', message: error.detail, index }];
    throw new DomainError(error.code, `item ${index}: ${error.detail}`, errors);
  }
  throw error;
}
