import type { Identity } from '../../domain/auth/identity.js';
import { columnOf, type ModelRegistry } from '../../domain/model/model-registry.js';
import { rowScope } from '../../domain/model/row-policy.js';
import type { Value } from '../../domain/model/types.js';
import { normalizeValue } from '../../domain/model/values.js';
import type { Condition } from '../../domain/query/condition.js';

/**
 * The caller's row filters of one request, by table: the models' row policies (`ownedBy`,
 * `scope`) for the request's identity, which every GraphQL read ANDs in (SPEC: the row policy
 * holds on every surface). The identity is fixed for the request, so each table's filter is
 * worked out once.
 */
export interface RowScopes {
  /** The caller's filter of `table`'s rows (undefined: every row). */
  of(table: string): Condition | undefined;
  /** `key` as a primary key of `table` in canonical form; undefined when it cannot be one (it names no row). */
  key(table: string, key: Value): Value | undefined;
}

/** The row scopes of `identity` over the models of `registry`. */
export function rowScopes(registry: ModelRegistry, identity: Identity): RowScopes {
  const known = new Map<string, Condition | null>();
  return {
    of(table) {
      let scope = known.get(table);
      if (scope === undefined) {
        scope = rowScope(registry.require(table).rowPolicy, identity) ?? null;
        known.set(table, scope);
      }
      return scope ?? undefined;
    },
    key(table, key) {
      const model = registry.require(table);
      const column = columnOf(model, model.primaryKey);
      if (!column) return undefined;
      const result = normalizeValue(column, key);
      return result.ok && result.value !== null ? result.value : undefined;
    },
  };
}
