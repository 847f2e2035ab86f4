import { describe, expect, it } from 'vitest';
import { createTableSql, orderByDependencies } from '../../../src/adapters/persistence/sql/ddl.js';
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

describe('orderByDependencies', () => {
  it('puts referenced tables first', () => {
    expect(orderByDependencies([registry.require('post'), registry.require('author')]).map((m) => m.table)).toEqual(['author', 'post']);
  });
});
