/**
 * Portico: register models once; plugins derive HTTP surfaces from them.
 *
 * Every name exported here is public and stable within a major version; the API report in
 * `api/portico.api.md` tracks it. Test helpers are in `portico/testing`.
 * @packageDocumentation
 */
export type { ColumnDef, ColumnDefault, ColumnType, ForeignKey, JsonValue, ManyToManyDef, ModelDef, PrimaryKeyKind, ServerSetFn, Value } from './domain/model/types.js';
export type { AnySchema, ColumnName, ColumnValue, Insert, Key, KeyOfTable, Patch, Row, SchemaOf, UntypedSchema } from './domain/model/typed-model.js';
export type { ConditionOf, FindQueryOf, ReadOptionsOf } from './domain/query/typed-query.js';
export type { TableOf, TypedStore, TypedWrite } from './ports/typed-store.js';
export { c, ColumnBuilder, type ColumnSpec, type ColumnTraits, type DefaultOf, type Plain, type WithTraits } from './domain/model/column.js';
export { defineModel, type ModelDecl, type ModelOptions } from './domain/model/define-model.js';
export { ModelRegistry, ModelDefinitionError, type ReverseRelation } from './domain/model/model-registry.js';
export { rowScope, type RowPolicy, type RowPolicyDecl } from './domain/model/row-policy.js';
export type { Dialect, MigrationDef } from './domain/model/migration.js';
export { DomainError, ConstraintViolation, DatabaseUnavailable, type FieldError, type ConstraintKind } from './domain/errors/domain-error.js';
export { ERROR_CODES, type ErrorCode } from './domain/errors/codes.js';
export type { Condition, FindQuery, OrderTerm, Operator } from './domain/query/condition.js';
export { where } from './domain/query/condition.js';
export type { RecordStore, ReadOptions, Write, WriteOptions } from './ports/record-store.js';
export type { BusGap, EventBus, SignalContext, SignalEvent, SignalName, SignalHandler, TransactionSignalHandler } from './ports/event-bus.js';
export type { Clock } from './ports/clock.js';
export type { RandomSource } from './ports/random-source.js';
export type { Logger } from './ports/logger.js';
export type { PasswordHasher } from './ports/password-hasher.js';
export type { HealthCheck, HealthCheckResult } from './ports/health-check.js';
export type { HttpMiddleware, HttpRequest, HttpResponse, RouteDef } from './adapters/http-koa/http-route.js';
export { createApp, PorticoApp, type AppOptions, type AppSchema } from './composition/portico-app.js';
export type { Plugin, PluginContext, EndpointEntry } from './composition/plugin.js';
export { token, type Token, type Resolve } from './composition/tokens.js';
export { health, type HealthPlugin, type HealthOptions } from './composition/plugins/health.js';
export { parseDatabaseUrl, describeDatabase, DatabaseUrlError, type DatabaseConfig } from './adapters/persistence/database-url.js';
export { sessions } from './composition/plugins/sessions.js';
export { security, csrfInput, type SecurityOptions } from './composition/plugins/security.js';
export { auth, type AuthOptions } from './composition/plugins/auth.js';
export { staticFiles, type StaticFilesOptions, type StaticFilesSettings } from './composition/plugins/static-files.js';
export { storage, type StorageOptions } from './composition/plugins/storage.js';
export { cache, cachePage, type CacheOptions } from './composition/plugins/cache.js';
export type { PageCacheRule } from './domain/cache/page-rules.js';
export type { Cache, CacheValue, CacheWrite } from './ports/cache.js';
export type { CacheStore } from './ports/cache-store.js';
export { FileExistsError, StorageUnavailableError, type ByteRange, type FileContent, type FileStorage, type StoredFile } from './ports/file-storage.js';
export { newFileKey } from './domain/storage/file-key.js';
export { UploadedFile, type PresentedFile, type StoredFileValue } from './domain/storage/file-value.js';
export type { FileRule } from './domain/storage/upload-rules.js';
export type { MultipartBody, MultipartOptions } from './adapters/http-koa/multipart.js';
export type { UploadPart } from './application/storage/store-upload.js';
export { oauth2, oidc, socialLogin, type FetchJson, type OAuth2Settings, type OidcSettings, type SocialLoginOptions } from './composition/plugins/social-login.js';
export { IdentityProviderError, type AuthorizationChecks, type IdentityProvider, type ProviderTokens } from './ports/identity-provider.js';
export type { SocialProfile } from './domain/auth/social-login.js';
export type { TokenCipher } from './ports/token-cipher.js';
export { permissions } from './composition/plugins/permissions.js';
export {
  sessionAuthentication,
  bearerAuthentication,
  chainAuthentication,
  noAuthentication,
  type AuthBackend,
} from './adapters/http-koa/authentication.js';
export type { SessionHandle } from './adapters/http-koa/http-route.js';
export { SafeHtml, escapeHtml } from './adapters/http-koa/safe-html.js';
export type { FlashMessage } from './application/auth/session-manager.js';
export { ANONYMOUS, type Identity } from './domain/auth/identity.js';
export type { Mailer, MailAttachment, MailMessage } from './ports/mailer.js';
export type { ThrottleStore, ThrottleHit } from './ports/throttle-store.js';
export { MemoryMailer } from './adapters/mail/memory-mailer.js';
export { MemoryFileStorage } from './adapters/storage/memory-file-storage.js';
export { ConsoleMailer } from './adapters/mail/console-mailer.js';
export { SmtpMailer } from './adapters/mail/smtp-mailer.js';
export { rest, type RestPlugin, type RestOptions } from './composition/plugins/rest.js';
export { ReadOnly, AllowAny, IsAuthenticated, IsStaff, IsAuthenticatedOrReadOnly, allOf, anyOf, not } from './domain/rest/permission-classes.js';
export type { CrudAction, PermissionClass, PermissionAction, PermissionDecision, ParentScope } from './domain/rest/resource-config.js';
export type { ResourceConfig, ActionDef, ActionContext, ActionResult, ActionTools } from './application/rest/resource-config.js';
export { DEFAULT_BLOCKLIST } from './domain/rest/exposure.js';
export { openapi, type OpenApiPlugin, type OpenApiOptions } from './composition/plugins/openapi.js';
export type { OpenApiDocument, OpenApiInfo } from './adapters/openapi/build-openapi-document.js';
export type { RestServed } from './application/rest/rest-served.js';
export {
  writeNestedTree,
  updateNestedTree,
  writeNestedTreeGated,
  updateNestedTreeGated,
  NestedError,
  MAX_NESTED_DEPTH,
  type NestedSpec,
  type NestedWriteGate,
  type WrittenTree,
} from './application/rest/nested-tree.js';
export { existsOr404 } from './application/rest/exists-or-404.js';
export type { JsonSchema, SchemaProblem } from './domain/rest/action-schema.js';
export { graphql, type GraphqlPlugin } from './composition/plugins/graphql.js';
export { realtime, REALTIME_TOKEN, type RealtimePlugin, type RealtimeOptions, type RealtimeChannelOptions } from './composition/plugins/realtime.js';
export type { Realtime } from './application/realtime/publish-realtime.js';

