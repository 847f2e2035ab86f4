import type { IdempotentRequests } from '../application/idempotency/idempotent-requests.js';
import type { IssueVerificationCode } from '../application/auth/issue-verification-code.js';
import type { MailQueue } from '../application/mail/mail-queue.js';
import type { LogIn } from '../application/auth/log-in.js';
import type { ResendVerification } from '../application/auth/resend-verification.js';
import type { SessionManager } from '../application/auth/session-manager.js';
import type { SignUp } from '../application/auth/sign-up.js';
import type { ThrottleGate } from '../application/auth/throttle-gate.js';
import type { TokenManager } from '../application/auth/token-manager.js';
import type { VerifyEmail } from '../application/auth/verify-email.js';
import type { CheckPermission } from '../application/check-permission.js';
import type { GrantPermission } from '../application/grant-permission.js';
import type { BulkCreate } from '../application/rest/bulk-create.js';
import type { BulkDelete } from '../application/rest/bulk-delete.js';
import type { BulkUpdate } from '../application/rest/bulk-update.js';
import type { CreateRow } from '../application/rest/create-row.js';
import type { DeleteRow } from '../application/rest/delete-row.js';
import type { EntityTags } from '../application/rest/entity-tags.js';
import type { HydrateIncludes } from '../application/rest/hydrate-includes.js';
import type { ListRows } from '../application/rest/list-rows.js';
import type { NestedWrites } from '../application/rest/nested-writes.js';
import type { RestServed } from '../application/rest/rest-served.js';
import type { RequestPasswordReset } from '../application/auth/request-password-reset.js';
import type { BeginSocialLogin } from '../application/social/begin-social-login.js';
import type { CompleteSocialLogin } from '../application/social/complete-social-login.js';
import type { LinkedAccounts } from '../application/social/linked-accounts.js';
import type { ProviderAccessToken } from '../application/social/provider-access-token.js';
import type { RotateTokenKeys } from '../application/social/rotate-token-keys.js';
import type { SocialProviders } from '../application/social/social-providers.js';
import type { UnlinkSocialAccount } from '../application/social/unlink-social-account.js';
import type { TokenCipher } from '../ports/token-cipher.js';
import type { StaticFilesSettings } from './plugins/static-files.js';
import type { MediaLinks } from '../application/storage/media-links.js';
import type { ServeMedia } from '../application/storage/serve-media.js';
import type { StoredFiles } from '../application/storage/stored-files.js';
import type { Cache } from '../ports/cache.js';
import type { FileStorage } from '../ports/file-storage.js';
import type { ConfirmPasswordReset } from '../application/auth/confirm-password-reset.js';
import type { ChangePassword } from '../application/auth/change-password.js';
import type { OpenApiDocument } from '../adapters/openapi/build-openapi-document.js';
import type { RetrieveRow } from '../application/rest/retrieve-row.js';
import type { RunAction } from '../application/rest/run-action.js';
import type { UpdateRow } from '../application/rest/update-row.js';
import type { TaskClient } from '../application/tasks/tasks.js';
import type { DatabaseConfig } from '../adapters/persistence/database-url.js';
import type { Database } from '../adapters/persistence/open-database.js';
import type { MigrationDef } from '../domain/model/migration.js';
import type { ModelRegistry } from '../domain/model/model-registry.js';
import type { Clock } from '../ports/clock.js';
import type { EventBus } from '../ports/event-bus.js';
import type { Logger } from '../ports/logger.js';
import type { MailTemplates } from '../ports/mail-templates.js';
import type { Mailer } from '../ports/mailer.js';
import type { MigrationSource } from '../ports/migration-source.js';
import type { PasswordHasher } from '../ports/password-hasher.js';
import type { RandomSource } from '../ports/random-source.js';
import type { RecordStore } from '../ports/record-store.js';
import type { ThrottleStore } from '../ports/throttle-store.js';
import type { Backends } from './backends.js';
import type { Realtime } from '../application/realtime/publish-realtime.js';

declare const boundType: unique symbol;

/**
 * A typed service identifier of the app's container: a symbol that carries the type bound to
 * it, so `ctx.get(TOKENS.Sessions)` is a `SessionManager` without a cast, and binding a value
 * of another type to it does not compile.
 */
export type Token<T> = symbol & { readonly [boundType]?: T };

/** Resolves a token to the service bound to it. */
export type Resolve = <T>(token: Token<T>) => T;

/** A token named `portico.<name>` (`Symbol.for`, so two copies of the module agree). */
export function token<T>(name: string): Token<T> {
  return Symbol.for(`portico.${name}`);
}

/** What every plugin may rely on, decided when the app starts. */
export interface AppSettings {
  /** The app secret (signing CSRF tokens, keying stored codes). */
  readonly secret: string;
  /** The secret the app was given (its option, else `PORTICO_SECRET`); undefined when `secret` is a random one of this process. */
  readonly configuredSecret: string | undefined;
  /** True in production (Secure cookies, HSTS, no GraphiQL or Swagger UI by default). */
  readonly production: boolean;
  /** The request body limit in bytes. */
  readonly bodyLimit: number;
  /** Origins besides the app's own whose pages may send it unsafe requests (AppOptions.trustedOrigins, normalised). */
  readonly trustedOrigins: ReadonlySet<string>;
}

/**
 * Every service identifier of the composition root. The app binds the first group; the
 * plugins bind the others when they install (a plugin resolves what an earlier one bound).
 */
