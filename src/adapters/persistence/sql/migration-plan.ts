import type { Dialect, MigrationDef } from '../../../domain/model/migration.js';
import type { ModelRegistry } from '../../../domain/model/model-registry.js';
import { applyOperation, MigrationError, operationsOf, reverseOperation, type SchemaState } from '../../../domain/model/schema-state.js';
import { operationSql, type PlanStep } from './ddl.js';

/** One migration rendered for a dialect: its up steps, and its down steps (or why it has none). */
export interface PlannedMigration {
  readonly name: string;
  readonly up: readonly PlanStep[];
  /** The steps that undo it; throws a MigrationError for a migration that cannot be reversed. */
  down(): readonly PlanStep[];
}

/**
 * Renders every migration, in ledger order, for `dialect`. The schema state is replayed from
 * the first migration on, so each operation is rendered against the tables as they are at its
 * point (SQLite's table rebuild needs the whole table).
 */
export function planMigrations(defs: readonly MigrationDef[], registry: ModelRegistry, dialect: Dialect): PlannedMigration[] {
  let state: SchemaState = new Map();
  return defs.map((def) => {
    try {
      const ops = operationsOf(def, registry);
      const states: SchemaState[] = [state];
      const up: PlanStep[] = [];
      for (const op of ops) {
        up.push(...operationSql(op, state, dialect));
        state = applyOperation(state, op);
        states.push(state);
      }
      const down = (): PlanStep[] => {
        try {
          return ops.flatMap((_, i) => {
            const index = ops.length - 1 - i;
            return operationSql(reverseOperation(ops[index] as (typeof ops)[number]), states[index + 1] as SchemaState, dialect);
          });
        } catch (error) {
          throw error instanceof MigrationError ? new MigrationError(`migration ${def.name} cannot be reversed: ${error.message}`) : error;
        }
      };
      return { name: def.name, up, down };
    } catch (error) {
      throw error instanceof MigrationError ? new MigrationError(`migration ${def.name}: ${error.message}`) : error;
    }
  });
}

/** A plan step as text, for `portico migrate --plan`. */
export function describeStep(step: PlanStep): string {
  return typeof step === 'string' ? `${step};` : `-- data step${step.name ? ` ${step.name}` : ''} (runs in the transaction)`;
}
