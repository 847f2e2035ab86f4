import type { AnySchema, ColumnName, ColumnValue } from '../model/typed-model.js';
import type { Condition, FindQuery, Operator } from './condition.js';

/**
 * Conditions and reads checked against a model's columns (type level only): a column name that
 * is not the model's, or a value of another type, is a compile error. An untyped model (a
 * `ModelDecl` without its type parameters) takes any `Condition`.
 *
 * @example
 * await app.store.find('post', { where: { column: 'published', op: 'eq', value: true } });
 * // @ts-expect-error: no column `titel`
 * await app.store.find('post', { where: where.eq('titel', 'x') });
 */
export type ConditionOf<M, S = AnySchema> = string extends ColumnName<M>
  ? Condition
  :
      | { [C in ColumnName<M>]: ColumnCondition<C, ColumnValue<M, C, S>> }[ColumnName<M>]
      | { readonly all: readonly ConditionOf<M, S>[] }
      | { readonly any: readonly ConditionOf<M, S>[] }
      | { readonly not: ConditionOf<M, S> };

/** One comparison on column `C` of values `V`. */
type ColumnCondition<C extends string, V> =
  | { readonly column: C; readonly op: Exclude<Operator, 'in' | 'isnull'>; readonly value: V }
  | { readonly column: C; readonly op: 'in'; readonly value: readonly V[] }
  | { readonly column: C; readonly op: 'isnull'; readonly value: boolean };

/** A read of `M`: its conditions, order and columns checked against the model. */
export type FindQueryOf<M, S = AnySchema> = string extends ColumnName<M>
  ? FindQuery
  : Omit<FindQuery, 'where' | 'orderBy' | 'perGroup' | 'columns'> & {
      readonly where?: ConditionOf<M, S>;
      readonly orderBy?: readonly { readonly column: ColumnName<M>; readonly direction: 'asc' | 'desc' }[];
      readonly perGroup?: { readonly column: ColumnName<M>; readonly limit: number };
      readonly columns?: readonly ColumnName<M>[];
    };

/** The options of a one-row read of `M`. */
export interface ReadOptionsOf<M> {
  readonly withDeleted?: boolean;
  readonly columns?: readonly ColumnName<M>[];
}
