import { CRUD_ACTIONS, type CrudAction } from './resource-config.js';

/** The two URIs of a resource. */
export type ResourceUri = 'collection' | 'detail';

const METHODS: Readonly<Record<ResourceUri, readonly (readonly [CrudAction, readonly string[]])[]>> = {
  collection: [
    ['List', ['GET']],
    ['Create', ['POST']],
  ],
  detail: [
    ['Retrieve', ['GET']],
    ['Update', ['PUT', 'PATCH']],
    ['Delete', ['DELETE']],
  ],
};

/** The actions kept by `views([...])` (all five when unset). */
export function servedActions(views: readonly CrudAction[] | undefined): ReadonlySet<CrudAction> {
  return new Set(views ?? CRUD_ACTIONS);
}

/**
 * The methods a URI serves under a view scope (SPEC "View scope" 1-3): OPTIONS first, then the
 * methods of the kept actions; empty when no action is left (the URI answers 404, no Allow).
 * Extra methods (bulk PATCH/DELETE on the collection) may be appended by the caller.
 *
 * @example
 * allowedMethods(new Set(['List', 'Retrieve']), 'detail'); // ['OPTIONS', 'GET']
 */
export function allowedMethods(actions: ReadonlySet<CrudAction>, uri: ResourceUri, extra: readonly string[] = []): string[] {
  const methods = METHODS[uri].filter(([action]) => actions.has(action)).flatMap(([, m]) => m);
  const all = [...methods, ...extra.filter((m) => !methods.includes(m))];
  return all.length === 0 ? [] : ['OPTIONS', ...all];
}
