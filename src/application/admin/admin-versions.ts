import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import type { EntityTags } from '../rest/entity-tags.js';

/** What the admin tells of a save refused for a stale version. */
export const STALE_MESSAGE = 'changed by someone else since you opened it';

/**
 * A change form's save refused because the row is no longer at the version the form showed
 * (`precondition_failed`, nothing written): the row as the saving transaction read it (locked),
 * and its version, for the form to show the current values and carry the new version.
 */
export class StaleAdminRecord extends DomainError {
  override readonly name = 'StaleAdminRecord';
  constructor(
    readonly current: Row,
    readonly version: string,
  ) {
    super('precondition_failed', STALE_MESSAGE);
  }
}

/**
 * The versions of the admin's change forms: the entity tag of the stored row (the REST `ETag`,
 * the same key), carried by the form in a hidden field and compared when it is saved.
 */
export class AdminVersions {
  constructor(private readonly tags: EntityTags) {}

  /** The version of `row` (read with every column). */
  of(model: ModelDef, row: Row): string {
    return this.tags.of(model, row);
  }

  /**
   * Throws {@link StaleAdminRecord} unless `row` (read locked in the saving transaction) is at
   * `posted`, the version the form carried; none posted (an older form, a script): nothing to check.
   */
  check(model: ModelDef, row: Row, posted: string | undefined): void {
    if (posted === undefined || this.tags.matches(model, row, posted)) return;
    throw new StaleAdminRecord(row, this.tags.of(model, row));
  }
}

/** Whether two column values are the same to a form (timestamps to the second, as the form shows them). */
function sameToForm(a: Value | undefined, b: Value | undefined): boolean {
  const text = (v: Value | undefined): string => (v instanceof Date ? v.toISOString().slice(0, 19) : JSON.stringify(v ?? null));
  return text(a) === text(b);
}

/** The columns of a refused save whose posted value differs from the row as it is now (what the form shows side by side). */
export function differingColumns(model: ModelDef, posted: Readonly<Record<string, unknown>>, current: Row): string[] {
  return model.columns.filter((c) => c.name in posted && !sameToForm(posted[c.name] as Value, current[c.name])).map((c) => c.name);
}
