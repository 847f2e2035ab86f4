import type { ErrorCode } from '../../domain/errors/codes.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import { GraphQLError } from './graphql-js.js';

/** The `extensions.code` of every error code: the one place GraphQL maps codes (STYLE guideline 5). */
export const GRAPHQL_CODE_BY_CODE: Readonly<Record<ErrorCode, string>> = {
  not_found: 'NOT_FOUND',
  invalid_input: 'BAD_USER_INPUT',
  unique_violation: 'BAD_USER_INPUT',
  foreign_key_violation: 'BAD_USER_INPUT',
  still_referenced: 'CONFLICT',
  not_null_violation: 'BAD_USER_INPUT',
  check_violation: 'BAD_USER_INPUT',
  database_unavailable: 'SERVICE_UNAVAILABLE',
  malformed_json: 'BAD_REQUEST',
  unsupported_media_type: 'BAD_REQUEST',
  payload_too_large: 'BAD_REQUEST',
  method_not_allowed: 'BAD_REQUEST',
  internal_error: 'INTERNAL_SERVER_ERROR',
  invalid_credentials: 'UNAUTHENTICATED',
  not_authenticated: 'UNAUTHENTICATED',
  email_unverified: 'FORBIDDEN',
  forbidden: 'FORBIDDEN',
  csrf_failed: 'FORBIDDEN',
  throttled: 'TOO_MANY_REQUESTS',
  invalid_code: 'BAD_USER_INPUT',
  overloaded: 'SERVICE_UNAVAILABLE',
  invalid_query: 'BAD_USER_INPUT',
  privileged_field: 'privileged_field',
  idempotency_key_reused: 'BAD_USER_INPUT',
  idempotency_in_progress: 'CONFLICT',
  precondition_failed: 'PRECONDITION_FAILED',
  social_login_failed: 'BAD_USER_INPUT',
  storage_unavailable: 'SERVICE_UNAVAILABLE',
};

/**
 * Maps a resolver failure to what the client sees: a domain error keeps its safe message and
 * gets its code; a GraphQL error raised on purpose (validation) passes; anything else
 * becomes a generic INTERNAL_SERVER_ERROR with no driver text.
 */
export function formatGraphqlError(error: GraphQLError): GraphQLError {
  const original = error.originalError;
  if (original instanceof DomainError) {
    return new GraphQLError(original.detail, {
      ...(error.nodes ? { nodes: error.nodes } : {}),
      ...(error.path ? { path: error.path } : {}),
      extensions: { code: GRAPHQL_CODE_BY_CODE[original.code], ...(original.errors.length > 0 ? { errors: original.errors } : {}) },
    });
  }
  if (!original || original instanceof GraphQLError) return error;
  return new GraphQLError('An unexpected error occurred.', {
    ...(error.path ? { path: error.path } : {}),
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}
