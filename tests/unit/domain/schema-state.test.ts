import { describe, expect, it } from 'vitest';
import { c, defineModel, ModelRegistry } from '../../../src/domain/model/index.js';
import type { MigrationDef, MigrationOperation } from '../../../src/domain/model/migration.js';
import {
  applyOperation,
  baselineFromDatabase,
  diffSchemas,
  MigrationError,
  registryState,
  renameCandidates,
  reverseOperation,
  schemaDrift,
  stateOf,
  type SchemaState,
} from '../../../src/domain/model/schema-state.js';

const v1 = ModelRegistry.build([
  defineModel('shelf', { id: c.id(), name: c.text() }),
  defineModel('book', { id: c.id(), shelf_id: c.fk('shelf'), title: c.text(), isbn: c.text().nullable() }),
]);
const v2 = ModelRegistry.build([
  defineModel('shelf', { id: c.id(), name: c.text() }),
  defineModel('book', { id: c.id(), shelf_id: c.fk('shelf'), title: c.text().unique(), code: c.text().nullable(), pages: c.int().default(0) }),
  defineModel('loan', { id: c.id(), book_id: c.fk('book'), due: c.date().nullable() }),
]);
const replay = (ops: readonly MigrationOperation[], from: SchemaState = new Map()) => ops.reduce(applyOperation, from);
const plain = (state: SchemaState) => JSON.parse(JSON.stringify([...state].sort(([a], [b]) => a.localeCompare(b)))) as unknown;

describe('diffSchemas', () => {
  it('creates every table of an empty schema, referenced tables first', () => {
    const ops = diffSchemas(new Map(), registryState(v1));
    expect(ops.map((op) => op.op === 'createTable' && op.table.table)).toEqual(['shelf', 'book']);
    expect(diffSchemas(registryState(v1), registryState(v1))).toEqual([]);
  });

  it('turns v1 into v2: a new table first, a declared rename, an added column with its default, an altered one, and replays to v2 exactly', () => {
    const ops = diffSchemas(registryState(v1), registryState(v2), [{ table: 'book', from: 'isbn', to: 'code' }]);
    expect(ops.map((op) => op.op)).toEqual(['createTable', 'renameColumn', 'alterColumn', 'addColumn']);
    expect(ops[3]).toEqual({ op: 'addColumn', table: 'book', column: { name: 'pages', type: 'int', nullable: false, default: 0 } });
    expect(plain(replay(ops, registryState(v1)))).toEqual(plain(registryState(v2)));
  });

  it('without the rename declared, drops isbn and adds code, and names it as a possible rename', () => {
    const ops = diffSchemas(registryState(v1), registryState(v2));
    expect(ops.filter((op) => op.op === 'dropColumn' || op.op === 'addColumn').map((op) => (op.op === 'dropColumn' || op.op === 'addColumn') && `${op.op} ${op.column.name}`)).toEqual(['addColumn code', 'addColumn pages', 'dropColumn isbn']);
    expect(renameCandidates(registryState(v1), registryState(v2))).toEqual([{ table: 'book', from: 'isbn', to: 'code' }]);
  });

  it('drops tables last, those that reference others first', () => {
    const ops = diffSchemas(registryState(v2), new Map());
    expect(ops.map((op) => op.op === 'dropTable' && op.table.table)).toEqual(['loan', 'book', 'shelf']);
  });

  it('refuses a NOT NULL column without a default, which existing rows could not hold', () => {
    const v3 = ModelRegistry.build([defineModel('shelf', { id: c.id(), name: c.text(), floor: c.int() })]);
    expect(() => diffSchemas(registryState(v1, new Set(['shelf'])), registryState(v3))).toThrow(/shelf\.floor is added NOT NULL without a default/);
  });
});

describe('reverseOperation', () => {
  it('undoes every generated operation: v2 reversed step by step is v1 again', () => {
    const ops = diffSchemas(registryState(v1), registryState(v2), [{ table: 'book', from: 'isbn', to: 'code' }]);
    const back = [...ops].reverse().map(reverseOperation);
    expect(plain(replay(back, registryState(v2)))).toEqual(plain(registryState(v1)));
  });

  it('refuses to reverse raw SQL or a data step without its down', () => {
    expect(() => reverseOperation({ op: 'sql', up: { sqlite: ['select 1'] } })).toThrow(MigrationError);
    expect(() => reverseOperation({ op: 'run', up: () => undefined })).toThrow(/cannot be reversed/);
  });
});

describe('stateOf', () => {
  it('replays generated migrations and reads createTables from the registry', () => {
    const defs: MigrationDef[] = [
      { name: 'app_0001_initial', createTables: ['shelf'] },
      { name: 'app_0002_book', operations: diffSchemas(registryState(v1, new Set(['shelf'])), registryState(v1)) },
    ];
    expect(plain(stateOf(defs, v1))).toEqual(plain(registryState(v1)));
  });

  it('names the migration whose operation does not fit the state', () => {
    expect(() => stateOf([{ name: 'app_0002_x', operations: [{ op: 'dropColumn', table: 'nope', column: { name: 'a', type: 'int', nullable: true } }] }], v1)).toThrow(
      'migration app_0002_x: dropColumn: table "nope" does not exist at this point of the migrations',
    );
  });
});

describe('schemaDrift', () => {
  const actual = (tables: Record<string, Record<string, boolean>>) =>
    new Map(Object.entries(tables).map(([t, cols]) => [t, { columns: new Map(Object.entries(cols).map(([n, nullable]) => [n, { nullable }])) }]));

  it('is empty when the database holds the models, whatever other tables it has', () => {
    expect(schemaDrift(registryState(v1), actual({ shelf: { id: false, name: false }, book: { id: false, shelf_id: false, title: false, isbn: true }, other: { x: true } }))).toEqual([]);
  });

  it('names each missing table, missing or extra column and nullability change', () => {
    expect(schemaDrift(registryState(v2), actual({ shelf: { id: false, name: true }, book: { id: false, shelf_id: false, title: false, isbn: true, code: true } }))).toEqual([
      'table shelf: column name is nullable in the database, NOT NULL in the model',
      'table book: column pages is missing',
      'table book: column isbn is in the database, not in the model',
      'table loan is missing',
    ]);
  });

  it('gives the baseline a database built from older models holds, so the next diff is exactly what it lacks', () => {
    const db = actual({ shelf: { id: false, name: true }, book: { id: false, shelf_id: false, title: false, isbn: true } });
    const baseline = baselineFromDatabase(registryState(v2), db);
    expect([...baseline.keys()]).toEqual(['shelf', 'book']);
    expect(baseline.get('book')?.columns.map((col) => col.name)).toEqual(['id', 'shelf_id', 'title', 'isbn']);
    expect(diffSchemas(baseline, registryState(v2)).map((op) => op.op)).toEqual(['createTable', 'alterColumn', 'addColumn', 'addColumn', 'dropColumn']);
    expect(diffSchemas(baseline, registryState(v2))[1]).toMatchObject({ op: 'alterColumn', table: 'shelf', to: { name: 'name', nullable: false } });
  });
});
