import { objectBuilder, type ObjectBuilder } from '../../../domain/model/object-builders.js';
import { cappedMemo } from './capped-memo.js';
import type { DriverRow } from './pool-connections.js';

/** A column of a PostgreSQL result as node-pg describes it. */
export interface PgField {
  readonly name: string;
}

/**
 * Where a statement keeps the shape of its last result, so its next result of the same columns
 * finds its builder by comparing the names, without making and hashing a key of them.
 */
export interface ShapeSlot {
  shape?: { readonly names: readonly string[]; readonly build: ObjectBuilder };
}

/**
 * Statement results as object rows, from node-pg's array rows (`rowMode: 'array'`), each object
 * built by its result shape's own builder (`objectBuilder`: a compiled literal of the columns).
 * node-pg's own object rows copy a template object and store each column by name, at two call
 * sites that serve every shape of result the process sees (its tables, its migrations): past a
 * few shapes V8 takes its slowest path there for every row and column.
 */
export class RowShapes {
  private readonly builders = new Map<string, ObjectBuilder>();

  /** At most `maxShapes` builders are kept (a process with more builds the rest each time). */
  constructor(private readonly maxShapes = 2_000) {}

  /**
   * `rows` (arrays in the order of `fields`) made objects keyed by the fields' names, in place;
   * `slot` is the statement's, when it has one.
   */
  objects(rows: unknown[], fields: readonly PgField[], slot?: ShapeSlot): DriverRow[] {
    if (rows.length === 0) return rows as DriverRow[];
    const build = slot ? this.slotted(slot, fields) : this.builderOf(fields);
    for (let i = 0; i < rows.length; i++) rows[i] = build(rows[i] as unknown[]);
    return rows as DriverRow[];
  }

  private slotted(slot: ShapeSlot, fields: readonly PgField[]): ObjectBuilder {
    const shape = slot.shape;
    if (shape && sameNames(shape.names, fields)) return shape.build;
    const build = this.builderOf(fields);
    slot.shape = { names: fields.map((field) => field.name), build };
    return build;
  }

  private builderOf(fields: readonly PgField[]): ObjectBuilder {
    let key = '';
    for (const field of fields) key += `${field.name}\u0000`;
    return cappedMemo(this.builders, this.maxShapes, key, fields, builderFor);
  }
}

function sameNames(names: readonly string[], fields: readonly PgField[]): boolean {
  if (names.length !== fields.length) return false;
  for (let i = 0; i < names.length; i++) if (names[i] !== (fields[i] as PgField).name) return false;
  return true;
}

const builderFor = (fields: readonly PgField[]): ObjectBuilder => objectBuilder(fields.map((field) => field.name));
