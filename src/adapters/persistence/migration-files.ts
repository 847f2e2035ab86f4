import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MigrationDef, MigrationOperation } from '../../domain/model/migration.js';
import { MigrationError } from '../../domain/model/schema-state.js';

/** A migration file's name: four digits, an underscore, a slug (`0002_post_pages.js`). */
const FILE = /^(\d{4})_([a-z0-9_]+)\.(m?js)$/;
const OPS = new Set(['createTable', 'dropTable', 'addColumn', 'dropColumn', 'renameColumn', 'alterColumn', 'alterUniqueTogether', 'sql', 'run']);

const folderOf = (dir: string | URL): string => (dir instanceof URL ? fileURLToPath(dir) : resolve(dir));

/** The migration files of a folder, in order (none when the folder does not exist yet). */
export function migrationFiles(dir: string | URL): { number: number; file: string }[] {
  const folder = folderOf(dir);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .map((name) => ({ name, match: FILE.exec(name) }))
    .filter((f) => f.match)
    .map((f) => ({ number: Number(f.match?.[1]), file: join(folder, f.name) }))
    .sort((a, b) => a.number - b.number || a.file.localeCompare(b.file));
}

function checkDef(def: unknown, file: string): MigrationDef {
  const d = def as Partial<MigrationDef> | undefined;
  if (!d || typeof d !== 'object' || typeof d.name !== 'string' || !/^[A-Za-z0-9_]+$/.test(d.name)) {
    throw new MigrationError(`${file}: the default export must be a migration { name, operations }`);
  }
  for (const [i, op] of (d.operations ?? []).entries()) {
    if (!op || typeof op !== 'object' || !OPS.has((op as { op?: string }).op ?? '')) throw new MigrationError(`${file}: operations[${i}] is not a migration operation`);
  }
  return d as MigrationDef;
}

/**
 * Loads a folder of migration files (`portico makemigrations` writes them), oldest first. Two
 * files with one name, or a file that is not a migration, is an error naming the file.
 */
export async function loadMigrationFolder(dir: string | URL): Promise<MigrationDef[]> {
  const out: MigrationDef[] = [];
  const names = new Set<string>();
  for (const { file } of migrationFiles(dir)) {
    const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
    const def = checkDef(mod.default, file);
    if (names.has(def.name)) throw new MigrationError(`${file}: a second migration named ${def.name}`);
    names.add(def.name);
    out.push(def);
  }
  return out;
}

/**
 * JavaScript source of a value, indented, with each object whose members are all plain values
 * (a column, a reference) on one line, so that a migration file reads one column per line.
 */
function jsSource(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  const line = oneLine(value);
  if (value === null || typeof value !== 'object' || (!Array.isArray(value) && isFlat(value) && line.length <= 120)) return line;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((v) => `${inner}${jsSource(v, inner)},`).join('\n')}\n${indent}]`;
  return `{\n${Object.entries(value).map(([k, v]) => `${inner}${key(k)}: ${jsSource(v, inner)},`).join('\n')}\n${indent}}`;
}

/** An object holding no array, at any depth (a column, its reference). */
const isFlat = (v: object): boolean => Object.values(v).every((m) => m === null || typeof m !== 'object' || (!Array.isArray(m) && isFlat(m as object)));

function oneLine(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  const entries = Object.entries(value);
  return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${key(k)}: ${oneLine(v)}`).join(', ')} }`;
}

const key = (k: string): string => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));

/** A slug for a new migration from what it does (`post_pages`, `create_loan`, `initial`). */
export function migrationSlug(ops: readonly MigrationOperation[], first: boolean): string {
  if (first) return 'initial';
  const parts = ops.slice(0, 2).map((op) => {
    switch (op.op) {
      case 'createTable':
        return `create_${op.table.table}`;
      case 'dropTable':
        return `drop_${op.table.table}`;
      case 'addColumn':
        return `${op.table}_${op.column.name}`;
      case 'dropColumn':
        return `remove_${op.table}_${op.column.name}`;
      case 'renameColumn':
        return `rename_${op.table}_${op.to}`;
      case 'alterColumn':
        return `alter_${op.table}_${op.to.name}`;
      default:
        return op.op === 'alterUniqueTogether' ? `${op.table}_unique` : 'change';
    }
  });
  return (ops.length > 2 ? [...parts, 'and_more'] : parts).join('_').slice(0, 60).replace(/_+$/, '');
}

/**
 * Writes the next migration file of a folder (creating it): `NNNN_<slug>.js`, an ES module whose
 * default export is `{ name: 'app_NNNN_<slug>', operations }`. Returns its path and name.
 */
export function writeMigrationFile(dir: string | URL, operations: readonly MigrationOperation[], slug?: string): { file: string; name: string } {
  const folder = folderOf(dir);
  const files = migrationFiles(folder);
  const number = (files.at(-1)?.number ?? 0) + 1;
  const base = `${String(number).padStart(4, '0')}_${(slug ?? migrationSlug(operations, files.length === 0)).replace(/[^a-z0-9_]/g, '_')}`;
  const name = `app_${base}`;
  const source = [
    '// Generated by `portico makemigrations`. Each operation has an up and a down for SQLite and',
    '// PostgreSQL. A data step runs in the migration\'s transaction:',
    "//   { op: 'run', up: async ({ execute }) => { await execute('update post set pages = ?', [0]); } }",
    "/** @type {import('portico').MigrationDef} */",
    `export default ${jsSource({ name, operations })};`,
    '',
  ].join('\n');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${base}.js`);
  writeFileSync(file, source, { flag: 'wx' });
  return { file, name };
}
