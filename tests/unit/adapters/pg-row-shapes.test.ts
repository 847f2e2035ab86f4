import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RowShapes, type ShapeSlot } from '../../../src/adapters/persistence/sql/pg-row-shapes.js';
import { PG_URL, postgresAvailable } from '../../support/postgres.js';

const hasPg = await postgresAvailable();

/** Columns of many types, odd names, a NULL and a duplicate name: every case a result may hold. */
const STATEMENT = `select g as id, 'row ' || g as "we""ird name", (g % 2 = 0) as "even?", timestamptz '2026-01-02 03:04:05+00' + g * interval '1 day' as at, null::text as "nothing",
  array[g, g + 1] as pair, json_build_object('g', g) as doc, g * 10 as dup, g * 100 as dup, 12345678901234::bigint as big
  from generate_series(1, 3) g`;

describe.skipIf(!hasPg)('RowShapes on PostgreSQL', () => {
  const client = new pg.Client({ connectionString: PG_URL });
  beforeAll(() => client.connect());
  afterAll(() => client.end());

  it('builds from array rows exactly the rows node-pg builds as objects, for every statement shape', async () => {
    const shapes = new RowShapes();
    const objects = await client.query({ text: STATEMENT });
    const arrays = await client.query({ text: STATEMENT, rowMode: 'array' });
    const built = shapes.objects(arrays.rows, arrays.fields);
    expect(built).toEqual(objects.rows);
    expect(built.map((row) => Object.keys(row))).toEqual(objects.rows.map((row) => Object.keys(row)));
    expect(built[0]?.dup).toBe(100);
    // Another shape through the same RowShapes, and the first again.
    const other = await client.query({ text: 'select 1 as a', rowMode: 'array' });
    expect(shapes.objects(other.rows, other.fields)).toEqual([{ a: 1 }]);
    const again = await client.query({ text: STATEMENT, rowMode: 'array' });
    expect(shapes.objects(again.rows, again.fields)).toEqual(objects.rows);
  });

  it('finds a statement\'s builder from its slot, and builds anew when the slot\'s shape differs in a name or a count', async () => {
    const shapes = new RowShapes();
    const slot: ShapeSlot = {};
    const ab = await client.query({ text: 'select 1 as a, 2 as b', rowMode: 'array' });
    expect(shapes.objects(ab.rows, ab.fields, slot)).toEqual([{ a: 1, b: 2 }]);
    const kept = slot.shape;
    expect(kept?.names).toEqual(['a', 'b']);
    const again = await client.query({ text: 'select 3 as a, 4 as b', rowMode: 'array' });
    expect(shapes.objects(again.rows, again.fields, slot)).toEqual([{ a: 3, b: 4 }]);
    expect(slot.shape).toBe(kept);
    for (const [text, row] of [['select 1 as a, 2 as c', { a: 1, c: 2 }], ['select 1 as a', { a: 1 }], ['select 1 as a, 2 as b, 3 as c', { a: 1, b: 2, c: 3 }]] as const) {
      const other = await client.query({ text, rowMode: 'array' });
      expect(shapes.objects(other.rows, other.fields, slot)).toEqual([row]);
      expect(Object.keys(row)).toEqual(slot.shape?.names);
    }
  });

  it('answers no rows as none', async () => {
    const empty = await client.query({ text: 'select 1 as a where false', rowMode: 'array' });
    expect(new RowShapes().objects(empty.rows, empty.fields)).toEqual([]);
  });

  it('keeps at most its limit of builders and still builds the shapes past it', async () => {
    const shapes = new RowShapes(1);
    for (const name of ['a', 'b', 'c']) {
      const result = await client.query({ text: `select 1 as ${name}`, rowMode: 'array' });
      expect(shapes.objects(result.rows, result.fields)).toEqual([{ [name]: 1 }]);
    }
    expect((shapes as unknown as { builders: Map<string, unknown> }).builders.size).toBe(1);
  });
});
