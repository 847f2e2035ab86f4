import type { Identity } from '../auth/identity.js';
import type { PermissionAction, PermissionClass, PermissionDecision } from './resource-config.js';

const needIdentity = (identity: Identity): PermissionDecision => (identity.isAuthenticated ? 'forbidden' : 'unauthenticated');

/**
 * The default: reads open to everyone, writes refused (SPEC "REST resource routes": an
 * unconfigured resource answers 403 to any write, whoever calls).
 */
export const ReadOnly: PermissionClass = {
  name: 'ReadOnly',
  decide: (_identity, action) => (action === 'read' ? 'allow' : 'forbidden'),
};

/** Everyone may do everything. */
export const AllowAny: PermissionClass = { name: 'AllowAny', decide: () => 'allow' };

/** Only identified callers; anonymous callers get 401. */
export const IsAuthenticated: PermissionClass = {
  name: 'IsAuthenticated',
  decide: (identity) => (identity.isAuthenticated ? 'allow' : 'unauthenticated'),
};

/** Only staff (or superusers); anonymous 401, others 403. */
export const IsStaff: PermissionClass = {
  name: 'IsStaff',
  decide: (identity) => (identity.isAuthenticated && (identity.isStaff || identity.isSuperuser) ? 'allow' : needIdentity(identity)),
};

/** Reads for everyone, writes for identified callers (DRF's IsAuthenticatedOrReadOnly). */
export const IsAuthenticatedOrReadOnly: PermissionClass = {
  name: 'IsAuthenticatedOrReadOnly',
  decide: (identity, action) => (action === 'read' || identity.isAuthenticated ? 'allow' : 'unauthenticated'),
};

/** Every class must allow; the first refusal is the answer. */
export function allOf(...classes: PermissionClass[]): PermissionClass {
  return {
    name: `allOf(${classes.map((c) => c.name).join(', ')})`,
    decide(identity: Identity, action: PermissionAction): PermissionDecision {
      for (const c of classes) {
        const d = c.decide(identity, action);
        if (d !== 'allow') return d;
      }
      return 'allow';
    },
  };
}

/** Any class allowing is enough; otherwise 401 if any refusal was for lack of identity, else 403. */
export function anyOf(...classes: PermissionClass[]): PermissionClass {
  return {
    name: `anyOf(${classes.map((c) => c.name).join(', ')})`,
    decide(identity: Identity, action: PermissionAction): PermissionDecision {
      const decisions = classes.map((c) => c.decide(identity, action));
      if (decisions.includes('allow')) return 'allow';
      return decisions.includes('unauthenticated') && !identity.isAuthenticated ? 'unauthenticated' : 'forbidden';
    },
  };
}

/** Allows exactly what `c` refuses. */
export function not(c: PermissionClass): PermissionClass {
  return {
    name: `not(${c.name})`,
    decide: (identity, action) => (c.decide(identity, action) === 'allow' ? needIdentity(identity) : 'allow'),
  };
}
