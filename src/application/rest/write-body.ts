import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { Row, Value } from '../../domain/model/types.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';
import type { RestResource } from './rest-resource.js';

/**
 * Turns an untrusted JSON body into the columns to write (DESIGN §3 "field policy on writes"):
 * the body must be an object; `password_hash`, hidden and noform columns are stripped
 * silently (SPEC "Model resource" 3); a privileged column answers 400 `privileged_field`
 * naming it; computed fields are read-only and stripped; columns set from the caller
 * (`setOnCreate`) cannot be supplied.
 */
export function writableFields(resource: RestResource, body: unknown, index?: number, parent?: ParentScope): Row {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DomainError('invalid_input', 'the body must be a JSON object');
  }
  const out: Row = {};
  const at = index === undefined ? {} : { index };
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (parent && key === parent.column) {
      // SPEC "Parent-scoped sub-resources" 3: the parent comes from the URL; a body naming it is refused, not overwritten.
      throw new DomainError('invalid_input', `"${key}" is taken from the URL`, [{ field: key, message: 'set by the URL', ...at }]);
    }
    if (resource.policy.privileged(key)) {
      throw new DomainError('privileged_field', `"${key}" cannot be set through this API`, [{ field: key, message: 'privileged field', ...at }]);
    }
    if (!resource.policy.writable(key) || resource.config.computed?.[key] || resource.config.setOnCreate?.[key]) continue;
    out[key] = value as Value;
  }
  return out;
}

/** Adds the caller-derived columns of a create, and the parent key of a parent-scoped one. */
export function withCallerFields(resource: RestResource, identity: Identity, row: Row, parent?: ParentScope): Row {
  const out = { ...row };
  if (parent) out[parent.column] = parent.value;
  for (const [column, fn] of Object.entries(resource.config.setOnCreate ?? {})) out[column] = fn(identity);
  return out;
}
