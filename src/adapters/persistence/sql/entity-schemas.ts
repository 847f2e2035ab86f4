import type * as MikroOrmCore from '@mikro-orm/core';
import type { ModelRegistry } from '../../../domain/model/model-registry.js';
import type { ColumnType } from '../../../domain/model/types.js';
import { mikroOrmCore } from './mikro-orm-core.js';

const MIKRO_TYPES: Record<ColumnType, string> = {
  int: 'integer',
  bigint: 'bigint',
  text: 'text',
  string: 'string',
  bool: 'boolean',
  float: 'double',
  decimal: 'decimal',
  date: 'date',
  timestamp: 'datetime',
  json: 'json',
  uuid: 'uuid',
};

/**
 * MikroORM entity schemas generated from the registry: one entity per table, named by the
 * table, every column a scalar property with its database name, for code that wants MikroORM's
 * EntityManager over Portico's tables (the ORM baseline bench, `bench/baseline-server.ts`).
 * Portico's own MikroORM instance discovers none (`mikro-orm-database.ts`).
 */
export function entitySchemas(registry: ModelRegistry): MikroOrmCore.EntitySchema[] {
  const { EntitySchema } = mikroOrmCore();
  return registry.all().map(
    (model) =>
      new EntitySchema({
        name: model.table,
        tableName: model.table,
        properties: Object.fromEntries(
          model.columns.map((col) => [
            col.name,
            {
              type: MIKRO_TYPES[col.type],
              fieldName: col.name,
              primary: col.primary,
              nullable: col.nullable,
              ...(col.primary && col.pkKind === 'int-auto' ? { autoincrement: true } : {}),
            },
          ]),
        ),
      }),
  );
}
