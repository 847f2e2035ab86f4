import { pino } from 'pino';
import type { Logger as Pino } from 'pino';
import type { Logger } from '../../ports/logger.js';

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
