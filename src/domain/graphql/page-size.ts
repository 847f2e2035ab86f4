import { DomainError } from '../errors/domain-error.js';

/** DESIGN §3: GraphQL's list fields default to 50 and are capped at 200. */
export const LIST_DEFAULT = 50;
export const LIST_MAX = 200;

/** The page size a page-size argument asks for: the default when absent, clamped to the cap; a negative one is refused. */
export function pageSize(name: string, value: number | null | undefined): number {
  if (value === null || value === undefined) return LIST_DEFAULT;
  if (value < 0) throw new DomainError('invalid_input', `${name} must not be negative (got ${value})`, [{ field: name, message: 'must not be negative' }]);
  return Math.min(value, LIST_MAX);
}
