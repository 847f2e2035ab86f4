import { DomainError } from '../../domain/errors/domain-error.js';
import { typeSystem } from './graphql-js.js';

const { GraphQLInt } = typeSystem;

/** DESIGN §3: list fields default to 50 and are capped at 200. */
export const LIST_DEFAULT = 50;
export const LIST_MAX = 200;

/** A page-size argument: absent means the default (introspection shows it), above the cap is clamped, negative is refused. */
export const pageArg = (description: string) => ({ type: GraphQLInt, defaultValue: LIST_DEFAULT, description: `${description} (default ${LIST_DEFAULT}, at most ${LIST_MAX})` });

/** The page size a page-size argument asks for: the default when absent, clamped to the cap; a negative one is refused. */
export function pageSize(name: string, value: number | null | undefined): number {
  if (value === null || value === undefined) return LIST_DEFAULT;
  if (value < 0) throw new DomainError('invalid_input', `${name} must not be negative (got ${value})`, [{ field: name, message: 'must not be negative' }]);
  return Math.min(value, LIST_MAX);
}
