/**
 * The stable machine codes of every expected failure. Each transport maps these in exactly
 * one place (HTTP, REST and admin: `problem-mapping.ts`; GraphQL: `error-mapping.ts`; realtime
 * WebSocket: `realtime/error-codes.ts`); unit tests check every code is mapped by each and
 * documented in docs/errors.md.
 */
export const ERROR_CODES = [
  'not_found',
  'invalid_input',
  'unique_violation',
  'foreign_key_violation',
  'still_referenced',
  'not_null_violation',
  'check_violation',
  'database_unavailable',
  'malformed_json',
  'unsupported_media_type',
  'payload_too_large',
  'method_not_allowed',
  'internal_error',
  'invalid_credentials',
  'not_authenticated',
  'email_unverified',
  'forbidden',
  'csrf_failed',
  'throttled',
  'invalid_code',
  'overloaded',
  'invalid_query',
  'privileged_field',
  'idempotency_key_reused',
  'idempotency_in_progress',
  'precondition_failed',
  'social_login_failed',
  'storage_unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
