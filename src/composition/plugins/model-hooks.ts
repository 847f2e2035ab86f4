import { HOOK_SIGNALS, runModelHook, type HookContext, type HookMoment, type ModelHook } from '../../application/hooks/model-hooks.js';
import type { ModelDecl } from '../../domain/model/define-model.js';
import type { Patch, Row, UntypedSchema } from '../../domain/model/typed-model.js';
import type { TableOf, TypedStore } from '../../ports/typed-store.js';
import type { AppSchema } from '../portico-app.js';
import type { Plugin, PluginContext } from '../plugin.js';

/** A hook's context with its transaction typed by schema `S` and its changes by table `N`. */
export type TypedHookContext<S, N extends TableOf<S>> = Omit<HookContext, 'tx' | 'changes'> & {
  readonly tx: TypedStore<S>;
  readonly changes?: Patch<S[N], S>;
};

/** A hook on table `N` of schema `S`: the row typed by its model. */
export type TypedModelHook<S, N extends TableOf<S>> = (row: Row<S[N], S>, ctx: TypedHookContext<S, N>) => void | Promise<void>;

/** The model-hooks plugin: hooks registered per table and moment, typed by schema `S` (see `hooks(models)`). */
export class ModelHooksPlugin<S = UntypedSchema> implements Plugin {
  readonly name = 'hooks';
  private readonly hooks: { readonly moment: HookMoment; readonly table: string; readonly hook: ModelHook }[] = [];

  /** Runs before a row is inserted or updated, inside the transaction; throwing refuses the write. */
  beforeSave<N extends TableOf<S>>(table: N, hook: TypedModelHook<S, N>): this {
    return this.add('beforeSave', table, hook);
  }

  /** Runs after a row is inserted or updated, inside the transaction (enqueue here: the job exists iff the write commits). */
  afterSave<N extends TableOf<S>>(table: N, hook: TypedModelHook<S, N>): this {
    return this.add('afterSave', table, hook);
  }

  /** Runs before a row is deleted (soft deletes too), inside the transaction. */
  beforeDelete<N extends TableOf<S>>(table: N, hook: TypedModelHook<S, N>): this {
    return this.add('beforeDelete', table, hook);
  }

  /** Runs after a row is deleted, inside the transaction. */
  afterDelete<N extends TableOf<S>>(table: N, hook: TypedModelHook<S, N>): this {
    return this.add('afterDelete', table, hook);
  }

  private add<N extends TableOf<S>>(moment: HookMoment, table: N, hook: TypedModelHook<S, N>): this {
    // The typed hook is the untyped one seen through the models' types (the same row, the same store).
    this.hooks.push({ moment, table, hook: hook as unknown as ModelHook });
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
 * Given the app's models (`hooks(models)`), each hook's row and transaction are typed by the
 * table it names, and an unknown table does not compile; `hooks()` takes any table, untyped.
 *
 * @example
 * app.use(tasks().define('notify_loan', notify)).use(
 *   hooks(models).afterSave('loan', async (row, ctx) => {
 *     if (ctx.created) await ctx.enqueue('notify_loan', { loan_id: row.id });
 *   }),
 * );
 */
export function hooks<Models extends readonly ModelDecl[] = readonly ModelDecl[]>(models?: Models): ModelHooksPlugin<AppSchema<Models>> {
  void models; // only its type is used
  return new ModelHooksPlugin<AppSchema<Models>>();
}
