import type { ColumnBuilder, ColumnTraits } from './column.js';
import type { ColumnBuilders, ModelDecl } from './define-model.js';
import type { Row as AnyRow, Value } from './types.js';

/**
 * The row types of a model, inferred from its `defineModel` declaration (type level only: nothing
 * here exists at run time). `S` is the app's schema (`SchemaOf` its models): a foreign key takes
 * the key type of its target there; without it, `number | string`.
 *
 * @example
 * const post = defineModel('post', { id: c.id(), title: c.text(), published: c.bool().default(false) });
 * type Post = Row<typeof post>;        // { id: number; title: string; published: boolean }
 * type NewPost = Insert<typeof post>;  // { title: string; published?: boolean }
 */

/** The tables of an app by name: `SchemaOf<[typeof author, typeof post]>`. */
export type SchemaOf<Models extends readonly ModelDecl[]> = { readonly [M in Models[number] as M['table']]: M };

/** A schema that knows no table in particular: every name, untyped rows. */
export type AnySchema = Readonly<Record<string, ModelDecl>>;

/** The schema a row type resolves foreign keys in when none is given: none known (`number | string`). */
type NoSchema = Record<never, never>;

type ColumnsOf<M> = M extends ModelDecl<string, infer C, string> ? C : never;
type TraitsOf<B> = B extends ColumnBuilder<infer T> ? T : never;
/** True when `M`'s columns are not known (a `ModelDecl` without its type parameters, or `any`). */
type Untyped<M> = 0 extends 1 & M ? true : string extends keyof ColumnsOf<M> ? true : false;

/**
 * The schema of an app whose models are not known at the type level (`PorticoApp` without its
 * parameter): any table name, untyped rows. `any` so that every typed app is one too.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one type every schema is assignable to, both ways
export type UntypedSchema = any;

/** The key type of table `N` in schema `S` (`number | string` when `S` does not know it). */
export type KeyOfTable<S, N> = N extends keyof S ? Key<S[N]> : number | string;

/** The type of `M`'s primary key. */
export type Key<M> = Untyped<M> extends true
  ? Value
  : { [K in keyof ColumnsOf<M>]: TraitsOf<ColumnsOf<M>[K]>['primary'] extends true ? TraitsOf<ColumnsOf<M>[K]>['value'] : never }[keyof ColumnsOf<M>];

/** A column's value type: a foreign key's is its target's key; nullable adds null. */
type ValueOf<T extends ColumnTraits, S> = (T['target'] extends string ? KeyOfTable<S, T['target']> : T['value']) | (T['nullable'] extends true ? null : never);

type Cols<M> = ColumnsOf<M>;
type ServerSetOf<M> = M extends ModelDecl<string, ColumnBuilders, infer X> ? X : never;

/** The names of `M`'s columns whose traits match `Match`. */
type Names<M, Match extends Partial<ColumnTraits>> = { [K in keyof Cols<M>]: TraitsOf<Cols<M>[K]> extends Match ? K : never }[keyof Cols<M>] & string;

type Flatten<T> = { [K in keyof T]: T[K] } & {};

/**
 * A row of `M` as the store reads it (`Row` alone: any row, a record of values), without its hidden columns (`password_hash` is never in a
 * row type: a reader that needs it reads it on purpose); private columns are optional, since a
 * surface strips them where no unlock rule passes.
 */
export type Row<M = ModelDecl, S = NoSchema> = Untyped<M> extends true
  ? AnyRow
  : Flatten<
      { [K in Names<M, { hidden: false; private: false }>]: ValueOf<TraitsOf<Cols<M>[K]>, S> } & {
        [K in Names<M, { hidden: false; private: true }>]?: ValueOf<TraitsOf<Cols<M>[K]>, S>;
      }
    >;

/**
 * What an insert into `M` takes: the required columns required; those with a default, nullable
 * ones and those the server sets on create (`setOnCreate`) optional; generated keys absent.
 */
export type Insert<M = ModelDecl, S = NoSchema> = Untyped<M> extends true
  ? AnyRow
  : Flatten<
      { [K in Exclude<Names<M, { generated: false; optional: false }>, ServerSetOf<M>>]: ValueOf<TraitsOf<Cols<M>[K]>, S> } & {
        [K in Names<M, { generated: false; optional: true }> | (ServerSetOf<M> & keyof Cols<M>)]?: ValueOf<TraitsOf<Cols<M>[K]>, S>;
      }
    >;

/** What an update of `M` takes: any of its columns but generated keys. */
export type Patch<M = ModelDecl, S = NoSchema> = Untyped<M> extends true ? AnyRow : Flatten<{ [K in Names<M, { generated: false }>]?: ValueOf<TraitsOf<Cols<M>[K]>, S> }>;

/** The column names of `M` (every name when untyped). */
export type ColumnName<M> = Untyped<M> extends true ? string : keyof Cols<M> & string;

/** The value type of `M`'s column `C` (hidden ones too). */
export type ColumnValue<M, C, S = NoSchema> = Untyped<M> extends true ? Value : C extends keyof Cols<M> ? ValueOf<TraitsOf<Cols<M>[C]>, S> : never;