// Types the public signatures above refer to.
export type { Overrides } from './composition/container.js';
export type { TokenCacheOptions } from './application/auth/token-manager.js';
export type { MailSink } from './adapters/mail/console-mailer.js';
export type { TopicHandler } from './ports/event-bus.js';
export type { IdentityGate } from './domain/graphql/read-policy.js';
export type { GraphqlLimits } from './adapters/graphql/pipeline.js';
export type { PermissionsPlugin } from './composition/plugins/permissions.js';
export type { NamedCheck } from './application/check-readiness.js';
export type { MigrationSource } from './ports/migration-source.js';
export type { MailTemplates, RenderedMail } from './ports/mail-templates.js';
export type { FieldConfig, ScopeFn, ComputedFn, TransformFn } from './domain/rest/resource-config.js';
export type { FieldPolicy } from './domain/rest/field-policy.js';
export type { WriteSurface } from './application/write/write-body.js';
export type { DocumentLimits } from './adapters/graphql/document-limits.js';
export type { BackendOptions } from './composition/backends.js';
export type { GrantPermission } from './application/grant-permission.js';
export type { RestResource } from './application/rest/rest-resource.js';
export type { Json } from './adapters/openapi/openapi-schemas.js';
export { liveReload, type LiveReloadOptions } from './composition/plugins/live-reload.js';
export type { ChannelAuthorizer, ChannelAuthorizeArgs } from './domain/realtime/channel-authorization.js';
export type { UpgradeCaller } from './adapters/http-koa/node/upgrade-identity.js';
export { tasks, TasksPlugin, type TasksOptions } from './composition/plugins/tasks.js';
export type { TaskClient, EnqueueOptions } from './application/tasks/tasks.js';
export { hooks, ModelHooksPlugin } from './composition/plugins/model-hooks.js';
export type { HookContext, HookMoment, ModelHook } from './application/hooks/model-hooks.js';
export { defineTask, type TaskContext, type TaskHandler, type TaskOptions, type TaskDefinition, type TaskPayload, type TaskArgs } from './application/tasks/task-definition.js';
export type { Job, JobFilter, Enqueued, QueueStats } from './ports/task-queue.js';
export type { JobState, Backoff } from './domain/tasks/task-policy.js';
export { admin, type AdminOptions } from './composition/plugins/admin.js';
export type { AdminModelOptions } from './domain/admin/admin-config.js';
