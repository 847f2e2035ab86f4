import type { Identity } from '../../domain/auth/identity.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { UpdateRecord, updateChanges } from '../write/update-record.js';
import { comparesVersion, type EntityTags, type IfMatch, type TaggedRow } from './entity-tags.js';
import type { HydrateIncludes } from './hydrate-includes.js';
import type { NestedWrites } from './nested-writes.js';
import { authorize, type RestResource } from './rest-resource.js';
import type { StoredFiles } from '../storage/stored-files.js';
import { readWriteBody, type WriteBody } from './write-input.js';
import { findScoped } from './retrieve-row.js';

/**
 * The REST Update action: PUT replaces (400 listing missing required columns), PATCH changes what
 * it names; both answer the re-read row and its entity tag. With `If-Match`, the row is read
 * locked in the writing transaction and its current tag must be one of those named (else 412
 * `precondition_failed`, nothing written).
 */
export class UpdateRow {
  private readonly update = new UpdateRecord();

  constructor(
    private readonly store: RecordStore,
    private readonly hydrate: HydrateIncludes,
    private readonly tags: EntityTags,
    private readonly nested?: NestedWrites,
    private readonly files: () => StoredFiles | undefined = () => undefined,
  ) {}

  /** `body` is the parsed body, or an upload's reader (called once the caller may change rows). */
  async execute(resource: RestResource, identity: Identity, id: Value, body: WriteBody, partial: boolean, parent?: ParentScope, ifMatch?: IfMatch): Promise<TaggedRow> {
    authorize(resource, identity, 'change');
    if (typeof body !== 'function') return this.write(resource, identity, id, body, partial, parent, ifMatch);
    const input = await readWriteBody(body);
    const files = this.files();
    const write = () => this.write(resource, identity, id, input, partial, parent, ifMatch);
    return files ? files.writing(input, write) : write();
  }

  private async write(resource: RestResource, identity: Identity, id: Value, body: unknown, partial: boolean, parent?: ParentScope, ifMatch?: IfMatch): Promise<TaggedRow> {
    const { model } = resource;
    const lock = comparesVersion(ifMatch) ? 'update' : undefined;
    const precondition = (current: Row): void => this.tags.check(model, current, ifMatch);
    // The nested writer's gate checks the scoped row inside the transaction.
    if (!parent && this.nested?.applies(resource, body)) {
      updateChanges(resource, body, !partial, undefined, id);
      const tree = await this.nested.update(resource, identity, id, body, ifMatch === undefined ? undefined : { lock, check: precondition });
      return { body: tree.body, etag: this.tags.of(model, tree.row) };
    }
    const updated = await this.update.execute(this.store, resource, identity, id, body, {
      replace: !partial,
      ...(parent ? { parent } : {}),
      guard: async (tx) => precondition(await findScoped(tx, resource, identity, id, parent, lock)),
      guardChecksScope: true,
    });
    const [presented] = await this.hydrate.execute(resource, [updated], []);
    return { body: presented as TaggedRow['body'], etag: this.tags.of(model, updated) };
  }
}
