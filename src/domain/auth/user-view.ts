import type { Row, Value } from '../model/types.js';
import type { Identity } from './identity.js';

/** The user as the JSON auth routes return it: never the password hash. */
export interface PublicUser {
  readonly id: Value;
  readonly username: Value;
  readonly email: Value;
  readonly is_staff: boolean;
  readonly is_superuser: boolean;
  readonly date_joined: Value;
  readonly last_login: Value;
  readonly email_verified_at: Value;
}

/** Projects an auth_user row onto what its owner may see. */
export function publicUser(row: Row): PublicUser {
  return {
    id: row.id ?? null,
    username: row.username ?? null,
    email: row.email ?? null,
    is_staff: row.is_staff === true,
    is_superuser: row.is_superuser === true,
    date_joined: row.date_joined ?? null,
    last_login: row.last_login ?? null,
    email_verified_at: row.email_verified_at ?? null,
  };
}

/** The identity of an (active) auth_user row. */
export function identityOf(row: Row, via: Identity['via']): Identity {
  return {
    isAuthenticated: true,
    id: row.id ?? null,
    username: typeof row.username === 'string' ? row.username : null,
    isStaff: row.is_staff === true,
    isSuperuser: row.is_superuser === true,
    via,
  };
}
