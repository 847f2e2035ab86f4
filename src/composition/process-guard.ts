import type { Logger } from '../ports/logger.js';

/**
 * The last net under a listening app (docs/decisions.md, "Errors never end the process"): a
 * promise rejection nobody handles, or an exception thrown outside every promise chain (a plugin's
 * timer, a listener's callback), is logged at error level, and the process keeps serving instead
 * of exiting. Errors are meant to be caught where they arise (the store's driver calls, the event
 * bus's deliveries); this only catches what escaped. `listen()` installs it and `close()` removes
 * it; `createApp({ processGuard: false })` leaves the process's handlers to the host.
 *
 * One pair of process handlers serves every guarded app of the process (no listener piles up when
 * tests start many apps), and each logs through every guarded app's logger.
 */
export function guardProcess(logger: Logger): () => void {
  const entry = { logger };
  if (guarded.size === 0) {
    process.on('unhandledRejection', rejected);
    process.on('uncaughtException', thrown);
  }
  guarded.add(entry);
  return () => {
    if (!guarded.delete(entry) || guarded.size > 0) return;
    process.off('unhandledRejection', rejected);
    process.off('uncaughtException', thrown);
  };
}

/** The loggers of the apps guarded now (one entry per `guardProcess` call). */
const guarded = new Set<{ readonly logger: Logger }>();

function rejected(reason: unknown): void {
  report(reason, 'unhandled promise rejection (the process keeps serving)');
}

function thrown(error: Error): void {
  report(error, 'uncaught exception (the process keeps serving)');
}

/** Logs `err`; a logger that throws must not turn the guard itself into an uncaught exception. */
function report(err: unknown, msg: string): void {
  for (const { logger } of guarded) {
    try {
      logger.error({ err }, msg);
    } catch {
      console.error(`portico: ${msg}`, err);
    }
  }
}
