import { describe, expect, it } from 'vitest';
import { AdminVersions, differingColumns, StaleAdminRecord } from '../../../../src/application/admin/admin-versions.js';
import { EntityTags } from '../../../../src/application/rest/entity-tags.js';
import { c, defineModel, ModelRegistry } from '../../../../src/index.js';

const model = ModelRegistry.build([defineModel('doc', { id: c.id(), title: c.text(), at: c.timestamp().nullable(), meta: c.json().nullable(), done: c.bool().default(false) })]).require('doc');
const row = { id: 1, title: 'T', at: new Date('2025-01-02T03:04:05.678Z'), meta: { a: 1 }, done: false };

describe('admin versions', () => {
  it('the version is the entity tag; a stale one throws StaleAdminRecord with the row and its version; none is not compared', () => {
    const tags = new EntityTags('k');
    const versions = new AdminVersions(tags);
    expect(versions.of(model, row)).toBe(tags.of(model, row));
    expect(() => versions.check(model, row, undefined)).not.toThrow();
    expect(() => versions.check(model, row, versions.of(model, row))).not.toThrow();
    let thrown: unknown;
    try {
      versions.check(model, row, versions.of(model, { ...row, title: 'old' }));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(StaleAdminRecord);
    expect(thrown).toMatchObject({ code: 'precondition_failed', message: 'changed by someone else since you opened it', current: row, version: tags.of(model, row) });
  });

  it('differing columns: posted ones only, timestamps to the second as the form shows them', () => {
    expect(differingColumns(model, { title: 'T', at: new Date('2025-01-02T03:04:05Z'), meta: { a: 1 }, done: false }, row)).toEqual([]);
    expect(differingColumns(model, { title: 'U', at: new Date('2025-01-02T03:04:06Z'), done: true }, row)).toEqual(['title', 'at', 'done']);
    expect(differingColumns(model, { meta: null }, row)).toEqual(['meta']);
  });
});
