import { describe, expect, it } from 'vitest';
import { ANONYMOUS, type Identity } from '../../../src/domain/auth/identity.js';
import { keepsOwner, mergeRowPolicies, ownRow, rowScope } from '../../../src/domain/model/row-policy.js';

const ada: Identity = { isAuthenticated: true, id: 7, username: 'ada', isStaff: false, isSuperuser: false, via: 'bearer' };
const drafts = () => ({ column: 'kind', op: 'ne' as const, value: 'draft' });

describe('row policy', () => {
  it('scopes to the caller, gives an anonymous caller nothing, and ANDs a scope function', () => {
    expect(rowScope(undefined, ada)).toBeUndefined();
    expect(rowScope({ ownedBy: 'owner_id' }, ada)).toEqual({ column: 'owner_id', op: 'eq', value: 7 });
    expect(rowScope({ ownedBy: 'owner_id' }, ANONYMOUS)).toEqual({ column: 'owner_id', op: 'in', value: [] });
    expect(rowScope({ ownedBy: 'owner_id', scope: drafts }, ada)).toEqual({ all: [{ column: 'owner_id', op: 'eq', value: 7 }, drafts()] });
    expect(rowScope({ scope: () => undefined }, ada)).toBeUndefined();
  });

  it('fills an omitted owner with the caller, refuses another owner or an anonymous creator', () => {
    expect(ownRow({ ownedBy: 'owner_id' }, ada, { body: 'x' })).toEqual({ body: 'x', owner_id: 7 });
    expect(ownRow({ ownedBy: 'owner_id' }, ada, { owner_id: '7' })).toEqual({ owner_id: '7' });
    expect(ownRow({ ownedBy: 'owner_id' }, ada, { owner_id: 8 })).toBe('foreign');
    expect(ownRow({ ownedBy: 'owner_id' }, ANONYMOUS, { body: 'x' })).toBe('foreign');
    expect(ownRow({ scope: drafts }, ANONYMOUS, { body: 'x' })).toEqual({ body: 'x' });
  });

  it('lets an update keep, but not hand over, the owner', () => {
    expect(keepsOwner({ ownedBy: 'owner_id' }, ada, { body: 'y' })).toBe(true);
    expect(keepsOwner({ ownedBy: 'owner_id' }, ada, { owner_id: 7 })).toBe(true);
    expect(keepsOwner({ ownedBy: 'owner_id' }, ada, { owner_id: 8 })).toBe(false);
    expect(keepsOwner({ ownedBy: 'owner_id' }, ada, { owner_id: null })).toBe(false);
  });

  it('merges equal declarations and names both places of two that differ', () => {
    expect(mergeRowPolicies('note', [{ table: 'note', by: 'a', policy: { ownedBy: 'owner_id' } }, { table: 'note', by: 'b', policy: { ownedBy: 'owner_id', scope: drafts } }])).toEqual({ ownedBy: 'owner_id', scope: drafts });
    expect(() => mergeRowPolicies('note', [{ table: 'note', by: 'a', policy: { ownedBy: 'owner_id' } }, { table: 'note', by: 'b', policy: { ownedBy: 'author_id' } }])).toThrow(
      "note: ownedBy('author_id') in b differs from ownedBy('owner_id') in a; declare the row policy once, on the model",
    );
    expect(() => mergeRowPolicies('note', [{ table: 'note', by: 'a', policy: { scope: drafts } }, { table: 'note', by: 'b', policy: { scope: () => undefined } }])).toThrow('note: a scope is declared in b and in a');
  });
});
