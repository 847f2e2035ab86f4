import type { Identity } from '../../domain/auth/identity.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import { ListRecords, type ListPage } from '../read/list-records.js';
import { ReadChildren, type ChildList } from '../read/read-children.js';
import { ReadLinks, type LinkList, type TargetRows } from '../read/read-links.js';
import { RetrieveRecord } from '../read/retrieve-record.js';
import { RetrieveRecords } from '../read/retrieve-records.js';
import { ReadConnectionPage, type ConnectionArgs, type ConnectionPage, type ConnectionSource } from './read-connection-page.js';

/**
 * The reads of one GraphQL request, bound to its caller: each applies the caller's row policy
 * itself (`rowScope` of the identity), so a row out of reach is as absent as a missing one.
 */
export interface CallerReads {
  /** `posts(limit, offset)`: one page of the rows reached (`ListRecords`). */
  list(table: string, page: ListPage): Promise<Row[]>;
  /** A batch of keys: the rows reached, by `keyOf` of their key (`RetrieveRecords`). */
  byIds(table: string, keys: readonly Value[]): Promise<Map<string, Row>>;
  /** One row reached by its key, or null (`RetrieveRecord`). */
  one(table: string, id: Value): Promise<Row | null>;
  /** A relation batch: the children reached of each parent key, by `keyOf` (`ReadChildren`). */
  children(list: ChildList, parentKeys: readonly Value[]): Promise<Map<string, Row[]>>;
  /** A many-to-many batch: the linked rows reached of each source key, by `keyOf` (`ReadLinks`). */
  links(list: LinkList, keys: readonly Value[], targets?: TargetRows): Promise<Map<string, Row[]>>;
  /** `postsConnection(first, after, orderBy, desc)`: one keyset page (`ReadConnectionPage`). */
  connectionPage(source: ConnectionSource, args: ConnectionArgs): Promise<ConnectionPage>;
}

/** GraphQL's read use cases over one store; `for(identity)` binds them to a request's caller. */
export class GraphqlReads {
  private readonly listRecords: ListRecords;
  private readonly retrieveRecords: RetrieveRecords;
  private readonly retrieveRecord: RetrieveRecord;
  private readonly readChildren: ReadChildren;
  private readonly readLinks: ReadLinks;
  private readonly readConnectionPage: ReadConnectionPage;

  constructor(store: RecordStore, registry: ModelRegistry) {
    this.listRecords = new ListRecords(store, registry);
    this.retrieveRecords = new RetrieveRecords(store, registry);
    this.retrieveRecord = new RetrieveRecord(store, registry);
    this.readChildren = new ReadChildren(store, registry);
    this.readLinks = new ReadLinks(store, registry, this.retrieveRecords);
    this.readConnectionPage = new ReadConnectionPage(store);
  }

  for(identity: Identity): CallerReads {
    return {
      list: (table, page) => this.listRecords.execute(identity, table, page),
      byIds: (table, keys) => this.retrieveRecords.execute(identity, table, keys),
      one: (table, id) => this.retrieveRecord.execute(identity, table, id),
      children: (list, parentKeys) => this.readChildren.execute(identity, list, parentKeys),
      links: (list, keys, targets) => this.readLinks.execute(identity, list, keys, targets),
      connectionPage: (source, args) => this.readConnectionPage.execute(identity, source, args),
    };
  }
}
