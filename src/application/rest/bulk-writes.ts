import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row } from '../../domain/model/types.js';
import type { ParentScope, PermissionAction } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { HydrateIncludes, Presented } from './hydrate-includes.js';
import { authorize, type RestResource } from './rest-resource.js';

/** SPEC "Bulk endpoints" 8: batches are capped at 1000 items, refused before any database work. */
export const MAX_BATCH = 1000;

/** Checks the batch shape and size before anything touches the database. */
export function checkBatch(items: unknown, what: string): unknown[] {
  if (!Array.isArray(items)) throw new DomainError('invalid_input', `${what} must be a JSON array`);
  if (items.length === 0) throw new DomainError('invalid_input', `${what} is empty`);
  if (items.length > MAX_BATCH) throw new DomainError('invalid_input', `a batch holds at most ${MAX_BATCH} items (got ${items.length})`);
  return items;
}

export { atIndex } from '../write/at-index.js';

/**
 * A bulk write answered with the rows it wrote (bulk create, bulk partial update): the caller
 * must be allowed `action`, the body must be a batch (checked before any database work), then
 * `write` stores every item or none and the written rows are presented without includes.
 */
export abstract class PresentedBulkWrite {
  protected abstract readonly action: PermissionAction;

  constructor(
    protected readonly store: RecordStore,
    private readonly hydrate: HydrateIncludes,
  ) {}

  async execute(resource: RestResource, identity: Identity, body: unknown, parent?: ParentScope): Promise<Presented[]> {
    authorize(resource, identity, this.action);
    const written = await this.write(resource, identity, checkBatch(body, 'the body'), parent);
    return this.hydrate.execute(resource, written, []);
  }

  /** Writes the batch's items all or none; a failing item's error names its index (see atIndex). */
  protected abstract write(resource: RestResource, identity: Identity, items: readonly unknown[], parent?: ParentScope): Promise<Row[]>;
}
