import type { Identity } from '../../domain/auth/identity.js';
import { DomainError } from '../../domain/errors/domain-error.js';
import type { ModelDef, Row, Value } from '../../domain/model/types.js';
import type { FieldPolicy } from '../../domain/rest/field-policy.js';
import type { ParentScope } from '../../domain/rest/resource-config.js';

/**
 * What a surface (REST, GraphQL, admin) writes through: the model and that surface's field
 * policy. The model's own write policy (server-set columns, noform, hidden and privileged flags)
 * is part of every surface's; a surface may only add to it (its own hide list, computed fields).
 */
export interface WriteSurface {
  readonly model: ModelDef;
  readonly policy: FieldPolicy;
  /** Read-only fields the surface computes (stripped from write bodies). */
  readonly config?: { readonly computed?: Readonly<Record<string, unknown>> };
}

/**
 * Turns an untrusted body into the columns to write (DESIGN §3 "field policy on writes"): the
 * body must be an object; `password_hash`, hidden and noform columns are stripped silently (SPEC
 * "Model resource" 3); a privileged column answers 400 `privileged_field` naming it; computed
 * fields and server-set columns (`setOnCreate`) are stripped; under a parent, the parent key is
 * refused (it comes from the URL).
 */
export function writableFields(surface: WriteSurface, body: unknown, index?: number, parent?: ParentScope): Row {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new DomainError('invalid_input', 'the body must be a JSON object');
  }
  const out: Row = {};
  const at = index === undefined ? {} : { index };
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (parent && key === parent.column) {
      // SPEC "Parent-scoped sub-resources" 3: the parent comes from the URL; a body naming it is refused, not overwritten.
      throw new DomainError('invalid_input', `"${key}" is taken from the URL`, [{ field: key, message: 'set by the URL', ...at }]);
    }
    if (surface.policy.privileged(key)) {
      throw new DomainError('privileged_field', `"${key}" cannot be set through this API`, [{ field: key, message: 'privileged field', ...at }]);
    }
    if (!surface.policy.writable(key) || surface.config?.computed?.[key] || surface.model.setOnCreate[key]) continue;
    out[key] = value as Value;
  }
  return out;
}

/** Adds the server-set columns of a create (the model's `setOnCreate`), and the parent key of a parent-scoped one. */
export function withServerFields(model: ModelDef, identity: Identity, row: Row, parent?: ParentScope): Row {
  const out = { ...row };
  if (parent) out[parent.column] = parent.value;
  for (const [column, fn] of Object.entries(model.setOnCreate)) out[column] = fn(identity);
  return out;
}
