import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { tmpDb } from '../support/helpers.js';

/**
 * `PRAGMA integrity_check` goes through the SQLite the product runs on (better-sqlite3's). Debian 12's `sqlite3`
 * shell (3.40.1) falsely reports "NULL value in consent_history.…" for this store: a bug of SQLite 3.40 and 3.41
 * with WITHOUT ROWID tables whose primary key is not in column order.
 */
describe('the integrity of a SQLite store', () => {
  it('is ok by the SQLite the product runs on, also for the WITHOUT ROWID history table', async () => {
    const file = tmpDb();
    const b = await createLocalBackend(file);
    for (let i = 0; i < 20; i++) {
      const c = await b.consents.create({
        tenant: 'shop',
        body: { user_id: `u${i}`, data_point_id: 'newsletter', granted: true },
      });
      if (i % 2) await b.consents.revoke({ tenant: 'shop', params: { id: c.id } });
    }
    await b.close();

    const db = new Database(file, { readonly: true });
    try {
      const ddl = db.prepare("select sql from sqlite_master where name = 'consent_history'").pluck().get() as string;
      // the case the old shell gets wrong: clustered, keyed in an order other than the columns'
      expect(ddl).toMatch(/WITHOUT ROWID/i);
      const columns = (db.pragma('table_info(consent_history)') as Array<{ name: string; pk: number }>)
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
      expect(columns).toEqual(['tenant_id', 'consent_id', 'created_at', 'id']);
      expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const nulls = db
        .prepare(
          'select count(*) from consent_history where tenant_id is null or action is null or consent_version is null',
        )
        .pluck()
        .get();
      expect(nulls).toBe(0);
      expect(db.prepare('select count(*) from consent_history').pluck().get()).toBe(30);
    } finally {
      db.close();
    }
  });
});
