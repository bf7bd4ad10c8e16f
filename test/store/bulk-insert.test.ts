import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { insertRows } from '../../src/store/kysely/bulk-insert.js';
import { openStore } from '../../src/store/open-store.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

// insertRows keeps each statement's text per engine, table, columns, upsert and row count for the life of the process
// (each journal entry is a one-row insert): a text must never serve a statement of another shape.
describe.each(ENGINE_NAMES)('insertRows on %s', (engine) => {
  it('builds a text per shape: a column named "a,b" is not the columns a and b, an upsert not an insert', async () => {
    const store = await openStore(await freshStore(engine));
    try {
      const db = store.admin;
      await sql`create table bulk_probe ("a,b" text, a text unique, b text)`.execute(db);
      await insertRows(db, 'bulk_probe', ['a', 'b'], [['1', 'one']]);
      await insertRows(db, 'bulk_probe', ['a,b'], [['comma']]);
      // the same shape again, and one of two rows, then an upsert of a key already written
      await insertRows(db, 'bulk_probe', ['a', 'b'], [['3', 'three']]);
      await insertRows(
        db,
        'bulk_probe',
        ['a', 'b'],
        [
          ['4', 'four'],
          ['5', 'five'],
        ],
      );
      await insertRows(db, 'bulk_probe', ['a', 'b'], [['1', 'uno']], { key: ['a'], set: ['b'] });
      const rows = await sql<{ ab: string | null; a: string; b: string | null }>`
        select "a,b" as ab, a, b from bulk_probe order by coalesce(a, '~')`.execute(db);
      expect(rows.rows).toEqual([
        { ab: null, a: '1', b: 'uno' },
        { ab: null, a: '3', b: 'three' },
        { ab: null, a: '4', b: 'four' },
        { ab: null, a: '5', b: 'five' },
        { ab: 'comma', a: null, b: null },
      ]);
      // an insert of the same shape as the upsert, but without it, still refuses the key it meets
      await expect(insertRows(db, 'bulk_probe', ['a', 'b'], [['1', 'again']])).rejects.toThrow();
    } finally {
      await store.close();
    }
  });
});
