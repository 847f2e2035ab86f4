import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import type { RecordStore } from '../../ports/record-store.js';
import { keyText } from '../rest/m2m-links.js';
import { AUDIT_TABLE } from './admin-audit.js';
import { AdminRows, adminScope } from './admin-rows.js';
import type { ModelRegistry } from '../../domain/model/model-registry.js';

/** Most history rows one page shows. */
const HISTORY_ROWS = 200;

/** One row's history: its audit rows (newest first), the row itself when it still exists, and the usernames of the authors. */
export interface AdminHistory {
  readonly row: Row | null;
  readonly entries: readonly Row[];
  readonly usernames: ReadonlyMap<string, string>;
}

/**
 * The History page's reads of row `text` (the key as the URL names it). It still answers for a
 * row that no longer exists, except on a model with a row policy for a caller who is not a
 * superuser: there a row out of reach, or gone (whose owner cannot be told), is `not_found`.
 */
export class ReadAdminHistory {
  private readonly rows: AdminRows;

  constructor(
    private readonly store: RecordStore,
    registry: ModelRegistry,
  ) {
    this.rows = new AdminRows(store, registry);
  }

  async execute(model: ModelDef, identity: Identity, text: string, key: Value | undefined): Promise<AdminHistory> {
    const row = key === undefined ? null : await this.rows.one(model, identity, key);
    if (!row && adminScope(model, identity)) throw new DomainError('not_found', `${model.table} ${text} not found`);
    const entries = await this.store.find(AUDIT_TABLE, {
      where: { all: [{ column: 'table_name', op: 'eq', value: model.table }, { column: 'row_id', op: 'eq', value: text }] },
      orderBy: [{ column: 'id', direction: 'desc' }],
      limit: HISTORY_ROWS,
    });
    const userIds = [...new Set(entries.map((r) => r.user_id).filter((v): v is Value => v !== null && v !== undefined))];
    const users = userIds.length ? await this.store.getManyByIds('auth_user', userIds) : [];
    return { row, entries, usernames: new Map(users.map((u) => [keyText(u.id), String(u.username)])) };
  }
}
