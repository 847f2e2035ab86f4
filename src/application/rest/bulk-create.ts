import type { Identity } from '../../domain/auth/identity.js';
import type { Row } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import { CreateRecord } from '../write/create-record.js';
import { PresentedBulkWrite } from './bulk-writes.js';
import type { RestResource } from './rest-resource.js';

/**
 * Bulk create (SPEC "Bulk endpoints"): the shared create path's batch form (`CreateRecord.executeMany`):
 * every item passes the field policy (hidden stripped, privileged refused), gets the server-set
 * columns and meets the row policy; one multi-row insert, all or nothing; a failing item's error
 * names its index. Under a parent, the parent key is injected into each item.
 */
export class BulkCreate extends PresentedBulkWrite {
  protected readonly action = 'add';
  private readonly create = new CreateRecord();

  protected write(resource: RestResource, identity: Identity, items: readonly unknown[], parent?: ParentScope): Promise<Row[]> {
    return this.create.executeMany(this.store, resource, identity, items, parent);
  }
}
