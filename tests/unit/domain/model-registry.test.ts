import { describe, expect, it } from 'vitest';
import { c, defineModel, ModelDefinitionError, ModelRegistry } from '../../../src/domain/model/index.js';

describe('ModelRegistry.build', () => {
  const author = defineModel('author', { id: c.id(), name: c.text() });
  const tag = defineModel('tag', { id: c.stringId(), label: c.text() });
  const post = defineModel(
    'post',
    { id: c.id(), author_id: c.fk('author'), tag_id: c.fk('tag').nullable(), deleted_at: c.timestamp().nullable() },
    { manyToMany: { tags: { target: 'tag', through: 'post_tags' } } },
  );

  it('resolves foreign keys to the target key type and relation name', () => {
    const registry = ModelRegistry.build([author, tag, post]);
    const cols = registry.require('post').columns;
    expect(cols.find((x) => x.name === 'author_id')).toMatchObject({ type: 'int', references: { relation: 'author', table: 'author', column: 'id' } });
    expect(cols.find((x) => x.name === 'tag_id')).toMatchObject({ type: 'text', nullable: true, references: { relation: 'tag', table: 'tag' } });
  });

  it('detects soft delete from deleted_at and records the key kind', () => {
    const registry = ModelRegistry.build([author, tag, post]);
    expect(registry.require('post')).toMatchObject({ softDelete: true, primaryKey: 'id', pkKind: 'int-auto' });
    expect(registry.require('author').softDelete).toBe(false);
    expect(registry.require('tag').pkKind).toBe('string');
  });

  it('adds a junction table for each many-to-many relation', () => {
    const registry = ModelRegistry.build([author, tag, post]);
    const junction = registry.require('post_tags');
    expect(junction.columns.map((x) => x.name)).toEqual(['id', 'post_id', 'tag_id']);
    expect(junction.uniqueTogether).toEqual([['post_id', 'tag_id']]);
    expect(registry.require('post').manyToMany).toEqual([{ name: 'tags', target: 'tag', through: 'post_tags', sourceColumn: 'post_id', targetColumn: 'tag_id' }]);
  });

  it('lists reverse relations', () => {
    const registry = ModelRegistry.build([author, tag, post]);
    expect(registry.reverseRelations('author')).toEqual([{ table: 'post', column: 'author_id' }]);
  });

  it.each([
    ['a duplicate table', [author, author], /declared twice/],
    ['an unknown foreign key target', [defineModel('x', { id: c.id(), y_id: c.fk('nope') })], /unknown table "nope"/],
    ['a foreign key not ending in _id', [author, defineModel('x', { id: c.id(), writer: c.fk('author') })], /must end in _id/],
    ['no primary key', [defineModel('x', { name: c.text() })], /exactly one primary key/],
    ['two primary keys', [defineModel('x', { id: c.id(), other: c.stringId() })], /exactly one primary key/],
    ['an invalid table name', [defineModel('Bad-Name', { id: c.id() })], /invalid table name/],
    // @ts-expect-error: the type checker refuses it too; an untyped host gets the registry's error
    ['an unknown uniqueTogether column', [defineModel('x', { id: c.id() }, { uniqueTogether: [['nope']] })], /unknown column/],
  ])('refuses %s', (_what, decls, message) => {
    expect(() => ModelRegistry.build(decls)).toThrow(ModelDefinitionError);
    expect(() => ModelRegistry.build(decls)).toThrow(message);
  });

  it('reports unknown tables', () => {
    const registry = ModelRegistry.build([author]);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.has('author')).toBe(true);
    expect(() => registry.require('nope')).toThrow(/unknown table/);
  });
});
