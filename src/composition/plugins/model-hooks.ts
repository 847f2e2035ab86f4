import { HOOK_SIGNALS, runModelHook, type HookMoment, type ModelHook } from '../../application/hooks/model-hooks.js';
import type { Plugin, PluginContext } from '../plugin.js';

/** The model-hooks plugin: hooks registered per table and moment. */
export class ModelHooksPlugin implements Plugin {
  readonly name = 'hooks';
  private readonly hooks: { readonly moment: HookMoment; readonly table: string; readonly hook: ModelHook }[] = [];

  /** Runs before a row is inserted or updated, inside the transaction; throwing refuses the write. */
  beforeSave(table: string, hook: ModelHook): this {
    return this.add('beforeSave', table, hook);
  }

  /** Runs after a row is inserted or updated, inside the transaction (enqueue here: the job exists iff the write commits). */
  afterSave(table: string, hook: ModelHook): this {
    return this.add('afterSave', table, hook);
  }

  /** Runs before a row is deleted (soft deletes too), inside the transaction. */
  beforeDelete(table: string, hook: ModelHook): this {
    return this.add('beforeDelete', table, hook);
  }

  /** Runs after a row is deleted, inside the transaction. */
  afterDelete(table: string, hook: ModelHook): this {
    return this.add('afterDelete', table, hook);
  }

  private add(moment: HookMoment, table: string, hook: ModelHook): this {
    this.hooks.push({ moment, table, hook });
    return this;
  }

  install(ctx: PluginContext): void {
    for (const { moment, table, hook } of this.hooks) {
      if (!ctx.registry.has(table)) throw new Error(`hooks: ${moment}('${table}') names no registered model`);
      ctx.events.on(HOOK_SIGNALS[moment], table, (event, signal) => runModelHook(hook, event, signal, ctx.events, () => ctx.tasks()));
    }
  }
}

/**
 * Model hooks (Django's save/delete overrides and signals, with the transaction): they run on
 * every write path (REST, GraphQL, admin, tasks, code) inside the writing transaction and get a
 * context to write with (`ctx.tx`), enqueue a job in the same transaction, publish after the
 * commit, or run work once it commits.
 *
 * @example
 * app.use(tasks().define('notify_loan', notify)).use(
 *   hooks().afterSave('loan', async (row, ctx) => {
 *     if (ctx.created) await ctx.enqueue('notify_loan', { loan_id: row.id });
 *   }),
 * );
 */
export function hooks(): ModelHooksPlugin {
  return new ModelHooksPlugin();
}
