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

/** `M`'s foreign-key columns. */
type ForeignKeys<M> = { [K in keyof Cols<M>]: TraitsOf<Cols<M>[K]>['target'] extends string ? K : never }[keyof Cols<M>] & string;
type RelationOfColumn<C> = C extends `${infer R}_id` ? R : never;

/** The names of `M`'s foreign-key relations: each foreign key column without its `_id` (`author_id` → `author`). */
export type RelationName<M> = Untyped<M> extends true ? string : RelationOfColumn<ForeignKeys<M>>;

/** The table relation `R` of `M` points to. */
export type RelationTarget<M, R extends string> = Untyped<M> extends true ? string : `${R}_id` extends keyof Cols<M> ? TraitsOf<Cols<M>[`${R}_id`]>['target'] : never;

/**
 * A row of `M` with the rows relations `R` name, each under the relation's name: the target's
 * row, or null (a null key, or no live row with it). Untyped, any record.
 *
 * @example
 * type PostWithAuthor = WithRelated<typeof post, SchemaOf<typeof models>, 'author'>; // Row<post> & { author: Row<author> | null }
 */
export type WithRelated<M, S, R extends string> = Untyped<M> extends true
  ? Record<string, unknown>
  : Flatten<Row<M, S> & { [K in R]: (RelationTarget<M, K> extends keyof S ? Row<S[RelationTarget<M, K>], S> : AnyRow) | null }>;

/**
 * A nested-write spec checked against schema `S` (`writeNestedTree`): per parent table, the JSON
 * keys of its child arrays and their tables.
 *
 * @example
 * const spec = { shelf: [{ key: 'books', table: 'book' }] } as const satisfies NestedSpecOf<Schema>;
 */
export type NestedSpecOf<S> = { readonly [P in keyof S & string]?: readonly { readonly key: string; readonly table: keyof S & string }[] };

/** The foreign key column(s) of `M` to table `P`. */
type KeysTo<M, P> = { [K in keyof Cols<M>]: TraitsOf<Cols<M>[K]>['target'] extends P ? K : never }[keyof Cols<M>];
type ChildrenOf<Spec, N> = N extends keyof Spec ? (Spec[N] extends readonly (infer E)[] | undefined ? E : never) : never;
type ChildDoc<S, Spec, C, P> = C extends keyof S ? Omit<NestedDoc<S, Spec, C>, KeysTo<S[C], P>> : never;

/**
 * The document `writeNestedTree` writes for table `N` under `Spec`: an insert of `N`, and each
 * child array of the spec, whose items are inserts of the child without its key to the parent
 * (the writer sets it), recursively. Untyped models take any document.
 */
export type NestedDoc<S, Spec, N> = N extends keyof S
  ? Untyped<S[N]> extends true
    ? Record<string, unknown>
    : Insert<S[N], S> & { [E in ChildrenOf<Spec, N> as E extends { readonly key: infer K extends string } ? K : never]?: readonly ChildDoc<S, Spec, E extends { readonly table: infer T } ? T : never, N>[] }
  : Record<string, unknown>;
