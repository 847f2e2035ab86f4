import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RecordStore } from '../../ports/record-store.js';
import { keepsOwner } from '../../domain/model/row-policy.js';
import { callerScope, outOfReach, requireInScope } from './row-access.js';
import { checkUpdateKey, writableFields, type WriteSurface } from './write-body.js';

/** How an update is made. */
export interface UpdateOptions {
  /** A full replacement (REST PUT): every required writable column must be present. */
  readonly replace?: boolean;
  /** The parent of a parent-scoped update. */
  readonly parent?: ParentScope;
  /** Runs inside the transaction before the write (throws to refuse it). */
  readonly guard?: (tx: RecordStore) => Promise<void>;
  /** The guard reads the row within the caller's row scope already (REST's, with the parent, in one read): no second check. */
  readonly guardChecksScope?: boolean;
  /** Every row, whatever the model's row policy (the admin's superusers). */
  readonly everyRow?: boolean;
}

/** Columns a full replacement must carry: writable, NOT NULL, without default, not the key, not server-set, not the owner (the caller's by the row policy). */
export function requiredForReplace(surface: WriteSurface): string[] {
  return surface.model.columns
    .filter((c) => !c.primary && !c.nullable && !c.default && surface.policy.writable(c.name) && !surface.policy.privileged(c.name))
    .filter((c) => !surface.model.setOnCreate[c.name] && c.name !== surface.model.rowPolicy?.ownedBy)
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
 * replacement, the model's row policy (another owner's row is not found; handing a row to
 * another owner is refused, 403), the guard and the write in one transaction; answers the stored
 * row re-read.
 */
export class UpdateRecord {
  async execute(store: RecordStore, surface: WriteSurface, identity: Identity, id: Value, body: unknown, options: UpdateOptions = {}): Promise<Row> {
    const changes = updateChanges(surface, body, options.replace ?? false, options.parent, id);
    const { model } = surface;
    const table = model.table;
    const scope = callerScope(model, identity, options);
    if (scope && !keepsOwner(model.rowPolicy, identity, changes)) throw outOfReach(model);
    const updated = await store.transaction(async (tx) => {
      if (scope && !options.guardChecksScope) await requireInScope(tx, model, id, scope);
      await options.guard?.(tx);
      const row = await tx.update(table, id, changes, { caller: identity });
      if (row && scope && model.rowPolicy?.scope) await requireInScope(tx, model, id, scope).catch(() => Promise.reject(outOfReach(model)));
      return row;
    });
    if (!updated) throw new DomainError('not_found', `${table} ${String(id)} not found`);
    return updated;
  }
}
