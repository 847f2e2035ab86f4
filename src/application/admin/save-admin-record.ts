import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import { keyText, linkIds, loadLinks, replaceLinks } from '../rest/m2m-links.js';
import { CreateRecord } from '../write/create-record.js';
import { UpdateRecord } from '../write/update-record.js';
import type { WriteSurface } from '../write/write-body.js';
import { writeAudit } from './admin-audit.js';

const same = (a: Value | undefined, b: Value | undefined): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Splits the many-to-many id lists off a body (they are written through the junction tables). */
function splitLinks(model: ModelDef, body: Record<string, unknown>): { columns: Record<string, unknown>; links: Map<string, unknown> } {
  const columns = { ...body };
  const links = new Map<string, unknown>();
  for (const rel of model.manyToMany) {
    if (rel.name in columns) links.set(rel.name, columns[rel.name]);
    delete columns[rel.name];
  }
  return { columns, links };
}

/**
 * The admin's create and change: the shared write path (`CreateRecord`, `UpdateRecord`: field
 * policy, privileged columns, server-set columns, signals), the many-to-many links, and the
 * history row, all in one transaction.
 */
export class SaveAdminRecord {
  private readonly creator = new CreateRecord();
  private readonly updater = new UpdateRecord();

  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
  ) {}

  async create(surface: WriteSurface, identity: Identity, body: Record<string, unknown>): Promise<Row> {
    const { model } = surface;
    const { columns, links } = splitLinks(model, body);
    return this.store.transaction(async (tx) => {
      const row = await this.creator.execute(tx, surface, identity, columns);
      await this.writeLinks(tx, model, row, links);
      const written = Object.keys(columns).filter((c) => surface.policy.writable(c));
      await writeAudit(tx, identity, 'add', model.table, row[model.primaryKey] ?? null, [...written, ...links.keys()]);
      return row;
    });
  }

  async update(surface: WriteSurface, identity: Identity, id: Value, body: Record<string, unknown>, guard?: (before: Row) => void): Promise<Row> {
    const { model } = surface;
    const { columns, links } = splitLinks(model, body);
    return this.store.transaction(async (tx) => {
      const before = await tx.getById(model.table, id);
      if (!before) throw new DomainError('not_found', `${model.table} ${String(id)} not found`);
      guard?.(before);
      const after = await this.updater.execute(tx, surface, identity, id, columns);
      const changed = model.columns.map((c) => c.name).filter((c) => !same(before[c], after[c]));
      const oldLinks = await Promise.all(model.manyToMany.filter((r) => links.has(r.name)).map(async (r) => [r.name, (await loadLinks(tx, this.registry, model, r, [before]))[0] ?? []] as const));
      await this.writeLinks(tx, model, after, links);
      for (const [name, old] of oldLinks) {
        const now = linkIds(this.registry, model.manyToMany.find((r) => r.name === name) as ModelDef['manyToMany'][number], links.get(name), name);
        if (old.map(keyText).sort().join() !== now.map(keyText).sort().join()) changed.push(name);
      }
      await writeAudit(tx, identity, 'change', model.table, id, changed);
      return after;
    });
  }

  private async writeLinks(tx: RecordStore, model: ModelDef, row: Row, links: Map<string, unknown>): Promise<void> {
    for (const rel of model.manyToMany) {
      if (!links.has(rel.name)) continue;
      await replaceLinks(tx, model, row, rel, linkIds(this.registry, rel, links.get(rel.name), rel.name), rel.name);
    }
  }
}
