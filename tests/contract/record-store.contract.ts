import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConstraintViolation, DomainError } from '../../src/domain/errors/domain-error.js';
import type { RecordStore } from '../../src/ports/record-store.js';

/** Rows in these tests are read loosely: the assertions check the values. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TestRow = Record<string, any>;
import type { SignalEvent } from '../../src/ports/event-bus.js';
import { openTestDatabase, type Backend, type TestDatabase } from '../support/open-test-database.js';

/**
 * The RecordStore contract, written once and run against every adapter (STYLE guideline 8).
 * Case ids are stable: RS-<area>-<n>; every case here is a MUST.
 */
export function recordStoreContract(backend: Backend): void {
  let t: TestDatabase;
  let store: RecordStore;
  const ins = (table: string, row: TestRow): Promise<TestRow> => store.insert(table, row);
  const insMany = (table: string, rows: TestRow[]): Promise<TestRow[]> => store.insertMany(table, rows);

  beforeEach(async () => {
    t = await openTestDatabase(backend);
    store = t.db.store;
  });
  afterEach(async () => {
    await t.close();
  });

  const writer = (name = 'Ada', extra: Record<string, unknown> = {}) => ins('writer', { name, ...extra });
  const expectViolation = async (p: Promise<unknown>, kind: string, column?: string) => {
    const error = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConstraintViolation);
    expect((error as ConstraintViolation).kind).toBe(kind);
    if (column !== undefined) expect((error as ConstraintViolation).column).toBe(column);
  };

  describe('RS-insert', () => {
    it('RS-insert-1 returns the stored row with a generated integer key and every default', async () => {
      const w = await writer();
      const a = await ins('article', { title: 'T', writer_id: w.id });
      expect(typeof w.id).toBe('number');
      expect(a).toEqual({
        id: a.id,
        title: 'T',
        writer_id: w.id,
        score: 0,
        published: false,
        rating: null,
        big: null,
        price: null,
        day: null,
        meta: null,
        created_at: t.clock.now(),
        deleted_at: null,
      });
    });

    it('RS-insert-2 supports string keys and generated UUID keys', async () => {
      const label = await ins('label', { id: 'orm', text: 'ORM' });
      expect(label).toEqual({ id: 'orm', text: 'ORM' });
      const v = await ins('voucher', { code: 'X' });
      expect(v.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(await store.getById('voucher', v.id)).toEqual(v);
    });

    it('RS-insert-3 round-trips every column type', async () => {
      const w = await writer();
      const when = new Date('2025-05-06T07:08:09.123Z');
      const a = await ins('article', {
        title: 'types',
        writer_id: w.id,
        score: -7,
        published: true,
        rating: 4.25,
        big: '9007199254740991',
        price: '12.50',
        day: '2024-02-29',
        meta: { tags: ['a', 'b'], n: 1, nested: { ok: true } },
        created_at: when,
      });
      const back = await store.getById('article', a.id);
      expect(back).toEqual(a);
      expect(back?.created_at).toEqual(when);
      expect(back?.big).toBe('9007199254740991');
      expect(Number(back?.price)).toBe(12.5);
      expect(back?.day).toBe('2024-02-29');
      expect(back?.meta).toEqual({ tags: ['a', 'b'], n: 1, nested: { ok: true } });
    });

    it('RS-insert-4 insertMany returns rows in order and is all-or-nothing', async () => {
      const rows = await insMany('writer', [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
      expect(rows.map((r) => r.name)).toEqual(['a', 'b', 'c']);
      await expectViolation(insMany('writer', [{ name: 'd' }, { name: null }]), 'not_null', 'name');
      expect(await store.count('writer')).toBe(3);
    });

    it('RS-insert-5 rejects unknown columns and ill-typed values with invalid_input naming the field', async () => {
      await expect(ins('writer', { name: 'x', nope: 1 })).rejects.toMatchObject({ code: 'invalid_input', errors: [{ field: 'nope' }] });
      await expect(ins('writer', { name: 5 })).rejects.toMatchObject({ code: 'invalid_input', errors: [{ field: 'name' }] });
      await expect(insMany('writer', [{ name: 'ok' }, { name: true }])).rejects.toMatchObject({
        errors: [{ field: 'name', index: 1 }],
      });
      expect(await store.count('writer')).toBe(0);
    });
  });

  describe('RS-insert-keys', () => {
    it('RS-insert-6 an explicit integer key moves the sequence past it', async () => {
      await ins('writer', { id: 10, name: 'explicit' });
      const next = await writer('generated');
      expect(next.id).toBe(11);
      await expectViolation(ins('writer', { id: 10, name: 'again' }), 'unique');
    });
  });

  describe('RS-read', () => {
    it('RS-read-1 getById finds a row and answers null for a missing or uncoercible id', async () => {
      const w = await writer();
      expect(await store.getById('writer', w.id)).toEqual(w);
      expect(await store.getById('writer', 999_999)).toBeNull();
      expect(await store.getById('writer', 'abc')).toBeNull();
      expect(await store.getById('voucher', 'not-a-uuid')).toBeNull();
    });

    it('RS-read-2 getManyByIds returns the existing rows and skips missing ids', async () => {
      const [a, b] = await insMany('writer', [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
      const found = await store.getManyByIds('writer', [b?.id ?? 0, a?.id ?? 0, 424242, b?.id ?? 0]);
      expect(found.map((r) => r.name).sort()).toEqual(['a', 'b']);
      expect(await store.getManyByIds('writer', [])).toEqual([]);
    });

    it('RS-read-3 find filters with every operator', async () => {
      await insMany('writer', [
        { name: 'Ada', bio: 'math' },
        { name: 'alan', bio: null },
        { name: 'Grace', bio: 'Navy' },
      ]);
      const names = async (where: Parameters<RecordStore['find']>[1]) => (await store.find('writer', where)).map((r) => r.name);
      expect(await names({ where: { column: 'name', op: 'eq', value: 'Ada' } })).toEqual(['Ada']);
      expect(await names({ where: { column: 'bio', op: 'ne', value: 'math' } })).toEqual(['Grace']);
      expect(await names({ where: { column: 'id', op: 'gt', value: 1 } })).toEqual(['alan', 'Grace']);
      expect(await names({ where: { column: 'id', op: 'gte', value: 2 } })).toEqual(['alan', 'Grace']);
      expect(await names({ where: { column: 'id', op: 'lt', value: 2 } })).toEqual(['Ada']);
      expect(await names({ where: { column: 'id', op: 'lte', value: 2 } })).toEqual(['Ada', 'alan']);
      expect(await names({ where: { column: 'id', op: 'in', value: [1, 3] } })).toEqual(['Ada', 'Grace']);
      expect(await names({ where: { column: 'id', op: 'in', value: [] } })).toEqual([]);
      expect(await names({ where: { column: 'name', op: 'contains', value: 'a' } })).toEqual(['Ada', 'alan', 'Grace']);
      expect(await names({ where: { column: 'name', op: 'contains', value: 'A' } })).toEqual(['Ada']);
      expect(await names({ where: { column: 'name', op: 'icontains', value: 'A' } })).toEqual(['Ada', 'alan', 'Grace']);
      expect(await names({ where: { column: 'name', op: 'startswith', value: 'a' } })).toEqual(['alan']);
      expect(await names({ where: { column: 'name', op: 'iexact', value: 'ADA' } })).toEqual(['Ada']);
      expect(await names({ where: { column: 'name', op: 'contains', value: '%' } })).toEqual([]);
      expect(await names({ where: { column: 'bio', op: 'isnull', value: true } })).toEqual(['alan']);
      expect(await names({ where: { column: 'bio', op: 'isnull', value: false } })).toEqual(['Ada', 'Grace']);
      expect(
        await names({ where: { any: [{ column: 'name', op: 'eq', value: 'Ada' }, { column: 'name', op: 'eq', value: 'Grace' }] } }),
      ).toEqual(['Ada', 'Grace']);
      expect(
        await names({ where: { all: [{ column: 'name', op: 'icontains', value: 'a' }, { not: { column: 'name', op: 'eq', value: 'Ada' } }] } }),
      ).toEqual(['alan', 'Grace']);
      // SQL null logic: NOT (bio = 'math') does not select the row whose bio is null.
      expect(await names({ where: { not: { column: 'bio', op: 'eq', value: 'math' } } })).toEqual(['Grace']);
    });

    it('RS-read-4 find orders (nulls last ascending, first descending), defaults to key order, and pages', async () => {
      await insMany('writer', [
        { name: 'b', bio: 'y' },
        { name: 'a', bio: null },
        { name: 'c', bio: 'x' },
      ]);
      const names = async (q: Parameters<RecordStore['find']>[1]) => (await store.find('writer', q)).map((r) => r.name);
      expect(await names({})).toEqual(['b', 'a', 'c']);
      expect(await names({ orderBy: [{ column: 'name', direction: 'asc' }] })).toEqual(['a', 'b', 'c']);
      expect(await names({ orderBy: [{ column: 'bio', direction: 'asc' }] })).toEqual(['c', 'b', 'a']);
      expect(await names({ orderBy: [{ column: 'bio', direction: 'desc' }] })).toEqual(['a', 'b', 'c']);
      expect(await names({ orderBy: [{ column: 'name', direction: 'desc' }], limit: 2 })).toEqual(['c', 'b']);
      expect(await names({ orderBy: [{ column: 'name', direction: 'asc' }], limit: 2, offset: 1 })).toEqual(['b', 'c']);
      expect(await names({ offset: 2 })).toEqual(['c']);
    });

    it('RS-read-5 count honours the condition', async () => {
      await insMany('writer', [{ name: 'a' }, { name: 'b', bio: 'x' }]);
      expect(await store.count('writer')).toBe(2);
      expect(await store.count('writer', { column: 'bio', op: 'isnull', value: true })).toBe(1);
    });

    it('RS-read-6 rejects unknown columns, text operators on non-text columns and ill-typed filter values', async () => {
      await expect(store.find('writer', { where: { column: 'nope', op: 'eq', value: 1 } })).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(store.find('writer', { orderBy: [{ column: 'nope', direction: 'asc' }] })).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(store.find('writer', { where: { column: 'id', op: 'contains', value: '1' } })).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(store.count('writer', { column: 'id', op: 'eq', value: 'x' })).rejects.toMatchObject({ code: 'invalid_input' });
    });
  });

  describe('RS-in', () => {
    it('RS-in-1 matches a list of values of every column type, text with quotes, commas, braces and backslashes included', async () => {
      const w = await writer();
      const odd = ['a,b', '{c}', 'd"e', 'f\\g', "h'i", 'NULL', ' ', 'ü€😀'];
      const rows = await insMany(
        'article',
        odd.map((title, i) => ({ title, writer_id: w.id, score: i, rating: i + 0.5, big: String(2 ** 40 + i), price: `${i}.25`, day: `2026-01-0${i + 1}`, published: i % 2 === 0, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) })),
      );
      const titles = async (column: string, value: unknown[]) =>
        (await store.find('article', { where: { column, op: 'in', value: value as never }, orderBy: [{ column: 'id', direction: 'asc' }] })).map((r) => r.title);
      expect(await titles('title', odd)).toEqual(odd);
      expect(await titles('title', ['{c}', 'f\\g', 'NULL', 'nope'])).toEqual(['{c}', 'f\\g', 'NULL']);
      expect(await titles('score', [1, 3, 99])).toEqual([odd[1], odd[3]]);
      expect(await titles('rating', [2.5])).toEqual([odd[2]]);
      expect(await titles('big', [String(2 ** 40 + 4)])).toEqual([odd[4]]);
      expect(await titles('price', ['5.25'])).toEqual([odd[5]]);
      expect(await titles('day', ['2026-01-07'])).toEqual([odd[6]]);
      expect(await titles('published', [false])).toEqual([odd[1], odd[3], odd[5], odd[7]]);
      expect(await titles('created_at', [rows[7]?.created_at, rows[0]?.created_at])).toEqual([odd[0], odd[7]]);
      expect(await titles('id', rows.map((r) => r.id).slice(2, 4))).toEqual(odd.slice(2, 4));
      expect(await store.count('article', { column: 'title', op: 'in', value: odd.slice(0, 5) })).toBe(5);
    });
  });

  describe('RS-columns', () => {
    it('RS-columns-1 reads only the columns asked for, with the primary key, through find, getById and getManyByIds', async () => {
      const w = await writer();
      const a = await ins('article', { title: 'T', writer_id: w.id, score: 3 });
      const b = await ins('article', { title: 'U', writer_id: w.id, score: 4 });
      expect(await store.find('article', { columns: ['title', 'created_at'], orderBy: [{ column: 'id', direction: 'asc' }] })).toEqual([
        { id: a.id, title: 'T', created_at: a.created_at },
        { id: b.id, title: 'U', created_at: b.created_at },
      ]);
      expect(await store.find('article', { columns: ['writer_id'], where: { column: 'score', op: 'gt', value: 3 } })).toEqual([{ id: b.id, writer_id: w.id }]);
      expect(await store.getById('article', a.id, { columns: ['score'] })).toEqual({ id: a.id, score: 3 });
      expect(await store.getManyByIds('article', [b.id], { columns: ['id', 'title'] })).toEqual([{ id: b.id, title: 'U' }]);
      // The filters, order and live-row rule still see every column.
      await store.delete('article', a.id);
      expect(await store.find('article', { columns: ['title'] })).toEqual([{ id: b.id, title: 'U' }]);
      expect(await store.find('article', { columns: ['title'], withDeleted: true, orderBy: [{ column: 'score', direction: 'desc' }] })).toEqual([
        { id: b.id, title: 'U' },
        { id: a.id, title: 'T' },
      ]);
    });

    it('RS-columns-2 keeps the per-group cut and refuses an unknown column', async () => {
      const [x, y] = await insMany('writer', [{ name: 'x' }, { name: 'y' }]);
      await insMany('article', [
        { id: 1, title: 'x1', writer_id: x?.id },
        { id: 2, title: 'y1', writer_id: y?.id },
        { id: 3, title: 'x2', writer_id: x?.id },
      ]);
      expect(await store.find('article', { columns: ['writer_id', 'title'], perGroup: { column: 'writer_id', limit: 1 } })).toEqual([
        { id: 1, writer_id: x?.id, title: 'x1' },
        { id: 2, writer_id: y?.id, title: 'y1' },
      ]);
      // withoutKey: exactly the columns named, the key only when named; the cut and the order still use it.
      expect(await store.find('article', { columns: ['title', 'writer_id'], withoutKey: true, perGroup: { column: 'writer_id', limit: 1 } })).toEqual([
        { writer_id: x?.id, title: 'x1' },
        { writer_id: y?.id, title: 'y1' },
      ]);
      expect(await store.find('article', { columns: ['title'], withoutKey: true, orderBy: [{ column: 'id', direction: 'desc' }], limit: 2 })).toEqual([{ title: 'x2' }, { title: 'y1' }]);
      expect(await store.find('article', { columns: ['id', 'title'], withoutKey: true, where: { column: 'id', op: 'eq', value: 3 } })).toEqual([{ id: 3, title: 'x2' }]);
      expect(await store.find('article', { columns: [], withoutKey: true, where: { column: 'id', op: 'eq', value: 3 } })).toEqual([{ id: 3 }]);
      await expect(store.find('article', { columns: ['nope'] })).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(store.getById('article', 1, { columns: ['password'] })).rejects.toMatchObject({ code: 'invalid_input' });
    });
  });

  describe('RS-pergroup', () => {
    /** Titles of a find on article, in result order. */
    const titles = async (q: Parameters<RecordStore['find']>[1]) => (await store.find('article', q)).map((r) => r.title);
    const byWriter = (limit: number) => ({ column: 'writer_id', limit });

    it('RS-pergroup-1 keeps at most N rows per group (larger, smaller and empty groups), then pages the whole result', async () => {
      const [a, b] = await insMany('writer', [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
      await insMany('article', [
        { title: 'a1', writer_id: a?.id },
        { title: 'b1', writer_id: b?.id },
        { title: 'a2', writer_id: a?.id },
        { title: 'a3', writer_id: a?.id },
        { title: 'a4', writer_id: a?.id },
      ]);
      expect(await titles({ perGroup: byWriter(2) })).toEqual(['a1', 'b1', 'a2']);
      expect(await titles({ perGroup: byWriter(10) })).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
      expect(await titles({ perGroup: byWriter(1.9) })).toEqual(['a1', 'b1']);
      // limit and offset apply to the whole result, after the per-group cut.
      expect(await titles({ perGroup: byWriter(2), limit: 2 })).toEqual(['a1', 'b1']);
      expect(await titles({ perGroup: byWriter(2), limit: 5, offset: 1 })).toEqual(['b1', 'a2']);
    });

    it('RS-pergroup-2 takes each group in the query order, ties broken by primary key', async () => {
      const [a, b] = await insMany('writer', [{ name: 'a' }, { name: 'b' }]);
      // Keys inserted out of order, so storage order is not key order.
      await insMany('article', [
        { id: 30, title: 'a30', writer_id: a?.id, score: 5, rating: 1 },
        { id: 20, title: 'a20', writer_id: a?.id, score: 9, rating: null },
        { id: 10, title: 'a10', writer_id: a?.id, score: 5, rating: 2 },
        { id: 25, title: 'b25', writer_id: b?.id, score: 1, rating: null },
        { id: 15, title: 'b15', writer_id: b?.id, score: 7, rating: 3 },
      ]);
      const desc = (column: string) => ({ column, direction: 'desc' as const });
      const asc = (column: string) => ({ column, direction: 'asc' as const });
      expect(await titles({ orderBy: [desc('score')], perGroup: byWriter(2) })).toEqual(['a20', 'b15', 'a10', 'b25']);
      expect(await titles({ orderBy: [desc('score'), desc('id')], perGroup: byWriter(2) })).toEqual(['a20', 'b15', 'a30', 'b25']);
      expect(await titles({ orderBy: [desc('score')], perGroup: byWriter(1) })).toEqual(['a20', 'b15']);
      expect(await titles({ perGroup: byWriter(1) })).toEqual(['a10', 'b15']);
      // Null placement is the one of find: nulls last ascending, first descending.
      expect(await titles({ orderBy: [asc('rating')], perGroup: byWriter(1) })).toEqual(['a30', 'b15']);
      expect(await titles({ orderBy: [desc('rating')], perGroup: byWriter(1) })).toEqual(['a20', 'b25']);
    });

    it('RS-pergroup-3 a limit of 0 (or less) yields nothing', async () => {
      const w = await writer();
      await insMany('article', [{ title: 'x', writer_id: w.id }, { title: 'y', writer_id: w.id }]);
      expect(await store.find('article', { perGroup: byWriter(0) })).toEqual([]);
      expect(await store.find('article', { perGroup: byWriter(-3) })).toEqual([]);
    });

    it('RS-pergroup-4 soft-deleted rows are excluded and do not use up a group\'s quota', async () => {
      const w = await writer();
      const [gone] = await insMany('article', [
        { title: 'gone', writer_id: w.id },
        { title: 'live1', writer_id: w.id },
        { title: 'live2', writer_id: w.id },
      ]);
      await store.delete('article', gone?.id);
      expect(await titles({ perGroup: byWriter(1) })).toEqual(['live1']);
      expect(await titles({ perGroup: byWriter(2) })).toEqual(['live1', 'live2']);
      expect(await titles({ perGroup: byWriter(1), withDeleted: true })).toEqual(['gone']);
    });

    it('RS-pergroup-5 rejects an unknown group column with invalid_input', async () => {
      await expect(store.find('article', { perGroup: { column: 'nope', limit: 1 } })).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(store.find('article', { perGroup: { column: 'nope', limit: 1 } })).rejects.toBeInstanceOf(DomainError);
    });

    it('RS-pergroup-6 combines with a where condition, e.g. `in` on the group column (one batch of parents)', async () => {
      const [a, b, c] = await insMany('writer', [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
      await insMany('article', [
        { title: 'a1', writer_id: a?.id },
        { title: 'b1', writer_id: b?.id },
        { title: 'c1', writer_id: c?.id, published: true },
        { title: 'a2', writer_id: a?.id, published: true },
        { title: 'c2', writer_id: c?.id },
        { title: 'a3', writer_id: a?.id, published: true },
      ]);
      const batch = { column: 'writer_id', op: 'in' as const, value: [a?.id, c?.id] };
      expect(await titles({ where: batch, perGroup: byWriter(1) })).toEqual(['a1', 'c1']);
      expect(await titles({ where: batch, perGroup: byWriter(2) })).toEqual(['a1', 'c1', 'a2', 'c2']);
      // The condition filters before the per-group cut.
      const published = { all: [batch, { column: 'published', op: 'eq' as const, value: true }] };
      expect(await titles({ where: published, perGroup: byWriter(1) })).toEqual(['c1', 'a2']);
      expect(await titles({ where: { column: 'writer_id', op: 'in', value: [] }, perGroup: byWriter(1) })).toEqual([]);
    });

    it('RS-pergroup-7 null values of the group column form one group', async () => {
      const w = await writer();
      await insMany('article', [
        { title: 'n1', writer_id: w.id, rating: null },
        { title: 'r1', writer_id: w.id, rating: 1.5 },
        { title: 'n2', writer_id: w.id, rating: null },
        { title: 'r2', writer_id: w.id, rating: 1.5 },
        { title: 's1', writer_id: w.id, rating: 2 },
      ]);
      expect(await titles({ perGroup: { column: 'rating', limit: 1 } })).toEqual(['n1', 'r1', 's1']);
    });
  });

  describe('RS-write', () => {
    it('RS-write-1 update changes the row, keeps the key and answers null for a missing row', async () => {
      const w = await writer();
      const u = await store.update('writer', w.id, { bio: 'new', id: 777 });
      expect(u).toEqual({ ...w, bio: 'new' });
      expect(await store.getById('writer', w.id)).toEqual(u);
      expect(await store.update('writer', 424242, { bio: 'x' })).toBeNull();
    });

    it('RS-write-4 updateWhere changes the matching live rows only and returns them', async () => {
      await insMany('writer', [{ name: 'a', bio: 'x' }, { name: 'b', bio: 'x' }, { name: 'c', bio: 'y' }]);
      const changed = await store.updateWhere('writer', { column: 'bio', op: 'eq', value: 'x' }, { bio: 'z' });
      expect(changed.map((r) => r.name).sort()).toEqual(['a', 'b']);
      expect(changed.every((r) => r.bio === 'z')).toBe(true);
      expect(await store.count('writer', { column: 'bio', op: 'eq', value: 'z' })).toBe(2);
      expect(await store.updateWhere('writer', { column: 'bio', op: 'eq', value: 'nope' }, { bio: 'q' })).toEqual([]);
    });

    it('RS-write-5 updateWhere is a compare-and-set: of concurrent claims on one row exactly one wins', async () => {
      const w = await writer('claim');
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.updateWhere('writer', { all: [{ column: 'id', op: 'eq', value: w.id }, { column: 'bio', op: 'isnull', value: true }] }, { bio: `winner-${i}` }),
        ),
      );
      expect(claims.filter((c) => c.length === 1)).toHaveLength(1);
      expect(claims.filter((c) => c.length === 0)).toHaveLength(7);
    });

    it('RS-write-6 updateWhere skips soft-deleted rows and fires save signals per row', async () => {
      const w = await writer();
      const a = await ins('article', { title: 'live', writer_id: w.id });
      const gone = await ins('article', { title: 'gone', writer_id: w.id });
      await store.delete('article', gone.id);
      const seen: string[] = [];
      t.events.on('post_save', 'article', (e) => void seen.push(String(e.row.title)));
      const changed = await store.updateWhere('article', { column: 'writer_id', op: 'eq', value: w.id }, { score: 5 });
      expect(changed.map((r) => r.id)).toEqual([a.id]);
      expect(seen).toEqual(['live']);
    });

    it('RS-write-2 delete removes the row and answers false when there is none', async () => {
      const w = await writer();
      expect(await store.delete('writer', w.id)).toBe(true);
      expect(await store.getById('writer', w.id)).toBeNull();
      expect(await store.delete('writer', w.id)).toBe(false);
    });

    it('RS-write-3 soft delete stamps deleted_at and hides the row from live reads', async () => {
      const w = await writer();
      const a = await ins('article', { title: 'T', writer_id: w.id });
      t.clock.advance(1000);
      expect(await store.delete('article', a.id)).toBe(true);
      expect(await store.getById('article', a.id)).toBeNull();
      expect(await store.find('article')).toEqual([]);
      expect(await store.count('article')).toBe(0);
      expect(await store.getManyByIds('article', [a.id])).toEqual([]);
      const kept = await store.getById('article', a.id, { withDeleted: true });
      expect(kept?.deleted_at).toEqual(t.clock.now());
      expect(await store.count('article', undefined, { withDeleted: true })).toBe(1);
      expect(await store.delete('article', a.id)).toBe(false);
      expect(await store.update('article', a.id, { title: 'x' })).toBeNull();
    });

    it('RS-write-7 restore clears deleted_at of a soft-deleted row only', async () => {
      const w = await writer();
      const a = await ins('article', { title: 'T', writer_id: w.id });
      expect(await store.restore('article', a.id)).toBeNull();
      await store.delete('article', a.id);
      expect(await store.restore('article', a.id)).toMatchObject({ id: a.id, deleted_at: null });
      expect(await store.getById('article', a.id)).toMatchObject({ title: 'T' });
      expect(await store.restore('writer', w.id)).toBeNull();
      expect(await store.restore('article', 'not-a-key')).toBeNull();
    });
  });

  describe('RS-integrity', () => {
    it('RS-integrity-1 unique violations name the column', async () => {
      await writer('a', { email: 'a@x.io' });
      await expectViolation(writer('b', { email: 'a@x.io' }), 'unique', 'email');
      await ins('label', { id: 'orm', text: 'x' });
      await expectViolation(ins('label', { id: 'orm', text: 'y' }), 'unique');
    });

    it('RS-integrity-2 case-insensitive unique columns refuse a value differing only by case', async () => {
      await ins('auth_user', { username: 'Alice', email: 'alice@example.com' });
      await expectViolation(ins('auth_user', { username: 'alice', email: 'other@example.com' }), 'unique', 'username');
      await expectViolation(ins('auth_user', { username: 'bob', email: 'ALICE@example.com' }), 'unique', 'email');
    });

    it('RS-integrity-3 NOT NULL violations name the column', async () => {
      await expectViolation(ins('writer', { name: null }), 'not_null', 'name');
      await expectViolation(ins('writer', {}), 'not_null', 'name');
      const w = await writer();
      await expectViolation(store.update('writer', w.id, { name: null }), 'not_null', 'name');
    });

    it('RS-integrity-4 foreign keys must point at an existing row; a referenced row cannot be deleted', async () => {
      await expectViolation(ins('article', { title: 'T', writer_id: 4242 }), 'foreign_key');
      const w = await writer();
      await ins('article', { title: 'T', writer_id: w.id });
      await expectViolation(store.delete('writer', w.id), 'still_referenced');
      expect(await store.getById('writer', w.id)).toEqual(w);
    });

    it('RS-integrity-5 junction rows are unique per pair', async () => {
      const w = await writer();
      const a = await ins('article', { title: 'T', writer_id: w.id });
      await ins('label', { id: 'orm', text: 'x' });
      await ins('article_labels', { article_id: a.id, label_id: 'orm' });
      await expectViolation(ins('article_labels', { article_id: a.id, label_id: 'orm' }), 'unique');
    });

    it('RS-integrity-5b a row\'s many-to-many links go with it, on either side; nothing else does', async () => {
      const w = await writer();
      const a = await ins('article', { title: 'A', writer_id: w.id });
      const b = await ins('article', { title: 'B', writer_id: w.id });
      await ins('label', { id: 'orm', text: 'x' });
      await ins('label', { id: 'rest', text: 'y' });
      for (const [article, label] of [[a.id, 'orm'], [a.id, 'rest'], [b.id, 'orm']] as const) await ins('article_labels', { article_id: article, label_id: label });
      const pairs = async () => (await store.find('article_labels', { orderBy: [{ column: 'id', direction: 'asc' }] })).map((l) => [l.article_id, l.label_id]);
      expect(await store.delete('article', a.id)).toBe(true); // article is soft-deleted: the row, and so its links, stay
      expect(await pairs()).toEqual([[a.id, 'orm'], [a.id, 'rest'], [b.id, 'orm']]);
      expect(await store.delete('label', 'orm')).toBe(true); // a hard delete takes the links on its side with it
      expect(await pairs()).toEqual([[a.id, 'rest']]);
      expect(await store.getById('label', 'rest')).not.toBeNull();
      await expectViolation(store.delete('writer', w.id), 'still_referenced'); // an ordinary reference still restricts
    });

    it('RS-integrity-6 violations are domain errors with stable codes, never driver errors', async () => {
      const error = await writer('x', { name: null }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('not_null_violation');
      expect((error as DomainError).message).not.toMatch(/SQLITE|constraint failed|violates/i);
    });
  });

  describe('RS-tx', () => {
    it('RS-tx-1 commits every write of the transaction', async () => {
      await store.transaction(async (tx) => {
        await tx.insert('writer', { name: 'a' });
        await tx.insert('writer', { name: 'b' });
      });
      expect(await store.count('writer')).toBe(2);
    });

    it('RS-tx-2 rolls every write back when the work throws, and rethrows', async () => {
      await writer('before');
      const boom = new Error('boom');
      await expect(
        store.transaction(async (tx) => {
          await tx.insert('writer', { name: 'a' });
          await tx.update('writer', 1, { name: 'changed' });
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect((await store.find('writer')).map((r) => r.name)).toEqual(['before']);
    });

    it('RS-tx-3 rolls back on a constraint violation inside the transaction', async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.insert('writer', { name: 'a', email: 'same@x.io' });
          await tx.insert('writer', { name: 'b', email: 'same@x.io' });
        }),
      ).rejects.toBeInstanceOf(ConstraintViolation);
      expect(await store.count('writer')).toBe(0);
    });

    it('RS-tx-4 a nested transaction joins the outer one', async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.transaction(async (inner) => inner.insert('writer', { name: 'inner' }));
          throw new Error('outer fails');
        }),
      ).rejects.toThrow('outer fails');
      expect(await store.count('writer')).toBe(0);
    });

    // SQL stores only: the in-memory store serialises transactions among themselves but gives the
    // statements outside them no isolation (it is for tests and throwaway apps).
    const sqlOnly = (name: string, fn: () => Promise<void>): void => void (backend === 'memory' || it(name, fn));
    sqlOnly('RS-tx-5 statements outside an open transaction neither see its writes nor run inside it, and all complete', async () => {
      await writer('before');
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let enter!: () => void;
      const entered = new Promise<void>((resolve) => (enter = resolve));
      // Reads in flight when the transaction asks for a connection, and more while it is open.
      const before = Array.from({ length: 20 }, () => store.count('writer'));
      const tx = store.transaction(async (inner) => {
        await inner.insert('writer', { name: 'uncommitted' });
        enter();
        await gate;
        throw new Error('rolled back');
      });
      const outside = (async () => {
        await entered;
        const seen = await store.count('writer');
        // The reads issued before may still be queued for a connection on a loaded machine: the
        // outside write waits for them, so a 2 among them can only be the uncommitted row.
        await Promise.allSettled(before);
        await store.insert('writer', { name: 'outside' });
        return [seen, await store.count('writer')];
      })();
      const during = entered.then(() => Promise.all(Array.from({ length: 20 }, () => store.find('writer'))));
      await entered;
      await new Promise((resolve) => setTimeout(resolve, 30));
      release();
      await expect(tx).rejects.toThrow('rolled back');
      expect(await Promise.all(before)).toEqual(Array.from({ length: 20 }, () => 1));
      expect(await outside).toEqual([1, 2]);
      for (const rows of await during) expect(rows.map((r) => r.name)).not.toContain('uncommitted');
      expect((await store.find('writer')).map((r) => r.name).sort()).toEqual(['before', 'outside']);
    });

    it('RS-tx-6 a transaction is not starved by a steady stream of statements outside it', async () => {
      await writer('before');
      let committed = false;
      const until = Date.now() + 3_000;
      // Eight callers reading back to back: there is always a statement in flight.
      const readers = Array.from({ length: 8 }, async () => {
        let reads = 0;
        while (!committed && Date.now() < until) {
          await store.count('writer');
          reads++;
        }
        return reads;
      });
      await store.transaction(async (tx) => {
        await tx.insert('writer', { name: 'in the stream' });
      });
      const stillReading = Date.now() < until;
      committed = true;
      const reads = await Promise.all(readers);
      expect(stillReading).toBe(true);
      expect(reads.every((n) => n > 0)).toBe(true);
      expect(await store.count('writer')).toBe(2);
    });

    it("RS-tx-7 a read with lock 'update' holds the row until its transaction ends: racing read-check-writes lose no update", async () => {
      const w = await writer();
      const a = await ins('article', { title: 'counted', writer_id: w.id });
      const pinned = { column: 'id', op: 'eq', value: a.id } as const;
      // Ten transactions read the counter, wait a little and write it back plus one. Without the
      // lock they would read the same value (PostgreSQL, READ COMMITTED) and lose nine updates.
      const seen = await Promise.all(
        Array.from({ length: 10 }, () =>
          store.transaction(async (tx) => {
            const [row] = await tx.find('article', { where: pinned, lock: 'update' });
            await new Promise((resolve) => setTimeout(resolve, 5));
            await tx.update('article', a.id, { score: Number(row?.score) + 1 });
            return Number(row?.score);
          }),
        ),
      );
      expect(seen.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect((await store.getById('article', a.id))?.score).toBe(10);
      // The lock is a read like any other: the same rows, and also outside a transaction.
      expect(await store.find('article', { where: pinned, lock: 'update' })).toEqual(await store.find('article', { where: pinned }));
      await expect(store.find('article', { lock: 'update', perGroup: { column: 'writer_id', limit: 1 } })).rejects.toThrow(/perGroup/);
    });
  });

  describe('RS-together', () => {
    it('RS-together-1 makes an update and inserts together and returns each row as stored (null for no live row)', async () => {
      const w = await writer('Ada');
      for (const round of [1, 2]) {
        const [updated, article, missing, label] = await store.writeTogether([
          { update: 'writer', id: w.id, changes: { bio: `round ${round}` } },
          { insert: 'article', row: { title: `T${round}`, writer_id: w.id } },
          { update: 'writer', id: 999_999, changes: { bio: 'nobody' } },
          { insert: 'label', row: { id: `l${round}`, text: 'L' } },
        ]);
        expect(updated).toMatchObject({ id: w.id, name: 'Ada', bio: `round ${round}` });
        expect(article).toMatchObject({ title: `T${round}`, writer_id: w.id, score: 0, published: false, created_at: t.clock.now() });
        expect(missing).toBeNull();
        expect(label).toEqual({ id: `l${round}`, text: 'L' });
        expect(await store.getById('article', (article as TestRow).id)).toEqual(article);
      }
      expect((await store.getById('writer', w.id))?.bio).toBe('round 2');
      expect(await store.writeTogether([])).toEqual([]);
    });

    it('RS-together-2 is all or nothing: a refused write leaves none made, and names its column', async () => {
      const w = await writer('Ada', { email: 'taken@x.io' });
      await expectViolation(
        store.writeTogether([
          { update: 'writer', id: w.id, changes: { bio: 'changed' } },
          { insert: 'writer', row: { name: 'Bob', email: 'taken@x.io' } },
        ]),
        'unique',
        'email',
      );
      await expectViolation(
        store.writeTogether([
          { insert: 'article', row: { title: 'orphan', writer_id: 424_242 } },
          { update: 'writer', id: w.id, changes: { bio: 'changed' } },
        ]),
        'foreign_key',
      );
      expect((await store.getById('writer', w.id))?.bio).toBeNull();
      expect(await store.count('writer')).toBe(1);
      expect(await store.count('article')).toBe(0);
      // The connection that carried the refused writes serves again.
      expect((await store.writeTogether([{ update: 'writer', id: w.id, changes: { bio: 'after' } }, { insert: 'label', row: { id: 'x', text: 'X' } }]))[0]?.bio).toBe('after');
    });

    it('RS-together-3 checks every write before making any', async () => {
      const w = await writer('Ada');
      await expect(
        store.writeTogether([
          { update: 'writer', id: w.id, changes: { bio: 'changed' } },
          { insert: 'article', row: { title: 'T', writer_id: w.id, nope: 1 } },
        ]),
      ).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(store.writeTogether([{ insert: 'no_such_table', row: {} }, { update: 'writer', id: w.id, changes: {} }])).rejects.toBeInstanceOf(DomainError);
      expect((await store.getById('writer', w.id))?.bio).toBeNull();
    });

    it('RS-together-4 fires each write\'s save signals; committed handlers hear them after the commit', async () => {
      const w = await writer('Ada');
      const committed: string[] = [];
      t.events.onCommitted('post_save', '*', (e) => void committed.push(`${e.table}:${String(e.created)}`));
      await store.writeTogether([
        { update: 'writer', id: w.id, changes: { bio: 'b' } },
        { insert: 'label', row: { id: 'c', text: 'C' } },
      ]);
      expect(committed).toEqual(['writer:false', 'label:true']);
      // An in-transaction handler hears pre_save and post_save, and its throw undoes both writes.
      const heard: string[] = [];
      t.events.on('pre_save', 'label', (e) => void heard.push(`pre:${String(e.row.id)}`));
      t.events.on('post_save', 'label', () => {
        throw new Error('vetoed');
      });
      await expect(
        store.writeTogether([
          { update: 'writer', id: w.id, changes: { bio: 'vetoed' } },
          { insert: 'label', row: { id: 'd', text: 'D' } },
        ]),
      ).rejects.toThrow('vetoed');
      expect(heard).toEqual(['pre:d']);
      expect((await store.getById('writer', w.id))?.bio).toBe('b');
      expect(await store.getById('label', 'd')).toBeNull();
    });

    // PostgreSQL only: elsewhere the writes run in a transaction (BEGIN and COMMIT on SQLite).
    const pgOnly = (name: string, fn: () => Promise<void>): void => void (backend === 'postgresql' && it(name, fn));
    pgOnly('RS-together-5 on PostgreSQL the writes are one transaction (one xmin), without BEGIN or COMMIT', async () => {
      const knex = t.db.sql?.knex;
      if (!knex) throw new Error('SQL backend expected');
      const w = await writer('Ada');
      const sent: string[] = [];
      const listen = (q: { sql: string }): void => void sent.push(q.sql.split(' ')[0] as string);
      knex.on('query', listen);
      const [, label] = await store.writeTogether([
        { update: 'writer', id: w.id, changes: { bio: 'b' } },
        { insert: 'label', row: { id: 'one', text: 'One' } },
      ]);
      knex.off('query', listen);
      expect(sent).toEqual(['update', 'insert']);
      const xmin = async (table: string, id: unknown): Promise<string> => ((await knex.raw(`select xmin::text as x from "${table}" where id = ?`, [id as string | number])) as { rows: { x: string }[] }).rows[0]?.x as string;
      expect(await xmin('writer', w.id)).toBe(await xmin('label', label?.id));
    });
  });

  describe('RS-signals', () => {
    const record = () => {
      const seen: SignalEvent[] = [];
      for (const s of ['pre_save', 'post_save', 'pre_delete', 'post_delete'] as const) t.events.on(s, '*', (e) => void seen.push(e));
      return seen;
    };

    it('RS-signals-1 insert, update and delete fire their signals in order', async () => {
      const seen = record();
      const w = await writer();
      await store.update('writer', w.id, { bio: 'b' });
      await store.delete('writer', w.id);
      expect(seen.map((e) => `${e.signal}:${e.table}:${String(e.created ?? '-')}`)).toEqual([
        'pre_save:writer:true',
        'post_save:writer:true',
        'pre_save:writer:false',
        'post_save:writer:false',
        'pre_delete:writer:-',
        'post_delete:writer:-',
      ]);
      expect(seen[1]?.row.id).toBe(w.id);
      expect(seen[3]?.row.bio).toBe('b');
    });

    it('RS-signals-2 a soft delete fires the delete signals, not the save signals', async () => {
      const w = await writer();
      const a = await ins('article', { title: 'T', writer_id: w.id });
      const seen = record();
      await store.delete('article', a.id);
      expect(seen.map((e) => e.signal)).toEqual(['pre_delete', 'post_delete']);
    });

    it('RS-signals-3 a throwing pre_save handler aborts the write', async () => {
      t.events.on('pre_save', 'writer', () => {
        throw new Error('vetoed');
      });
      await expect(writer()).rejects.toThrow('vetoed');
      expect(await store.count('writer')).toBe(0);
    });

    it('RS-signals-4 a throwing post_save handler rolls the write back', async () => {
      t.events.on('post_save', 'writer', () => {
        throw new Error('after');
      });
      await expect(writer()).rejects.toThrow('after');
      expect(await store.count('writer')).toBe(0);
    });

    it('RS-signals-5 handlers for one table do not hear another', async () => {
      const heard: string[] = [];
      t.events.on('post_save', 'label', (e) => void heard.push(e.table));
      await writer();
      expect(heard).toEqual([]);
    });
  });

  describe('RS-health', () => {
    it('RS-health-1 ping resolves on a reachable database', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
