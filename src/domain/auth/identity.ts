import type { Value } from '../model/types.js';

/** Who is calling (SPEC "Authentication" 7): at least id, username, isStaff, isSuperuser. */
export interface Identity {
  readonly isAuthenticated: boolean;
  readonly id: Value | null;
  readonly username: string | null;
  readonly isStaff: boolean;
  readonly isSuperuser: boolean;
  /** How the caller was identified. */
  readonly via: 'session' | 'bearer' | 'anonymous';
}

/** The caller nobody identified. */
export const ANONYMOUS: Identity = Object.freeze({
  isAuthenticated: false,
  id: null,
  username: null,
  isStaff: false,
  isSuperuser: false,
  via: 'anonymous',
});
