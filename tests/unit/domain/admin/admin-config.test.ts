import { describe, expect, it } from 'vitest';
import { adminPolicy, adminTables, filterColumns, listColumns, searchColumns } from '../../../../src/domain/admin/admin-config.js';
import { BUILTIN_MODELS } from '../../../../src/domain/model/builtin-tables.js';
import { c } from '../../../../src/domain/model/column.js';
import { defineModel } from '../../../../src/domain/model/define-model.js';
import { ModelRegistry } from '../../../../src/domain/model/model-registry.js';

const registry = ModelRegistry.build([
  ...BUILTIN_MODELS,
  defineModel('author', { id: c.id(), name: c.text() }),
  defineModel(
    'post',
    { id: c.id(), title: c.text(), body: c.text().nullable(), author_id: c.fk('author'), published: c.bool().default(false), featured: c.bool().privileged(), secret: c.text().hidden(), created_by_id: c.fk('auth_user').nullable(), deleted_at: c.timestamp().nullable() },
    { manyToMany: { tags: { target: 'tag', through: 'post_tags' } }, setOnCreate: { created_by_id: (who) => who.id } },
  ),
  defineModel('tag', { id: c.stringId(), label: c.text() }),
]);

describe('adminTables', () => {
  it('manages the app tables and auth_user, never Portico internals or junctions', () => {
    expect(adminTables(registry).map((m) => m.table).sort()).toEqual(['auth_user', 'author', 'post', 'tag']);
    expect(adminTables(registry, new Set(['tag'])).map((m) => m.table)).not.toContain('tag');
  });
});

describe('adminPolicy', () => {
  const post = registry.require('post');
  it('never reads password_hash or hidden columns; the admin hide list adds to them', () => {
    const user = adminPolicy(registry.require('auth_user'), {}, true);
    expect(user.readable('password_hash')).toBe(false);
    expect(user.readable('email')).toBe(true);
    const p = adminPolicy(post, { hidden: ['body'] }, true);
    expect(p.readable('secret')).toBe(false);
    expect(p.readable('body')).toBe(false);
  });

  it('privileged columns are refused from staff, editable by a superuser', () => {
    expect(adminPolicy(post, {}, false).privileged('featured')).toBe(true);
    expect(adminPolicy(post, {}, false).editable('featured')).toBe(false);
    expect(adminPolicy(registry.require('auth_user'), {}, false).privileged('is_superuser')).toBe(true);
    expect(adminPolicy(post, {}, true).privileged('featured')).toBe(false);
    expect(adminPolicy(post, {}, true).editable('featured')).toBe(true);
  });

  it('keys, server-set columns, deleted_at and read-only fields are not editable; a string key is typed on add', () => {
    const p = adminPolicy(post, { readonlyFields: ['title'] }, true);
    for (const col of ['id', 'created_by_id', 'deleted_at', 'title']) expect(p.editable(col)).toBe(false);
    expect(adminPolicy(registry.require('tag'), {}, true, true).editable('id')).toBe(true);
    expect(adminPolicy(registry.require('tag'), {}, true, false).editable('id')).toBe(false);
  });
});

describe('list defaults', () => {
  const post = registry.require('post');
  const policy = adminPolicy(post, {}, true);
  it('shows the first four visible columns unless configured', () => {
    expect(listColumns(post, {}, policy)).toEqual(['id', 'title', 'body', 'author_id']);
    expect(listColumns(post, { listDisplay: ['title', 'secret', 'published'] }, policy)).toEqual(['title', 'published']);
  });
  it('filters booleans, foreign keys and dates; searches visible text columns', () => {
    expect(filterColumns(post, {}, policy).map((col) => col.name)).toEqual(['author_id', 'published', 'featured', 'created_by_id']);
    expect(searchColumns(post, {}, policy)).toEqual(['title', 'body']);
    expect(searchColumns(post, { searchFields: ['title', 'secret'] }, policy)).toEqual(['title']);
  });
});
