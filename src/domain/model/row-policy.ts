import type { Identity } from '../auth/identity.js';
import type { Condition } from '../query/condition.js';
import type { Row, Value } from './types.js';

/** A row filter that depends on the caller (DRF's get_queryset), combined with AND. */
export type ScopeFn = (identity: Identity) => Condition | undefined;

/**
 * Which rows of a model a caller reaches, on every surface (REST, GraphQL over each transport,
 * the admin for non-superusers, task-side and programmatic writes given a caller):
 * `ownedBy(column)` keeps the rows whose `column` is the caller's id (an anonymous caller owns
 * nothing), `scope(identity)` adds a filter; both hold together.
 */
export interface RowPolicy {
  /** The column holding the owner's user id. */
  readonly ownedBy?: string;
  /** A further filter per caller, ANDed. */
  readonly scope?: ScopeFn;
}

/** Where a policy was declared (named in the error when two declarations disagree). */
export interface RowPolicyDecl {
  /** The model's table. */
  readonly table: string;
  /** What is declared. */
  readonly policy: RowPolicy;
  /** Where, as the host wrote it (`rest().resource({ table: 'loan' })`). */
  readonly by: string;
}

/** The caller's filter of a model's rows under `policy` (undefined: every row). */
export function rowScope(policy: RowPolicy | undefined, identity: Identity): Condition | undefined {
  if (!policy) return undefined;
  const parts: Condition[] = [];
  const owner = policy.ownedBy;
  if (owner) parts.push(identity.isAuthenticated && identity.id !== null ? { column: owner, op: 'eq', value: identity.id } : { column: owner, op: 'in', value: [] });
  const extra = policy.scope?.(identity);
  if (extra) parts.push(extra);
  return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { all: parts };
}

/**
 * A row about to be created under `policy`: the owner column, when the body leaves it out, is the
 * caller's id; `'foreign'` when the row names another owner (or the caller is anonymous).
 */
export function ownRow(policy: RowPolicy | undefined, identity: Identity, row: Row): Row | 'foreign' {
  const owner = policy?.ownedBy;
  if (!owner) return row;
  if (!identity.isAuthenticated || identity.id === null) return 'foreign';
  const given = row[owner];
  if (given === undefined || given === null) return { ...row, [owner]: identity.id };
  return sameValue(given, identity.id) ? row : 'foreign';
}

/** An update's changes under `policy`: `'foreign'` when they hand the row to another owner. */
export function keepsOwner(policy: RowPolicy | undefined, identity: Identity, changes: Row): boolean {
  const owner = policy?.ownedBy;
  if (!owner || !(owner in changes)) return true;
  return identity.id !== null && sameValue(changes[owner] as Value, identity.id);
}

const sameValue = (a: Value, b: Value): boolean => String(a) === String(b);

/**
 * One model's policy from its declarations (the model's own, then surfaces' sugar such as a REST
 * resource's `ownedBy`): equal declarations agree; two different owners, or two scope functions,
 * are an error naming both places.
 */
export function mergeRowPolicies(table: string, decls: readonly RowPolicyDecl[]): RowPolicy | undefined {
  let merged: RowPolicy | undefined;
  let ownerBy = '';
  let scopeBy = '';
  for (const { policy, by } of decls) {
    if (policy.ownedBy === undefined && policy.scope === undefined) continue;
    const next: { ownedBy?: string; scope?: ScopeFn } = { ...merged };
    if (policy.ownedBy !== undefined) {
      if (next.ownedBy !== undefined && next.ownedBy !== policy.ownedBy) {
        throw new Error(`${table}: ownedBy('${policy.ownedBy}') in ${by} differs from ownedBy('${next.ownedBy}') in ${ownerBy}; declare the row policy once, on the model`);
      }
      next.ownedBy = policy.ownedBy;
      ownerBy ||= by;
    }
    if (policy.scope !== undefined) {
      if (next.scope !== undefined && next.scope !== policy.scope) {
        throw new Error(`${table}: a scope is declared in ${by} and in ${scopeBy}; declare the row policy once, on the model`);
      }
      next.scope = policy.scope;
      scopeBy ||= by;
    }
    merged = next;
  }
  return merged;
}
