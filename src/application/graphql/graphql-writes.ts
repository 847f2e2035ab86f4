import type { Identity } from '../../domain/auth/identity.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import type { EntityTags } from '../rest/entity-tags.js';
import { CreateRecord } from '../write/create-record.js';
import { DeleteRecord } from '../write/delete-record.js';
import { callerScope, readInScope } from '../write/row-access.js';
import { UpdateRecord } from '../write/update-record.js';
import type { WriteSurface } from '../write/write-body.js';

/**
 * The writes of one GraphQL request, bound to its caller: the one write path (`CreateRecord`,
 * `UpdateRecord`, `DeleteRecord`) with the model's write and row policies for the caller. An
 * `expectedVersion` (a row's `_version`, its REST ETag) is compared with the row read within the
 * caller's row policy and locked in the writing transaction: a stale one is
 * `precondition_failed` and nothing is written.
 */
export interface CallerWrites {
  create(surface: WriteSurface, body: Row): Promise<Row>;
  update(surface: WriteSurface, id: Value, body: Row, expectedVersion?: string | null): Promise<Row>;
  delete(model: ModelDef, id: Value, expectedVersion?: string | null): Promise<void>;
}

/** GraphQL's write use cases over one store; `for(identity)` binds them to a request's caller. */
export class GraphqlWrites {
  private readonly creates = new CreateRecord();
  private readonly updates = new UpdateRecord();
  private readonly deletes = new DeleteRecord();

  constructor(
    private readonly store: RecordStore,
    private readonly tags: EntityTags,
  ) {}

  for(identity: Identity): CallerWrites {
    return {
      create: (surface, body) => this.creates.execute(this.store, surface, identity, body),
      update: (surface, id, body, expected) => this.updates.execute(this.store, surface, identity, id, body, this.versionGuard(surface.model, identity, id, expected)),
      delete: (model, id, expected) => this.deletes.execute(this.store, model, id, { caller: identity, ...this.versionGuard(model, identity, id, expected) }),
    };
  }

  /** The write options of an update or delete given `expectedVersion`; none without one. */
  private versionGuard(model: ModelDef, identity: Identity, id: Value, expected: string | null | undefined): { guard: (tx: RecordStore) => Promise<void>; guardChecksScope: true } | undefined {
    if (expected === null || expected === undefined) return undefined;
    return {
      guard: async (tx) => this.tags.checkVersion(model, await readInScope(tx, model, id, callerScope(model, identity), 'update'), expected),
      guardChecksScope: true,
    };
  }
}
