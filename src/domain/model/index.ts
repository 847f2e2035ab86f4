export * from './types.js';
export { c, ColumnBuilder, type ColumnSpec, type ColumnTraits } from './column.js';
export { defineModel, type ModelDecl, type ModelOptions } from './define-model.js';
export { ModelRegistry, ModelDefinitionError, columnOf, type ReverseRelation } from './model-registry.js';
export type { Dialect, MigrationDef } from './migration.js';
export { BUILTIN_MODELS, BUILTIN_MIGRATIONS } from './builtin-tables.js';
export { normalizeValue, compareValues } from './values.js';
