import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { checkUpdateKey, writableFields, type WriteSurface } from './write-body.js';

/** How an update is made. */
export interface UpdateOptions {
  /** A full replacement (REST PUT): every required writable column must be present. */
  readonly replace?: boolean;
  /** The parent of a parent-scoped update. */
  readonly parent?: ParentScope;
  /** Runs inside the transaction before the write (REST: the caller's row scope; throws not_found). */
  readonly guard?: (tx: RecordStore) => Promise<void>;
}

/** Columns a full replacement must carry: writable, NOT NULL, without default, not the key, not server-set. */
export function requiredForReplace(surface: WriteSurface): string[] {
  return surface.model.columns
    .filter((c) => !c.primary && !c.nullable && !c.default && surface.policy.writable(c.name) && !surface.policy.privileged(c.name))
    .filter((c) => !surface.model.setOnCreate[c.name])
    .map((c) => c.name);
}

/** The columns an update body writes: the field policy applied, the key dropped, a replacement checked for completeness. */
export function updateChanges(surface: WriteSurface, body: unknown, replace: boolean, parent?: ParentScope, id?: Value): Row {
  if (id !== undefined) checkUpdateKey(surface.model, body, id);
  const changes = writableFields(surface, body, undefined, parent);
  delete changes[surface.model.primaryKey];
  if (replace) {
    const missing = requiredForReplace(surface).filter((name) => changes[name] === undefined && name !== parent?.column);
    if (missing.length > 0) {
      throw new DomainError('invalid_input', `missing required fields: ${missing.join(', ')}`, missing.map((field) => ({ field, message: 'required' })));
    }
  }
  return changes;
}

/**
 * The one update path of every surface: the field policy on the body, the required columns of a
 * replacement, the guard and the write in one transaction; answers the stored row re-read.
 */
export class UpdateRecord {
  async execute(store: RecordStore, surface: WriteSurface, identity: Identity, id: Value, body: unknown, options: UpdateOptions = {}): Promise<Row> {
    const changes = updateChanges(surface, body, options.replace ?? false, options.parent, id);
    const table = surface.model.table;
    const updated = await store.transaction(async (tx) => {
      await options.guard?.(tx);
      return tx.update(table, id, changes, { caller: identity });
    });
    if (!updated) throw new DomainError('not_found', `${table} ${String(id)} not found`);
    return updated;
  }
}