export const TOKENS = {
  // Bound by the app (container.ts, backends.ts).
  Registry: token<ModelRegistry>('Registry'),
  MigrationDefs: token<readonly MigrationDef[]>('MigrationDefs'),
  DatabaseConfig: token<DatabaseConfig>('DatabaseConfig'),
  Backends: token<Backends>('Backends'),
  Database: token<Database>('Database'),
  Store: token<RecordStore>('Store'),
  Migrations: token<MigrationSource>('Migrations'),
  Clock: token<Clock>('Clock'),
  Random: token<RandomSource>('Random'),
  Logger: token<Logger>('Logger'),
  Events: token<EventBus>('Events'),
  Hasher: token<PasswordHasher>('Hasher'),
  /** The hash a login naming an unknown user verifies against (the same work as a real verify; LogIn). */
  UnknownUserHash: token<() => Promise<string>>('UnknownUserHash'),
  Mailer: token<Mailer>('Mailer'),
  /** How Portico sends its own mail: queued in the causing transaction (`application/mail/mail-queue.ts`). */
  MailQueue: token<MailQueue>('MailQueue'),
  MailTemplates: token<MailTemplates>('MailTemplates'),
  ThrottleStore: token<ThrottleStore>('ThrottleStore'),
  Settings: token<AppSettings>('Settings'),
  /** Path prefixes whose unsafe requests always need the CSRF token (auth() adds its form prefix). */
  CsrfProtectedPrefixes: token<Set<string>>('CsrfProtectedPrefixes'),
  IdempotentRequests: token<IdempotentRequests>('IdempotentRequests'),

  // Bound by sessions().
  Sessions: token<SessionManager>('Sessions'),

  // Bound by auth().
  BearerTokens: token<TokenManager>('BearerTokens'),
  AuthThrottle: token<ThrottleGate>('AuthThrottle'),
  IssueVerificationCode: token<IssueVerificationCode>('IssueVerificationCode'),
  LogIn: token<LogIn>('LogIn'),
  SignUp: token<SignUp>('SignUp'),
  VerifyEmail: token<VerifyEmail>('VerifyEmail'),
  ResendVerification: token<ResendVerification>('ResendVerification'),
  RequestPasswordReset: token<RequestPasswordReset>('RequestPasswordReset'),
  ConfirmPasswordReset: token<ConfirmPasswordReset>('ConfirmPasswordReset'),
  ChangePassword: token<ChangePassword>('ChangePassword'),
  LinkedAccounts: token<LinkedAccounts>('LinkedAccounts'),
  /** Whether login needs a verified address (`auth({ requireVerifiedEmail })`): social login keeps the same rule. */
  RequireVerifiedEmail: token<boolean>('RequireVerifiedEmail'),

  // Bound by storage().
  FileStorage: token<FileStorage>('FileStorage'),
  MediaLinks: token<MediaLinks>('MediaLinks'),
  ServeMedia: token<ServeMedia>('ServeMedia'),
  StoredFiles: token<StoredFiles>('StoredFiles'),
  // Bound by cache().
  Cache: token<Cache>('Cache'),

  // Bound by staticFiles().
  StaticFiles: token<StaticFilesSettings>('StaticFiles'),

  // Bound by socialLogin().
  SocialProviders: token<SocialProviders>('SocialProviders'),
  /** Seals the provider tokens in `social_account` with the `tokenKeys` key set. */
  TokenCipher: token<TokenCipher>('TokenCipher'),
  BeginSocialLogin: token<BeginSocialLogin>('BeginSocialLogin'),
  CompleteSocialLogin: token<CompleteSocialLogin>('CompleteSocialLogin'),
  UnlinkSocialAccount: token<UnlinkSocialAccount>('UnlinkSocialAccount'),
  ProviderAccessToken: token<ProviderAccessToken>('ProviderAccessToken'),
  RotateTokenKeys: token<RotateTokenKeys>('RotateTokenKeys'),

  // Bound by rest().
  RestServed: token<RestServed>('RestServed'),
  /** Bound by openapi(): the document it serves (built on first use). */
  OpenApiDocument: token<() => OpenApiDocument>('OpenApiDocument'),
  RestThrottle: token<ThrottleGate>('RestThrottle'),
  HydrateIncludes: token<HydrateIncludes>('HydrateIncludes'),
  NestedWrites: token<NestedWrites>('NestedWrites'),
  ListRows: token<ListRows>('ListRows'),
  RetrieveRow: token<RetrieveRow>('RetrieveRow'),
  CreateRow: token<CreateRow>('CreateRow'),
  UpdateRow: token<UpdateRow>('UpdateRow'),
  DeleteRow: token<DeleteRow>('DeleteRow'),
  BulkCreate: token<BulkCreate>('BulkCreate'),
  BulkUpdate: token<BulkUpdate>('BulkUpdate'),
  BulkDelete: token<BulkDelete>('BulkDelete'),
  RunAction: token<RunAction>('RunAction'),
  /** The entity tags of REST detail answers (`ETag`, `If-Match`). */
  EntityTags: token<EntityTags>('EntityTags'),

  // Bound by realtime().
  Realtime: token<Realtime>('Realtime'),
  // Bound by tasks().
  Tasks: token<TaskClient>('Tasks'),

  // Bound by permissions().
  CheckPermission: token<CheckPermission>('CheckPermission'),
  GrantPermission: token<GrantPermission>('GrantPermission'),
} as const;
