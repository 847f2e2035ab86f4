import { describe, expect, it } from 'vitest';
import { ANONYMOUS, type Identity } from '../../../../src/domain/auth/identity.js';
import { c, defineModel, ModelRegistry } from '../../../../src/domain/model/index.js';
import { fieldPolicy, presentRow } from '../../../../src/domain/rest/field-policy.js';
import { allOf, AllowAny, anyOf, IsAuthenticated, IsAuthenticatedOrReadOnly, IsStaff, not, ReadOnly } from '../../../../src/domain/rest/permission-classes.js';
import type { PermissionAction } from '../../../../src/domain/rest/resource-config.js';
import { allowedMethods, servedActions } from '../../../../src/domain/rest/view-scope.js';

const user: Identity = { isAuthenticated: true, id: 1, username: 'u', isStaff: false, isSuperuser: false, via: 'bearer' };
const staff: Identity = { ...user, id: 2, isStaff: true };
const actions: PermissionAction[] = ['read', 'add', 'change', 'delete'];

describe('permission classes', () => {
  it.each([
    ['ReadOnly', ReadOnly, ANONYMOUS, ['allow', 'forbidden', 'forbidden', 'forbidden']],
    ['ReadOnly', ReadOnly, staff, ['allow', 'forbidden', 'forbidden', 'forbidden']],
    ['AllowAny', AllowAny, ANONYMOUS, ['allow', 'allow', 'allow', 'allow']],
    ['IsAuthenticated', IsAuthenticated, ANONYMOUS, ['unauthenticated', 'unauthenticated', 'unauthenticated', 'unauthenticated']],
    ['IsAuthenticated', IsAuthenticated, user, ['allow', 'allow', 'allow', 'allow']],
    ['IsStaff', IsStaff, ANONYMOUS, ['unauthenticated', 'unauthenticated', 'unauthenticated', 'unauthenticated']],
    ['IsStaff', IsStaff, user, ['forbidden', 'forbidden', 'forbidden', 'forbidden']],
    ['IsStaff', IsStaff, staff, ['allow', 'allow', 'allow', 'allow']],
    ['IsAuthenticatedOrReadOnly', IsAuthenticatedOrReadOnly, ANONYMOUS, ['allow', 'unauthenticated', 'unauthenticated', 'unauthenticated']],
  ] as const)('%s for %o', (_n, cls, who, expected) => {
    expect(actions.map((a) => cls.decide(who, a))).toEqual(expected);
  });

  it('compose with allOf, anyOf and not', () => {
    expect(allOf(IsAuthenticated, IsStaff).decide(user, 'read')).toBe('forbidden');
    expect(allOf(IsAuthenticated, IsStaff).decide(ANONYMOUS, 'read')).toBe('unauthenticated');
    expect(anyOf(IsStaff, ReadOnly).decide(ANONYMOUS, 'read')).toBe('allow');
    expect(anyOf(IsStaff, ReadOnly).decide(ANONYMOUS, 'add')).toBe('unauthenticated');
    expect(anyOf(IsStaff, ReadOnly).decide(user, 'add')).toBe('forbidden');
    expect(not(IsStaff).decide(user, 'read')).toBe('allow');
    expect(not(IsStaff).decide(staff, 'read')).toBe('forbidden');
  });
});

describe('view scope', () => {
  it('keeps OPTIONS plus the methods of the kept actions', () => {
    expect(allowedMethods(servedActions(undefined), 'collection')).toEqual(['OPTIONS', 'GET', 'POST']);
    expect(allowedMethods(servedActions(undefined), 'detail')).toEqual(['OPTIONS', 'GET', 'PUT', 'PATCH', 'DELETE']);
    expect(allowedMethods(servedActions(['List', 'Retrieve']), 'detail')).toEqual(['OPTIONS', 'GET']);
    expect(allowedMethods(servedActions(['List']), 'detail')).toEqual([]);
    expect(allowedMethods(servedActions(['Create']), 'collection')).toEqual(['OPTIONS', 'POST']);
  });
});

describe('field policy', () => {
  const registry = ModelRegistry.build([
    defineModel('auth_user', { id: c.id(), username: c.text(), email: c.text(), password_hash: c.text(), is_staff: c.bool().default(false), last_login: c.timestamp().nullable() }),
    defineModel('thing', { id: c.id(), name: c.text(), secret: c.text().nullable(), flag: c.bool().default(false).privileged(), note: c.text().noform(), password_hash: c.text().nullable() }),
  ]);

  it('never reads or writes password_hash, even when asked to show everything', () => {
    const p = fieldPolicy(registry.require('thing'), { table: 'thing', hide: [] });
    expect(p.readable('password_hash')).toBe(false);
    expect(p.writable('password_hash')).toBe(false);
  });

  it('hide, noform and privileged', () => {
    const p = fieldPolicy(registry.require('thing'), { table: 'thing', hide: ['secret'], privileged: ['name'] });
    expect([p.readable('secret'), p.writable('secret')]).toEqual([false, false]);
    expect([p.readable('note'), p.writable('note')]).toEqual([true, false]);
    expect(p.privileged('flag')).toBe(true);
    expect(p.privileged('name')).toBe(true);
    expect(p.privileged('is_superuser')).toBe(true);
  });

  it('an unserved auth_user hides contact data by default', () => {
    const model = registry.require('auth_user');
    const row = { id: 1, username: 'a', email: 'a@x', password_hash: 'h', is_staff: false, last_login: null };
    expect(presentRow(model, row, fieldPolicy(model))).toEqual({ id: 1, username: 'a', is_staff: false });
  });
});
