import type { ErrorCode } from '../../domain/errors/codes.js';

/** The registry codes that refuse the message itself: over WebSocket they are all `invalid_message`. */
type MessageCode = 'invalid_input' | 'malformed_json' | 'unsupported_media_type' | 'payload_too_large' | 'method_not_allowed' | 'invalid_query';

/** The `code` of the WebSocket protocol's `error` message: the registry's own, or `invalid_message`. */
export type RealtimeErrorCode = Exclude<ErrorCode, MessageCode> | 'invalid_message';

/** The wire `code` of every error code: the one place the realtime WebSocket maps codes (STYLE guideline 5). */
export const REALTIME_CODE_BY_CODE: Readonly<Record<ErrorCode, RealtimeErrorCode>> = {
  not_found: 'not_found',
  invalid_input: 'invalid_message',
  unique_violation: 'unique_violation',
  foreign_key_violation: 'foreign_key_violation',
  still_referenced: 'still_referenced',
  not_null_violation: 'not_null_violation',
  check_violation: 'check_violation',
  database_unavailable: 'database_unavailable',
  malformed_json: 'invalid_message',
  unsupported_media_type: 'invalid_message',
  payload_too_large: 'invalid_message',
  method_not_allowed: 'invalid_message',
  internal_error: 'internal_error',
  invalid_credentials: 'invalid_credentials',
  not_authenticated: 'not_authenticated',
  email_unverified: 'email_unverified',
  forbidden: 'forbidden',
  csrf_failed: 'csrf_failed',
  throttled: 'throttled',
  invalid_code: 'invalid_code',
  overloaded: 'overloaded',
  invalid_query: 'invalid_message',
  privileged_field: 'privileged_field',
  idempotency_key_reused: 'idempotency_key_reused',
  idempotency_in_progress: 'idempotency_in_progress',
  precondition_failed: 'precondition_failed',
  social_login_failed: 'social_login_failed',
  storage_unavailable: 'storage_unavailable',
};
