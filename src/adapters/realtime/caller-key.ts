import type { Identity } from '../../domain/auth/identity.js';

/** Whom a connection counts against for the per-caller cap: the identity's id, or the IP address of an anonymous caller. */
export function callerKey(identity: Identity, ip: string): string {
  return identity.isAuthenticated && identity.id !== null ? `user:${String(identity.id)}` : `ip:${ip}`;
}
