import type { ErrorCode } from '../../domain/errors/codes.js';
import { DomainError, type FieldError } from '../../domain/errors/domain-error.js';

/**
 * The HTTP status of every error code: the one place HTTP maps codes (STYLE guideline 5), for
 * REST's problem documents and the admin's error pages alike.
 */
export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  not_found: 404,
  invalid_input: 400,
  unique_violation: 400,
  foreign_key_violation: 400,
  still_referenced: 409,
  not_null_violation: 400,
  check_violation: 400,
  database_unavailable: 503,
  malformed_json: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  method_not_allowed: 405,
  internal_error: 500,
  invalid_credentials: 401,
  not_authenticated: 401,
  email_unverified: 403,
  forbidden: 403,
  csrf_failed: 403,
  throttled: 429,
  invalid_code: 400,
  overloaded: 503,
  invalid_query: 400,
  privileged_field: 400,
  idempotency_key_reused: 422,
  idempotency_in_progress: 409,
  precondition_failed: 412,
  social_login_failed: 400,
  storage_unavailable: 503,
};

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/** The title of a status (a problem's `title`, the admin's error page heading). */
export const statusTitle = (status: number): string => TITLES[status] ?? 'Error';

/** An RFC 9457 problem document (DESIGN §3 "errors"). */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode | string;
  errors?: FieldError[];
}

const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'invalid_input',
  401: 'not_authenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  501: 'method_not_allowed',
  503: 'database_unavailable',
};

/**
 * Maps anything thrown by a route to a problem document. Domain errors keep their code and
 * safe detail; an HTTP error raised by Koa or the router keeps its 4xx status; everything
 * else is a 500 whose body says nothing about the cause (the cause is logged).
 */
export function toProblem(error: unknown): Problem {
  if (error instanceof DomainError) {
    const status = STATUS_BY_CODE[error.code];
    return {
      type: `urn:portico:error:${error.code}`,
      title: statusTitle(status),
      status,
      detail: error.detail,
      code: error.code,
      ...(error.errors.length > 0 ? { errors: [...error.errors] } : {}),
    };
  }
  const status = (error as { status?: unknown; expose?: unknown }).status;
  if (typeof status === 'number' && ((status >= 400 && status < 500) || status === 501)) {
    const code = CODE_BY_STATUS[status] ?? 'invalid_input';
    return { type: `urn:portico:error:${code}`, title: statusTitle(status), status, detail: TITLES[status] ?? 'Request error', code };
  }
  return {
    type: 'urn:portico:error:internal_error',
    title: TITLES[500] as string,
    status: 500,
    detail: 'An unexpected error occurred.',
    code: 'internal_error',
  };
}

/**
 * The headers a problem answer carries besides its body: `WWW-Authenticate` on a 401 (RFC 9110
 * §11.6.1: it names the scheme that would succeed), `Retry-After` when the error knows when, and
 * those a DomainError names itself as `headers` (`Allow`, `Accept-Encoding`, …). Other errors'
 * properties are never copied: what they hold is not the caller's to see.
 */
export function problemHeaders(problem: Problem, error: unknown): Record<string, string> {
  const own = error instanceof DomainError ? (error as { headers?: unknown }).headers : undefined;
  const headers: Record<string, string> = own !== null && typeof own === 'object' ? { ...(own as Record<string, string>) } : {};
  if (problem.status === 401) headers['WWW-Authenticate'] = 'Bearer realm="portico"';
  const retryAfter = (error as { retryAfterSeconds?: unknown } | null | undefined)?.retryAfterSeconds;
  if (typeof retryAfter === 'number') headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfter)));
  return headers;
}
