import type { Row, Value } from '../model/types.js';

/**
 * The pure rules of social login (issue 50): what a browser carries between the login and the
 * callback, and which user a provider's account signs in as.
 */

/** How long a started login may take to come back from the provider. */
export const SOCIAL_PENDING_LIFETIME_MS = 10 * 60_000;

/** A provider's name as routes and rows carry it: `google`, `github`, `acme-sso`. */
export const PROVIDER_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** What the provider says of the account that signed in. */
export interface SocialProfile {
  /** The provider's stable id of the account (`sub`, GitHub's numeric `id`). */
  readonly subject: string;
  readonly email: string | null;
  /** True only when the provider asserts that it verified `email`. */
  readonly emailVerified: boolean;
  /** A name to derive a local username from (`preferred_username`, GitHub's `login`). */
  readonly username: string | null;
}

/** What the browser holds, sealed, from the login to the callback. */
export interface PendingSocialLogin {
  readonly provider: string;
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
  /** A safe site path to land on. */
  readonly redirect: string;
  /** Set when a signed-in user started the login to link the account to themselves. */
  readonly linkUserId: string | number | null;
  /** Epoch milliseconds after which the callback is refused. */
  readonly expiresAt: number;
}

/** The pending login `text` carries, or undefined when it is not one (or no longer valid at `now`). */
export function readPending(text: string, now: Date): PendingSocialLogin | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const strings = ['provider', 'state', 'nonce', 'verifier', 'redirect'] as const;
  if (!strings.every((k) => typeof v[k] === 'string' && v[k] !== '')) return undefined;
  if (typeof v.expiresAt !== 'number' || v.expiresAt <= now.getTime()) return undefined;
  const link = v.linkUserId;
  if (link !== null && typeof link !== 'string' && typeof link !== 'number') return undefined;
  return v as unknown as PendingSocialLogin;
}

/** The associated data a sealed provider token is bound to: moved to another row, provider or column, it fails to open. */
export function tokenContext(provider: string, userId: Value, kind: 'access' | 'refresh'): string {
  return `social_account:${provider}:${String(userId)}:${kind}`;
}

/** Which user a callback signs in, or why it is refused. */
export type SocialDecision =
  | { readonly kind: 'sign-in'; readonly userId: Value }
  | { readonly kind: 'link'; readonly userId: Value }
  | { readonly kind: 'create' }
  | { readonly kind: 'refuse'; readonly reason: string };

export interface SocialDecisionInput {
  readonly provider: string;
  readonly profile: SocialProfile;
  /** The user the provider's account is linked to already, if any. */
  readonly linkedUser: Row | null;
  /** The user the browser asked to link to (the link flow), if any. */
  readonly linkingUser: Row | null;
  /** The user holding the profile's address (case-insensitive), if any. */
  readonly sameEmailUser: Row | null;
  /** The provider linked to `linkingUser` already under another account, if so. */
  readonly linkingHasProvider: boolean;
  /** Login needs a verified address: an unverified user is not signed in, nor created. */
  readonly requireVerifiedEmail?: boolean;
}

const verified = (user: Row): boolean => user.email_verified_at !== null && user.email_verified_at !== undefined;

/**
 * The linking rules: a linked account signs its user in; a signed-in user's explicit link
 * attaches the account to them; an existing account is linked automatically only when the
 * provider asserts a verified address AND the local account verified the same address; an
 * account holding the address otherwise is never linked (the pre-hijack attack: someone signs
 * up with a victim's address, unverified, and waits for the victim's social login); no match
 * creates a user. When login needs a verified address, a user without one is neither signed in
 * nor created.
 */
export function decideSocialLogin(input: SocialDecisionInput): SocialDecision {
  const decision = linkingDecision(input);
  if (!input.requireVerifiedEmail || decision.kind === 'refuse') return decision;
  const user = decision.kind === 'create' ? null : [input.linkedUser, input.linkingUser, input.sameEmailUser].find((u) => u && u.id === decision.userId);
  const unverified = decision.kind === 'create' ? !input.profile.emailVerified : !user || !verified(user);
  return unverified ? { kind: 'refuse', reason: 'Please verify your email address before logging in.' } : decision;
}

function linkingDecision(input: SocialDecisionInput): SocialDecision {
  const { provider, profile, linkedUser, linkingUser, sameEmailUser } = input;
  if (linkingUser) {
    if (linkedUser && linkedUser.id !== linkingUser.id) return { kind: 'refuse', reason: `This ${provider} account is linked to another user.` };
    if (linkedUser) return { kind: 'sign-in', userId: linkedUser.id ?? null };
    if (input.linkingHasProvider) return { kind: 'refuse', reason: `Your account is linked to another ${provider} account; unlink it first.` };
    if (linkingUser.is_active !== true) return { kind: 'refuse', reason: 'This account is not active.' };
    return { kind: 'link', userId: linkingUser.id ?? null };
  }
  if (linkedUser) {
    if (linkedUser.is_active !== true) return { kind: 'refuse', reason: 'This account is not active.' };
    return { kind: 'sign-in', userId: linkedUser.id ?? null };
  }
  if (sameEmailUser) {
    if (profile.emailVerified && verified(sameEmailUser) && sameEmailUser.is_active === true) return { kind: 'link', userId: sameEmailUser.id ?? null };
    return { kind: 'refuse', reason: `An account with this email address exists. Log in with your password, then link ${provider} from your account.` };
  }
  if (!profile.email) return { kind: 'refuse', reason: `${provider} did not share an email address; an account needs one.` };
  return { kind: 'create' };
}

/** Usernames to try for a new user, best first: the provider's name or the address's local part, cleaned. */
export function usernameCandidates(profile: SocialProfile, provider: string, suffix: () => string): string[] {
  const base = (profile.username ?? profile.email?.split('@')[0] ?? '')
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9_.-]/g, '')
    .slice(0, 30);
  const stem = base.length >= 2 ? base : `${provider}-user`;
  return [stem, `${stem}-${suffix()}`, `${stem}-${suffix()}`, `${provider}-${suffix()}${suffix()}`];
}
