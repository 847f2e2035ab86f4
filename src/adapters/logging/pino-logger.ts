import { createRequire } from 'node:module';
import type * as PinoPackage from 'pino';
import type { Logger as Pino } from 'pino';
import type { Logger } from '../../ports/logger.js';

/**
 * pino is CommonJS: required rather than imported, as `commonjs-packages.ts` explains for the HTTP
 * adapter's (imported, it took about 10 ms more of the cold start).
 */
const { pino } = createRequire(import.meta.url)('pino') as typeof PinoPackage;

/** Options for the default logger. */
export interface LoggerOptions {
  readonly level?: string;
}

/**
 * A pino logger writing JSON lines to stdout. Authorization and cookie headers are redacted
 * should a caller ever log them.
 */
export function createPinoLogger(options: LoggerOptions = {}): Logger & Pino {
  return pino({
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    base: { service: 'portico' },
    redact: { paths: ['*.authorization', '*.cookie', '*.password', '*.token', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
  });
}
