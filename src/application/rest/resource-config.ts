import type { Identity } from '../../domain/auth/identity.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { JsonSchema } from '../../domain/rest/action-schema.js';
import type { CrudAction, FieldConfig, PermissionClass, ScopeFn } from '../../domain/rest/resource-config.js';
import type { ColumnName, Row as ModelRow } from '../../domain/model/typed-model.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { TypedStore } from '../../ports/typed-store.js';

/** Per-table REST configuration (SPEC "Exposure controls": `resource(cfg)`). */
export interface ResourceConfig extends FieldConfig {
  /** Who may call each action (default ReadOnly). */
  readonly permission?: PermissionClass;
  /** The built-in actions served (default all five). */
  readonly views?: readonly CrudAction[];
  /**
   * Sugar for the model's row policy (`defineModel(…, { ownedBy })`): every surface (REST,
   * GraphQL, admin) reaches only the rows whose `column` is the caller's id.
   */
  readonly ownedBy?: string;
  /** Sugar for the model's row `scope`: a further row filter per caller, on every surface. */
  readonly scope?: ScopeFn;
  /** A throttle such as `'100/min'` per caller (by user id, else IP). */
  readonly throttle?: string;
  /** Collection-level bulk create, update and delete (SPEC "Bulk endpoints"; off by default). */
  readonly bulk?: boolean;
  /** Serve only under a parent: `/<prefix>/<parent>/{parent_id}/<table>` (SPEC "Parent-scoped sub-resources"). */
  readonly under?: { readonly parent: string; readonly fk: string };
  /** Nested writes: JSON array `key` holds rows of child `table` (SPEC "Nested writes"; `nested(key, table)`). */
  readonly nested?: readonly { readonly key: string; readonly table: string }[];
  /** Typed custom actions (SPEC "Custom actions and their schemas"); views do not affect them. */
  readonly actions?: readonly ActionDef[];
}

/** What an action handler receives. */
export interface ActionContext {
  readonly identity: Identity;
  /** The row, for a Detail action (already scoped: another owner's or parent's row is a 404). */
  readonly row?: Row;
  /** The body, already validated against the input schema. */
  readonly body: unknown;
  /** The query string's parameters (read-only: over HTTP the object is frozen). */
  readonly query: Readonly<Record<string, string | string[] | undefined>>;
}

/** What an action answers: a status (default 200) and a JSON body. */
export interface ActionResult {
  readonly status?: number;
  readonly body?: unknown;
}

/** Helpers an action handler may use: the store and the resource's presentation (field policy applied). */
export interface ActionTools {
  readonly store: RecordStore;
  /** The row as the resource's field policy shows it. */
  present(row: Row): Record<string, Value>;
}

/**
 * A custom action (SPEC "Custom action definition"). Detail: `/<table>/{id}/<name>/`; List:
 * `/<table>/<name>/`. It inherits the resource's permission class unless it declares one;
 * safe methods count as reads, others as changes (Detail) or adds (List).
 *
 * @example
 * { name: 'publish', method: 'POST', scope: 'Detail', input: { type: 'object', required: ['reason'] },
 *   handler: async ({ row }, { store, present }) => ({ body: present((await store.update('post', row!.id!, { published: true }))!) }) }
 */
export interface ActionDef {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly scope: 'Detail' | 'List';
  /** JSON Schema validated before the handler runs (the enforced subset, see action-schema.ts). */
  readonly input?: JsonSchema;
  /** JSON Schema published as the success response in the OpenAPI document. */
  readonly output?: JsonSchema;
  /** The status a success answers (default 200; 202 for work done later, say), as the document publishes it. */
  readonly status?: 200 | 201 | 202 | 204;
  readonly permission?: PermissionClass;
  readonly summary?: string;
  readonly handler: (ctx: ActionContext, tools: ActionTools) => Promise<ActionResult> | ActionResult;
}

/**
 * A resource's configuration checked against schema `S` (`rest({ models })`): `table` is one of
 * its tables, the column lists and `ownedBy` name that table's columns, and an action's row and
 * store are typed. With the untyped schema it is `ResourceConfig`.
 */
export type TypedResourceConfig<S, N extends string> = Omit<ResourceConfig, 'table' | 'hide' | 'noform' | 'privileged' | 'ownedBy' | 'actions'> & {
  readonly table: N;
  readonly hide?: readonly ColumnName<S[N & keyof S]>[];
  readonly noform?: readonly ColumnName<S[N & keyof S]>[];
  readonly privileged?: readonly ColumnName<S[N & keyof S]>[];
  readonly ownedBy?: ColumnName<S[N & keyof S]>;
  readonly actions?: readonly TypedActionDef<S, N>[];
};

/** A custom action of table `N` of schema `S`: its handler's row (there for a Detail action, absent for a List one) and store typed. */
export type TypedActionDef<S, N extends string> =
  | (Omit<ActionDef, 'handler' | 'scope'> & { readonly scope: 'Detail'; readonly handler: TypedActionHandler<S, N, { readonly row: ModelRow<S[N & keyof S], S> }> })
  | (Omit<ActionDef, 'handler' | 'scope'> & { readonly scope: 'List'; readonly handler: TypedActionHandler<S, N, { readonly row?: undefined }> });

type TypedActionHandler<S, N extends string, RowOf> = (
  ctx: Omit<ActionContext, 'row'> & RowOf,
  tools: { readonly store: TypedStore<S>; present(row: ModelRow<S[N & keyof S], S>): Record<string, Value> },
) => Promise<ActionResult> | ActionResult;
