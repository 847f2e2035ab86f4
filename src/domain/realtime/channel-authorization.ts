import type { Identity } from '../auth/identity.js';

/** What a channel's `authorize` sees. */
export interface ChannelAuthorizeArgs {
  /** The caller (anonymous when nobody is signed in). */
  readonly identity: Identity;
  /** The pattern's parameters (`{ room: '42' }` for `chat/:room` and `chat/42`). */
  readonly params: Readonly<Record<string, string>>;
  /** The channel asked for. */
  readonly channel: string;
}

/** Decides whether a caller may listen to a channel. */
export type ChannelAuthorizer = (args: ChannelAuthorizeArgs) => boolean | Promise<boolean>;

/** Why a caller may not listen: unknown channel, anonymous caller refused, identified caller refused. */
export type ChannelRefusal = 'not_found' | 'not_authenticated' | 'forbidden';

/** The answer to a subscription request. */
export type Admission =
  | { readonly ok: true; readonly params: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly code: ChannelRefusal };

/** The refusal of a declared channel whose `authorize` said no: 401 for an anonymous caller, 403 for an identified one. */
export function refusalFor(identity: Identity): ChannelRefusal {
  return identity.isAuthenticated ? 'forbidden' : 'not_authenticated';
}
