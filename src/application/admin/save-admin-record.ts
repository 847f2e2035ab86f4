import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { columnOf, type ModelRegistry } from '../../domain/model/model-registry.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import { parseTextValue } from '../../domain/rest/list-query.js';
import type { RecordStore } from '../../ports/record-store.js';
import { keyText, linkIds, loadLinks, replaceLinks } from '../rest/m2m-links.js';
import { CreateRecord } from '../write/create-record.js';
import { readInScope } from '../write/row-access.js';
import { UpdateRecord } from '../write/update-record.js';
import type { WriteSurface } from '../write/write-body.js';
import { writeAudit } from './admin-audit.js';
import { adminScope, refuseForeignChoices } from './admin-rows.js';
import type { AdminVersions } from './admin-versions.js';

const same = (a: Value | undefined, b: Value | undefined): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Splits the many-to-many id lists off a body (they are written through the junction tables).
 * A form posts every id as text: each is read as the target key's type (`'7'` is 7 for an integer
 * key), and left as posted when it is not one, for `linkIds` to refuse.
 */
function splitLinks(registry: ModelRegistry, model: ModelDef, body: Record<string, unknown>): { columns: Record<string, unknown>; links: Map<string, unknown> } {
  const columns = { ...body };
  const links = new Map<string, unknown>();
  for (const rel of model.manyToMany) {
    const posted = columns[rel.name];
    const column = columnOf(registry.require(rel.through), rel.targetColumn);
    if (rel.name in columns) links.set(rel.name, Array.isArray(posted) && column ? posted.map((v: unknown) => (typeof v === 'string' ? (parseTextValue(column, v) ?? v) : v)) : posted);
    delete columns[rel.name];
  }
  return { columns, links };
}

/**
 * The admin's create and change: the shared write path (`CreateRecord`, `UpdateRecord`: field
 * policy, privileged columns, server-set columns, signals), the many-to-many links, and the
 * history row, all in one transaction. For a caller who is not a superuser the model's row
 * policy holds (another owner's row is `not_found`; a row given to another owner is `forbidden`),
 * and a foreign key or link newly pointing at another owner's row of a scoped model is
 * `invalid_input` beside its field. A change carrying the version its form showed is compared
 * with the row read locked in the same transaction: a stale one is refused
 * (`StaleAdminRecord`, nothing written), so of racing saves of one version exactly one wins.
 */
export class SaveAdminRecord {
  private readonly creator = new CreateRecord();
  private readonly updater = new UpdateRecord();

  constructor(
    private readonly store: RecordStore,
    private readonly registry: ModelRegistry,
    private readonly versions: AdminVersions,
  ) {}

  async create(surface: WriteSurface, identity: Identity, body: Record<string, unknown>): Promise<Row> {
    const { model } = surface;
    const { columns, links } = splitLinks(this.registry, model, body);
    return this.store.transaction(async (tx) => {
      await refuseForeignChoices(tx, this.registry, model, identity, { columns: this.writable(surface, columns), links: this.linkLists(model, links) });
      const row = await this.creator.execute(tx, surface, identity, columns, undefined, { everyRow: identity.isSuperuser });
      await this.writeLinks(tx, model, row, links);
      const written = Object.keys(columns).filter((c) => surface.policy.writable(c));
      await writeAudit(tx, identity, 'add', model.table, row[model.primaryKey] ?? null, [...written, ...links.keys()]);
      return row;
    });
  }

  /**
   * Saves a change form. `version`: the version the form showed (its `_version`), compared with
   * the row read locked before anything is written; undefined: no comparison.
   */
  async update(surface: WriteSurface, identity: Identity, id: Value, body: Record<string, unknown>, guard?: (before: Row) => void, version?: string): Promise<Row> {
    const { model } = surface;
    const { columns, links } = splitLinks(this.registry, model, body);
    return this.store.transaction(async (tx) => {
      const scope = adminScope(model, identity);
      const before = scope || version !== undefined ? await readInScope(tx, model, id, scope, version === undefined ? undefined : 'update') : await tx.getById(model.table, id);
      if (!before) throw new DomainError('not_found', `${model.table} ${String(id)} not found`);
      guard?.(before);
      this.versions.check(model, before, version);
      const oldLinks = await Promise.all(model.manyToMany.filter((r) => links.has(r.name)).map(async (r) => [r.name, (await loadLinks(tx, this.registry, model, r, [before]))[0] ?? []] as const));
      await refuseForeignChoices(tx, this.registry, model, identity, { columns: this.writable(surface, columns), links: this.linkLists(model, links), before, oldLinks: new Map(oldLinks) });
      const after = await this.updater.execute(tx, surface, identity, id, columns, { everyRow: identity.isSuperuser });
      const changed = model.columns.map((c) => c.name).filter((c) => !same(before[c], after[c]));
      await this.writeLinks(tx, model, after, links);
      for (const [name, old] of oldLinks) {
        const now = linkIds(this.registry, model.manyToMany.find((r) => r.name === name) as ModelDef['manyToMany'][number], links.get(name), name);
        if (old.map(keyText).sort().join() !== now.map(keyText).sort().join()) changed.push(name);
      }
      await writeAudit(tx, identity, 'change', model.table, id, changed);
      return after;
    });
  }

  /** The posted columns the write path would write (the others are stripped or refused there). */
  private writable(surface: WriteSurface, columns: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(Object.entries(columns).filter(([c]) => surface.policy.writable(c)));
  }

  /** The posted many-to-many ids, checked (`invalid_input` for a malformed list). */
  private linkLists(model: ModelDef, links: Map<string, unknown>): Map<string, Value[]> {
    return new Map(model.manyToMany.filter((r) => links.has(r.name)).map((r) => [r.name, linkIds(this.registry, r, links.get(r.name), r.name)]));
  }

  private async writeLinks(tx: RecordStore, model: ModelDef, row: Row, links: Map<string, unknown>): Promise<void> {
    for (const rel of model.manyToMany) {
      if (!links.has(rel.name)) continue;
      await replaceLinks(tx, model, row, rel, linkIds(this.registry, rel, links.get(rel.name), rel.name), rel.name);
    }
  }
}
