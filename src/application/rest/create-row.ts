import type { Identity } from '../../domain/auth/identity.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { CreateRecord } from '../write/create-record.js';
import type { EntityTags, TaggedRow } from './entity-tags.js';
import type { HydrateIncludes } from './hydrate-includes.js';
import type { NestedWrites } from './nested-writes.js';
import { authorize, type RestResource } from './rest-resource.js';
import type { StoredFiles } from '../storage/stored-files.js';
import { readWriteBody, type WriteBody } from './write-input.js';

/** The REST Create action: permission, then the shared create path; 201 with the stored row and its entity tag. */
export class CreateRow {
  private readonly create = new CreateRecord();

  constructor(
    private readonly store: RecordStore,
    private readonly hydrate: HydrateIncludes,
    private readonly tags: EntityTags,
    private readonly nested?: NestedWrites,
    private readonly files: () => StoredFiles | undefined = () => undefined,
  ) {}

  /** `body` is the parsed body, or an upload's reader (called once the caller may add). */
  async execute(resource: RestResource, identity: Identity, body: WriteBody, parent?: ParentScope): Promise<TaggedRow> {
    authorize(resource, identity, 'add');
    if (typeof body !== 'function') return this.write(resource, identity, body, parent);
    const input = await readWriteBody(body);
    const files = this.files();
    const write = () => this.write(resource, identity, input, parent);
    return files ? files.writing(input, write) : write();
  }

  private async write(resource: RestResource, identity: Identity, body: unknown, parent?: ParentScope): Promise<TaggedRow> {
    if (!parent && this.nested?.applies(resource, body)) {
      const tree = await this.nested.create(resource, identity, body);
      return { body: tree.body, etag: this.tags.of(resource.model, tree.row) };
    }
    const stored = await this.create.execute(this.store, resource, identity, body, parent);
    const [presented] = await this.hydrate.execute(resource, [stored], []);
    return { body: presented as TaggedRow['body'], etag: this.tags.of(resource.model, stored) };
  }
}
