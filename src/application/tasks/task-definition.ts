import type { Backoff } from '../../domain/tasks/task-policy.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { Logger } from '../../ports/logger.js';
import type { MailTemplates } from '../../ports/mail-templates.js';
import type { Mailer } from '../../ports/mailer.js';
import type { RecordStore } from '../../ports/record-store.js';

/** What a task handler receives besides its payload. */
export interface TaskContext {
  /** The app's store: writes through it fire model signals like any other write path. */
  readonly store: RecordStore;
  readonly mailer: Mailer;
  /** The app's mail templates (Portico's and the host's `templatesDir`). */
  readonly templates: MailTemplates;
  readonly events: EventBus;
  readonly logger: Logger;
  /** This attempt's number, 1 for the first. */
  readonly attempt: number;
  /** Aborted when the attempt times out, its lease is lost, or shutdown's grace period ends. */
  readonly signal: AbortSignal;
  /** The job being run. */
  readonly job: { readonly id: number; readonly name: string; readonly queue: string };
  /** Stores how far this attempt has got, an integer from 0 to 100, on the job (`Job.progress`). */
  progress(percent: number): Promise<void>;
}

/** A task's code: throw (or reject) to fail the attempt. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the payload is the JSON the enqueuer chose; each handler types its own
export type TaskHandler<P = any> = (payload: P, ctx: TaskContext) => unknown;

/** How a task runs (each has a default). */
export interface TaskOptions {
  /** Attempts after the first failed one (default 3); then the job is `dead`. */
  readonly retries?: number;
  /** The wait between attempts (default 1 s doubling to 1 h, jittered). */
  readonly backoff?: Backoff;
  /** Milliseconds an attempt may take before it fails (default 5 minutes). */
  readonly timeout?: number;
  /** The queue its jobs go to (default `default`); each queue has its own worker concurrency. */
  readonly queue?: string;
  /** Higher runs first among due jobs of a queue (default 0). */
  readonly priority?: number;
  /** A cron expression (5 fields, or 6 with seconds; UTC): the task is also enqueued once per slot, across processes. */
  readonly cron?: string;
}

/**
 * A defined task, with its options resolved. `P` is the payload its handler takes and `Name` its
 * name as written: `app.tasks.enqueue(definition, payload)` checks the payload against `P`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the payload is the JSON the enqueuer chose; each handler types its own
export interface TaskDefinition<P = any, Name extends string = string> {
  /** The task's name: jobs name it, and every process of the app runs it by this name. */
  readonly name: Name;
  /** The task's code. */
  readonly handler: TaskHandler<P>;
  /** Attempts after the first failed one. */
  readonly retries: number;
  /** The wait between attempts. */
  readonly backoff: Backoff;
  /** Milliseconds an attempt may take. */
  readonly timeoutMs: number;
  /** The queue its jobs go to. */
  readonly queue: string;
  /** Higher runs first among due jobs of a queue. */
  readonly priority: number;
  /** The cron expression that also enqueues it once per slot, when periodic. */
  readonly cron?: string;
}

/** The payload type of a task definition (`TaskPayload<typeof sendWelcome>`). */
export type TaskPayload<D extends TaskDefinition> = D extends TaskDefinition<infer P> ? P : never;

/**
 * What follows the task in a typed enqueue: the payload, then the options. A left-out payload is
 * `{}` (as for a name), so it may be left out only when `{}` is a `P` (untyped, `unknown`, only
 * optional fields).
 */
export type TaskArgs<P, O> = Record<string, never> extends P ? [payload?: P, options?: O] : [payload: P, options?: O];

/**
 * Resolves a task's options; throws on a malformed name or option (at definition time, not when a
 * job runs). `P` comes from the handler's annotated payload parameter, or is given
 * (`defineTask<{ userId: number }>(…)`); without either the payload is untyped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the payload is the JSON the enqueuer chose; each handler types its own
export function defineTask<P = any, Name extends string = string>(name: Name, handler: TaskHandler<P>, options: TaskOptions = {}): TaskDefinition<P, Name> {
  if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(name)) throw new Error(`tasks: a task name is 1 to 100 letters, digits or _.:-, got ${JSON.stringify(name)}`);
  const retries = options.retries ?? 3;
  if (!Number.isInteger(retries) || retries < 0) throw new Error(`tasks: ${name}: retries must be a non-negative integer`);
  const timeoutMs = options.timeout ?? 300_000;
  if (!(timeoutMs > 0)) throw new Error(`tasks: ${name}: timeout must be a positive number of milliseconds`);
  return {
    name,
    handler,
    retries,
    backoff: options.backoff ?? {},
    timeoutMs,
    queue: options.queue ?? 'default',
    priority: options.priority ?? 0,
    ...(options.cron !== undefined ? { cron: options.cron } : {}),
  };
}
