import type { Backoff } from '../../domain/tasks/task-policy.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { Logger } from '../../ports/logger.js';
import type { Mailer } from '../../ports/mailer.js';
import type { RecordStore } from '../../ports/record-store.js';

/** What a task handler receives besides its payload. */
export interface TaskContext {
  /** The app's store: writes through it fire model signals like any other write path. */
  readonly store: RecordStore;
  readonly mailer: Mailer;
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

/** A defined task, with its options resolved. */
export interface TaskDefinition {
  readonly name: string;
  readonly handler: TaskHandler;
  readonly retries: number;
  readonly backoff: Backoff;
  readonly timeoutMs: number;
  readonly queue: string;
  readonly priority: number;
  readonly cron?: string;
}

/** Resolves a task's options; throws on a malformed name or option (at definition time, not when a job runs). */
export function defineTask(name: string, handler: TaskHandler, options: TaskOptions = {}): TaskDefinition {
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
