import { DomainError } from '../../domain/errors/domain-error.js';
import { columnOf } from '../../domain/model/model-registry.js';
import type { ModelDef, Row } from '../../domain/model/types.js';
import { parseTextValue } from '../../domain/rest/list-query.js';
import type { RecordStore } from '../../ports/record-store.js';

/**
 * The live row of `model` whose key is the URL text `id`, or a 404 — also when `id` cannot be
 * coerced to the key type (SPEC "Parent-scoped sub-resources" 7). For custom handlers too.
 *
 * @example
 * const project = await existsOr404(store, registry.require('project'), req.params.projectId);
 */
export async function existsOr404(store: RecordStore, model: ModelDef, id: string): Promise<Row> {
  const pk = columnOf(model, model.primaryKey);
  const value = pk ? parseTextValue(pk, id) : undefined;
  const row = value === undefined || value === null ? null : await store.getById(model.table, value);
  if (!row) throw new DomainError('not_found', `${model.table} ${id} not found`);
  return row;
}
