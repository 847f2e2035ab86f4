import { ANONYMOUS } from '../../domain/auth/identity.js';
import type { PermissionAction, PermissionDecision } from '../../domain/rest/resource-config.js';
import type { RestResource } from '../../application/rest/rest-resource.js';
import { json, ref, type Json } from './openapi-schemas.js';

/*
 * One operation of the document and the error responses it declares (DESIGN §3 "errors": every
 * error is an RFC 9457 `application/problem+json` document; src/adapters/http-koa/problem-mapping.ts
 * maps each code to its status).
 */

const PROBLEM = { 'application/problem+json': { schema: ref('schemas', 'Problem') } };

/** An error status the REST routes can answer, with its shared response component. */
interface ErrorResponse {
  readonly name: string;
  readonly description: string;
  readonly headers?: Json;
}

export const ERROR_RESPONSES: Readonly<Record<string, ErrorResponse>> = {
  '400': { name: 'BadRequest', description: 'Invalid input or query (`invalid_input`, `invalid_query`, `malformed_json`, `privileged_field`, `unique_violation`, `foreign_key_violation`, `not_null_violation`, `check_violation`)' },
  '401': {
    name: 'Unauthorized',
    description: 'Authentication required, or the credentials sent are not valid (`not_authenticated`)',
    headers: { 'WWW-Authenticate': { description: 'The challenge: `Bearer realm="portico"`', required: true, schema: { type: 'string' } } },
  },
  '403': { name: 'Forbidden', description: 'Refused by the permission class (`forbidden`) or the CSRF check of a session-cookie write (`csrf_failed`)' },
  '404': { name: 'NotFound', description: 'No such row, or not visible to the caller; also a missing parent of a parent-scoped resource (`not_found`)' },
  '409': {
    name: 'Conflict',
    description: 'The row is still referenced by other rows (`still_referenced`), or the first request with this `Idempotency-Key` is still running (`idempotency_in_progress`, with `Retry-After`)',
  },
  '412': {
    name: 'PreconditionFailed',
    description: 'The `If-Match` header (or a bulk PATCH item\'s `_version`) names no current version of the row (a stale or weak entity tag); nothing was written (`precondition_failed`)',
  },
  '413': { name: 'PayloadTooLarge', description: 'The body exceeds the request body limit of 1 MiB (`payload_too_large`)' },
  '415': { name: 'UnsupportedMediaType', description: 'The body is not `application/json` (`unsupported_media_type`)' },
  '422': { name: 'IdempotencyKeyReused', description: 'The `Idempotency-Key` was used for a different request within 24 hours (`idempotency_key_reused`)' },
  '429': {
    name: 'TooManyRequests',
    description: "Throttled by the resource's throttle (`throttled`)",
    headers: { 'Retry-After': { description: 'Seconds to wait', required: true, schema: { type: 'integer', minimum: 1 } } },
  },
  '503': { name: 'ServiceUnavailable', description: 'The database did not answer in time (`database_unavailable`)' },
};

/** The optional header that makes a write safe to retry. */
const IDEMPOTENCY_KEY: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Makes the write safe to retry: the same key and request within 24 hours get the first answer (with `Idempotent-Replayed: true`)',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
};

/** The optional precondition of a detail write (RFC 9110 §13.1.1). */
export const IF_MATCH: Json = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'Write only if the row is still at one of these versions: `*`, or a list of the strong `ETag`s of its detail answers (weak tags never match). Compared in the writing transaction; a stale one answers 412 `precondition_failed`',
  schema: { type: 'string' },
};

/** The `ETag` of a one-row answer; `required` false where the operation may also answer a batch. */
export const etagHeader = (required: boolean): Json => ({
  ETag: { description: 'The strong entity tag of the row as stored: send it back as `If-Match` to write only that version', required, schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]+"$' } },
});

/** The shared error response components, by name. */
export function errorResponseComponents(): Record<string, Json> {
  return Object.fromEntries(
    Object.values(ERROR_RESPONSES).map(({ name, description, headers }) => [name, { description, ...(headers ? { headers } : {}), content: PROBLEM }]),
  );
}

/** What the permission class answers an anonymous caller; a class that throws counts as "needs an identity". */
function anonymousDecision(resource: RestResource, action: PermissionAction): PermissionDecision {
  try {
    return resource.permission.decide(ANONYMOUS, action);
  } catch {
    return 'unauthenticated';
  }
}

/** A permission check an operation makes: the resource's own, and those of nested children it writes. */
export type Gate = readonly [resource: RestResource, action: PermissionAction];

export interface OperationSpec {
  readonly id: string;
  readonly summary: string;
  readonly description: string;
  /** The permission checks made; the first is the resource's own. */
  readonly gates: readonly Gate[];
  readonly parameters?: readonly Json[];
  /** The JSON request body schema (the operation then also declares 413 and 415). */
  readonly body?: Json;
  /** The `multipart/form-data` body schema, for the writes of a model with file columns. */
  readonly upload?: Json;
  readonly success: readonly [status: string, response: Json];
  /** The error statuses besides 401/403/429/503 (which follow from the gates, the throttle and the store). */
  readonly errors: readonly string[];
}

/**
 * An operation object: 401 always (credentials that are sent must be valid, even where anonymous
 * callers are allowed; and a permission class may refuse an anonymous caller), 403 when one
 * can refuse at all or the write can fail the CSRF check, 413/415 with a body, 429 with a
 * throttle, 503 always (every operation reads the database).
 */
export function operation(resource: RestResource, spec: OperationSpec): Json {
  const statuses = new Set(spec.errors);
  if (spec.body) {
    statuses.add('400');
    statuses.add('413');
    statuses.add('415');
  }
  statuses.add('401');
  for (const [gated, action] of spec.gates) {
    if (anonymousDecision(gated, action) !== 'allow' || action !== 'read') statuses.add('403');
  }
  if (resource.config.throttle) statuses.add('429');
  statuses.add('503');
  // A write may carry an Idempotency-Key (DESIGN §3 "idempotency"): a retry replays the first answer.
  const write = (spec.gates[0]?.[1] ?? 'read') !== 'read';
  if (write) {
    statuses.add('400'); // a malformed key
    statuses.add('409');
    statuses.add('422');
  }
  const parameters = [...(spec.parameters ?? []), ...(write ? [IDEMPOTENCY_KEY] : [])];
  const responses: Json = { [spec.success[0]]: spec.success[1] };
  for (const status of [...statuses].sort()) {
    const entry = ERROR_RESPONSES[status];
    if (entry) responses[status] = ref('responses', entry.name);
  }
  const identified = [{ bearerAuth: [] }, { sessionCookie: [] }];
  // Anonymous callers may call it when the resource's own check lets them (nested children may still need an identity).
  const anonymous = anonymousDecision(resource, spec.gates[0]?.[1] ?? 'read') === 'allow';
  return {
    operationId: spec.id,
    summary: spec.summary,
    description: spec.description,
    tags: [resource.model.table],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(spec.body ? { requestBody: { required: true, content: { ...json(spec.body), ...(spec.upload ? { 'multipart/form-data': { schema: spec.upload } } : {}) } } } : {}),
    responses,
    security: anonymous ? [{}, ...identified] : identified,
  };
}
