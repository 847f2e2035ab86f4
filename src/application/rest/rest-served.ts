import type { RestResource } from './rest-resource.js';

/**
 * What the REST layer serves, resolved once at boot: its mount point, every served resource
 * (after the exposure rules, with views, field policy and permission resolved) and the policy
 * lookup `?include` uses, which also answers for tables REST does not serve. The REST plugin
 * binds it to `TOKENS.RestServed` for plugins mounted after it (the OpenAPI plugin).
 *
 * @example
 * const served = ctx.get(TOKENS.RestServed);
 * served.resources.map((r) => `${served.prefix}/${r.model.table}/`); // ['/api/author/', ...]
 */
export interface RestServed {
  /** The REST mount point without a trailing slash (`/api`, or `''` at the bare root). */
  readonly prefix: string;
  /** The served resources, in registry order. */
  readonly resources: readonly RestResource[];
  /** The resource (field policy) of any registered table, served or not. */
  readonly resourceOf: (table: string) => RestResource;
}
