import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { columnOf } from '../../domain/model/model-registry.js';
import { rowScope } from '../../domain/model/row-policy.js';
import type { ModelDef, Row } from '../../domain/model/types.js';
import { parseTextValue } from '../../domain/rest/list-query.js';
import type { RecordStore } from '../../ports/record-store.js';

/**
 * The live row of `model` whose key is the URL text `id`, or a 404 — also when `id` cannot be
 * coerced to the key type (SPEC "Parent-scoped sub-resources" 7). For custom handlers too. Given
 * the caller, the model's row policy applies: another owner's row is a 404 as well.
 *
 * @example
 * const project = await existsOr404(store, registry.require('project'), req.params.projectId, identity);
 */
export async function existsOr404(store: RecordStore, model: ModelDef, id: string, identity?: Identity): Promise<Row> {
  const pk = columnOf(model, model.primaryKey);
  const value = pk ? parseTextValue(pk, id) : undefined;
  const scope = identity ? rowScope(model.rowPolicy, identity) : undefined;
  const row =
    value === undefined || value === null
      ? null
      : scope
        ? ((await store.find(model.table, { where: { all: [{ column: model.primaryKey, op: 'eq', value }, scope] }, limit: 1 }))[0] ?? null)
        : await store.getById(model.table, value);
  if (!row) throw new DomainError('not_found', `${model.table} ${id} not found`);
  return row;
}
