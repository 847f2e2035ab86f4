import { ThrottleGate } from '../../application/auth/throttle-gate.js';
import { BulkCreate } from '../../application/rest/bulk-create.js';
import { BulkDelete } from '../../application/rest/bulk-delete.js';
import { BulkUpdate } from '../../application/rest/bulk-update.js';
import { CreateRow } from '../../application/rest/create-row.js';
import { DeleteRow } from '../../application/rest/delete-row.js';
import { HydrateIncludes } from '../../application/rest/hydrate-includes.js';
import { ListRows } from '../../application/rest/list-rows.js';
import type { NestedSpec } from '../../application/rest/nested-tree.js';
import { NestedWrites } from '../../application/rest/nested-writes.js';
import { RetrieveRow } from '../../application/rest/retrieve-row.js';
import { RunAction } from '../../application/rest/run-action.js';
import { UpdateRow } from '../../application/rest/update-row.js';
import type { PluginContext } from '../plugin.js';
import { TOKENS, type Resolve } from '../tokens.js';

/**
 * Binds the REST use cases (`TOKENS.ListRows`, `RetrieveRow`, `CreateRow`, `UpdateRow`,
 * `DeleteRow`, the bulk ones, `RunAction`), the `?include` and nested-write helpers, and the
 * per-resource throttle (`RestThrottle`); the entity tags (`EntityTags`) are the container's. They
 * read the field policy of a table from `TOKENS.RestServed`, which the REST plugin binds first.
 */
export function bindRestUseCases(ctx: PluginContext, nested: NestedSpec): void {
  const resourceOf = (get: Resolve) => get(TOKENS.RestServed).resourceOf;
  ctx.bindFactory(TOKENS.HydrateIncludes, (get) => new HydrateIncludes(get(TOKENS.Store), get(TOKENS.Registry), resourceOf(get)));
  ctx.bindFactory(TOKENS.NestedWrites, (get) => new NestedWrites(get(TOKENS.Store), get(TOKENS.Registry), nested, resourceOf(get)));
  ctx.bindFactory(TOKENS.ListRows, (get) => new ListRows(get(TOKENS.Store), get(TOKENS.HydrateIncludes)));
  ctx.bindFactory(TOKENS.RetrieveRow, (get) => new RetrieveRow(get(TOKENS.Store), get(TOKENS.HydrateIncludes), get(TOKENS.EntityTags)));
  const files = () => ctx.getOptional(TOKENS.StoredFiles);
  ctx.bindFactory(TOKENS.CreateRow, (get) => new CreateRow(get(TOKENS.Store), get(TOKENS.HydrateIncludes), get(TOKENS.EntityTags), get(TOKENS.NestedWrites), files));
  ctx.bindFactory(TOKENS.UpdateRow, (get) => new UpdateRow(get(TOKENS.Store), get(TOKENS.HydrateIncludes), get(TOKENS.EntityTags), get(TOKENS.NestedWrites), files));
  ctx.bindFactory(TOKENS.DeleteRow, (get) => new DeleteRow(get(TOKENS.Store), get(TOKENS.EntityTags)));
  ctx.bindFactory(TOKENS.BulkCreate, (get) => new BulkCreate(get(TOKENS.Store), get(TOKENS.HydrateIncludes)));
  ctx.bindFactory(TOKENS.BulkUpdate, (get) => new BulkUpdate(get(TOKENS.Store), get(TOKENS.HydrateIncludes), get(TOKENS.EntityTags)));
  ctx.bindFactory(TOKENS.BulkDelete, (get) => new BulkDelete(get(TOKENS.Store)));
  ctx.bindFactory(TOKENS.RunAction, (get) => new RunAction(get(TOKENS.Store)));
  ctx.bindFactory(TOKENS.RestThrottle, (get) => new ThrottleGate(get(TOKENS.ThrottleStore)));
}
