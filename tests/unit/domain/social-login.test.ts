import { describe, expect, it } from 'vitest';
import { decideSocialLogin, readPending, usernameCandidates, type SocialDecisionInput, type SocialProfile } from '../../../src/domain/auth/social-login.js';

const profile = (over: Partial<SocialProfile> = {}): SocialProfile => ({ subject: 's1', email: 'ann@example.com', emailVerified: true, username: 'ann', ...over });
const user = (id: number, over: Record<string, unknown> = {}) => ({ id, username: `u${id}`, email: 'ann@example.com', is_active: true, email_verified_at: new Date(), password_hash: 'h', ...over });
const input = (over: Partial<SocialDecisionInput> = {}): SocialDecisionInput => ({ provider: 'google', profile: profile(), linkedUser: null, linkingUser: null, sameEmailUser: null, linkingHasProvider: false, ...over });

describe('decideSocialLogin', () => {
  it('signs in the linked user', () => {
    expect(decideSocialLogin(input({ linkedUser: user(1), sameEmailUser: user(2) }))).toEqual({ kind: 'sign-in', userId: 1 });
  });
  it('refuses a linked user who is not active', () => {
    expect(decideSocialLogin(input({ linkedUser: user(1, { is_active: false }) })).kind).toBe('refuse');
  });
  it('links automatically only when both the provider and the local account verified the address', () => {
    expect(decideSocialLogin(input({ sameEmailUser: user(2) }))).toEqual({ kind: 'link', userId: 2 });
    expect(decideSocialLogin(input({ sameEmailUser: user(2), profile: profile({ emailVerified: false }) })).kind).toBe('refuse');
  });
  it('never links an unverified local account holding the address (pre-hijack)', () => {
    const decision = decideSocialLogin(input({ sameEmailUser: user(2, { email_verified_at: null }) }));
    expect(decision).toEqual({ kind: 'refuse', reason: expect.stringContaining('Log in with your password') });
  });
  it('creates a user when nobody holds the address, and refuses without an address', () => {
    expect(decideSocialLogin(input())).toEqual({ kind: 'create' });
    expect(decideSocialLogin(input({ profile: profile({ email: null }) })).kind).toBe('refuse');
  });
  it('links explicitly to the signed-in user, whatever the addresses', () => {
    expect(decideSocialLogin(input({ linkingUser: user(3, { email: 'other@example.com', email_verified_at: null }), profile: profile({ emailVerified: false }) }))).toEqual({ kind: 'link', userId: 3 });
  });
  it('refuses an explicit link of an account linked to someone else, or a second account of one provider', () => {
    expect(decideSocialLogin(input({ linkingUser: user(3), linkedUser: user(1) })).kind).toBe('refuse');
    expect(decideSocialLogin(input({ linkingUser: user(3), linkingHasProvider: true })).kind).toBe('refuse');
    expect(decideSocialLogin(input({ linkingUser: user(3), linkedUser: user(3) }))).toEqual({ kind: 'sign-in', userId: 3 });
  });
});

describe('readPending', () => {
  const now = new Date('2026-12-04T12:00:00Z');
  const good = { provider: 'google', state: 's', nonce: 'n', verifier: 'v', redirect: '/', linkUserId: null, expiresAt: now.getTime() + 1000 };
  it('reads a live pending login and refuses an expired or malformed one', () => {
    expect(readPending(JSON.stringify(good), now)).toEqual(good);
    expect(readPending(JSON.stringify({ ...good, expiresAt: now.getTime() }), now)).toBeUndefined();
    expect(readPending(JSON.stringify({ ...good, state: '' }), now)).toBeUndefined();
    expect(readPending(JSON.stringify({ ...good, linkUserId: {} }), now)).toBeUndefined();
    expect(readPending('not json', now)).toBeUndefined();
  });
});

describe('usernameCandidates', () => {
  it('cleans the provider name, falls back to the address, then to the provider', () => {
    expect(usernameCandidates(profile({ username: 'Ann Lee<script>' }), 'github', () => '0001')[0]).toBe('AnnLeescript');
    expect(usernameCandidates(profile({ username: null, email: 'bo.b@example.com' }), 'github', () => '7')[0]).toBe('bo.b');
    expect(usernameCandidates(profile({ username: '!', email: null }), 'github', () => '7')).toEqual(['github-user', 'github-user-7', 'github-user-7', 'github-77']);
  });
});

describe('decideSocialLogin when login needs a verified address', () => {
  it('creates a user only for a verified provider address, and signs in only verified users', () => {
    expect(decideSocialLogin(input({ requireVerifiedEmail: true }))).toEqual({ kind: 'create' });
    expect(decideSocialLogin(input({ requireVerifiedEmail: true, profile: profile({ emailVerified: false }) }))).toEqual({ kind: 'refuse', reason: 'Please verify your email address before logging in.' });
    expect(decideSocialLogin(input({ requireVerifiedEmail: true, linkedUser: user(1, { email_verified_at: null }) })).kind).toBe('refuse');
    expect(decideSocialLogin(input({ requireVerifiedEmail: true, linkedUser: user(1) }))).toEqual({ kind: 'sign-in', userId: 1 });
    expect(decideSocialLogin(input({ requireVerifiedEmail: true, linkingUser: user(3) }))).toEqual({ kind: 'link', userId: 3 });
  });
});
