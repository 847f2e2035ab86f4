/**
 * Portico: register models once; plugins derive HTTP surfaces from them.
 * @packageDocumentation
 */
export * from './domain/model/index.js';
export { DomainError, ConstraintViolation, DatabaseUnavailable, type FieldError, type ConstraintKind } from './domain/errors/domain-error.js';
export { ERROR_CODES, type ErrorCode } from './domain/errors/codes.js';
export type { Condition, FindQuery, OrderTerm, Operator } from './domain/query/condition.js';
export { where } from './domain/query/condition.js';
export type { RecordStore, ReadOptions } from './ports/record-store.js';
export type { EventBus, SignalEvent, SignalName, SignalHandler } from './ports/event-bus.js';
export type { Clock } from './ports/clock.js';
export type { RandomSource } from './ports/random-source.js';
export type { Logger } from './ports/logger.js';
export type { PasswordHasher } from './ports/password-hasher.js';
export type { HealthCheck, HealthCheckResult } from './ports/health-check.js';
export type { HttpRequest, HttpResponse, RouteDef } from './adapters/http-koa/http-route.js';
export { createApp, PorticoApp, type AppOptions } from './composition/portico-app.js';
export type { Plugin, PluginContext, EndpointEntry } from './composition/plugin.js';
export { health, HealthPlugin, type HealthOptions } from './composition/plugins/health.js';
export { parseDatabaseUrl, describeDatabase, DatabaseUrlError } from './adapters/persistence/database-url.js';
