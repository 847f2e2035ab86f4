import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { rowScope } from '../../domain/model/row-policy.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import type { Condition } from '../../domain/query/condition.js';
import type { RecordStore } from '../../ports/record-store.js';

/** How a write meets the model's row policy. */
export interface RowAccess {
  /** Every row, whatever the policy (the admin's superusers; trusted code). */
  readonly everyRow?: boolean;
}

/** The row policy's filter for this caller on `model` (undefined: every row). */
export function callerScope(model: ModelDef, identity: Identity | undefined, access: RowAccess = {}): Condition | undefined {
  if (access.everyRow || !identity || !model.rowPolicy) return undefined;
  return rowScope(model.rowPolicy, identity);
}

/** Throws `not_found` unless the live row `id` is within `scope` (another owner's row is as absent as a missing one). */
export async function requireInScope(tx: RecordStore, model: ModelDef, id: Value, scope: Condition): Promise<void> {
  const [row] = await tx.find(model.table, { where: { all: [{ column: model.primaryKey, op: 'eq', value: id }, scope] }, limit: 1, columns: [model.primaryKey] });
  if (!row) throw new DomainError('not_found', `${model.table} ${String(id)} not found`);
}

/**
 * The live row `id` within `scope` (undefined: any row), read in `tx`; `lock: 'update'` locks it
 * until the transaction ends (a version compared before writing). `not_found` when absent or out of reach.
 */
export async function readInScope(tx: RecordStore, model: ModelDef, id: Value, scope: Condition | undefined, lock?: 'update'): Promise<Row> {
  const key: Condition = { column: model.primaryKey, op: 'eq', value: id };
  const [row] = await tx.find(model.table, { where: scope ? { all: [key, scope] } : key, limit: 1, ...(lock ? { lock } : {}) });
  if (!row) throw new DomainError('not_found', `${model.table} ${String(id)} not found`);
  return row;
}

/** The refusal of a write that would put a row outside the caller's reach. */
export const outOfReach = (model: ModelDef): DomainError =>
  new DomainError('forbidden', `this ${model.table} would not be yours: ${model.rowPolicy?.ownedBy ? `${model.rowPolicy.ownedBy} must be your own id` : 'it falls outside your rows'}`);
