import { describe, expect, it } from 'vitest';
import { createTableSql, operationSql } from '../../../src/adapters/persistence/sql/ddl.js';
import { orderByReferences, registryState, tableStateOf } from '../../../src/domain/model/schema-state.js';
import { c, defineModel, ModelRegistry } from '../../../src/domain/model/index.js';

const registry = ModelRegistry.build([
  defineModel('post', { id: c.id(), author_id: c.fk('author'), title: c.text(), live: c.bool().default(true), at: c.timestamp().defaultNow() }),
  defineModel('author', { id: c.id(), email: c.text().uniqueIgnoreCase(), meta: c.json().default({ a: "it's" }) }),
]);

describe('createTableSql', () => {
  it('renders PostgreSQL types, defaults, foreign keys and case-insensitive unique indexes', () => {
    const [table, ...rest] = createTableSql(registry.require('author'), 'postgresql');
    expect(table).toContain('"id" serial primary key');
    expect(table).toContain(`"meta" jsonb not null default '{"a":"it''s"}'`);
    expect(rest).toContain('create unique index "author_email_ci_unique" on "author" (lower("email"))');
    const [post] = createTableSql(registry.require('post'), 'postgresql');
    expect(post).toContain('"author_id" integer not null references "author" ("id")');
    expect(post).toContain('"live" boolean not null default true');
    expect(post).toContain('"at" timestamptz not null');
    expect(post).not.toContain('default now');
  });

  it('renders SQLite types with integer booleans and autoincrement keys', () => {
    const [post] = createTableSql(registry.require('post'), 'sqlite');
    expect(post).toContain('"id" integer not null primary key autoincrement');
    expect(post).toContain('"live" integer not null default 1');
  });
});

describe('orderByReferences', () => {
  it('puts referenced tables first', () => {
    expect(orderByReferences([tableStateOf(registry.require('post')), tableStateOf(registry.require('author'))]).map((t) => t.table)).toEqual(['author', 'post']);
  });
});

describe('operationSql', () => {
  const state = registryState(registry);
  const pages = { name: 'pages', type: 'int', nullable: true } as const;

  it('adds a nullable column with ALTER TABLE on both dialects', () => {
    expect(operationSql({ op: 'addColumn', table: 'post', column: pages }, state, 'sqlite')).toEqual(['alter table "post" add column "pages" integer null']);
    expect(operationSql({ op: 'addColumn', table: 'post', column: pages }, state, 'postgresql')).toEqual(['alter table "post" add column "pages" integer null']);
  });

  it('rebuilds the SQLite table for what ALTER TABLE cannot do, keeping the rows of the columns both shapes have', () => {
    const title = tableStateOf(registry.require('post')).columns.find((col) => col.name === 'title');
    const steps = operationSql({ op: 'alterColumn', table: 'post', from: title!, to: { ...title!, nullable: true } }, state, 'sqlite');
    expect(steps[0]).toMatch(/^create table "portico_new_post" \(/);
    expect(steps[0]).toContain('"title" text null');
    expect(steps[1]).toBe('insert into "portico_new_post" ("id", "author_id", "title", "live", "at") select "id", "author_id", "title", "live", "at" from "post"');
    expect(steps.slice(2, 4)).toEqual(['drop table "post"', 'alter table "portico_new_post" rename to "post"']);
    expect(steps).toContain('create index "post_author_id_index" on "post" ("author_id")');
  });

  it('alters a PostgreSQL column in place: nullability, default, unique', () => {
    const title = tableStateOf(registry.require('post')).columns.find((col) => col.name === 'title')!;
    expect(operationSql({ op: 'alterColumn', table: 'post', from: title, to: { ...title, nullable: true, default: 'x', unique: true } }, state, 'postgresql')).toEqual([
      'alter table "post" alter column "title" drop not null',
      `alter table "post" alter column "title" set default 'x'`,
      'alter table "post" add constraint "post_title_key" unique ("title")',
    ]);
  });

  it('renames a foreign-key column with its constraint and index on PostgreSQL', () => {
    expect(operationSql({ op: 'renameColumn', table: 'post', from: 'author_id', to: 'writer_id' }, state, 'postgresql')).toEqual([
      'alter table "post" rename column "author_id" to "writer_id"',
      'alter table "post" rename constraint "post_author_id_fkey" to "post_writer_id_fkey"',
      'alter index if exists "post_author_id_index" rename to "post_writer_id_index"',
    ]);
  });

  it('refuses to change a primary key', () => {
    const id = tableStateOf(registry.require('post')).columns[0]!;
    expect(() => operationSql({ op: 'alterColumn', table: 'post', from: id, to: { ...id, type: 'text', pkKind: 'string' } }, state, 'sqlite')).toThrow(/primary key/);
  });
});
