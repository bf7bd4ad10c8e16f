import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

const T = { tenant: 'atomic', actor: 'alice' };

// A journal append that fails takes its change with it: the journal is made to refuse every insert (a trigger, as a
// full disk or a broken constraint would), and the write that needed it leaves nothing behind on either engine.
describe.each(ENGINE_NAMES)('a failing journal append on %s', (engine) => {
  it('rolls the change back: no record, no audit entry, no entry; the store writes again once appends work', async () => {
    const local = await createLocalBackend(await freshStore(engine));
    try {
      const admin = local.store.admin;
      await local.dsfa.create({ ...T, body: { title: 'Vorher' } });
      const count = async (table: 'dsfa' | 'dsfa_audit' | 'journal' | 'consent' | 'consent_history') =>
        Number(
          (
            await admin
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('tenant_id', '=', T.tenant)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await Promise.all([count('dsfa'), count('dsfa_audit'), count('journal')]);
      if (engine === 'sqlite')
        await sql`create trigger journal_refuses before insert on journal begin select raise(abort, 'journal refuses'); end`.execute(
          admin,
        );
      else {
        await sql`create function journal_refuses() returns trigger language plpgsql as $$
          begin raise exception 'journal refuses'; end $$`.execute(admin);
        await sql`create trigger journal_refuses before insert on journal for each row execute function journal_refuses()`.execute(
          admin,
        );
      }
      await expect(local.dsfa.create({ ...T, body: { title: 'Ohne Eintrag' } })).rejects.toThrow();
      const consent = { user_id: 'u', data_point_id: 'news', granted: true };
      await expect(local.consents.create({ ...T, body: consent })).rejects.toThrow();
      expect(await Promise.all([count('dsfa'), count('dsfa_audit'), count('journal')])).toEqual(before);
      expect([await count('consent'), await count('consent_history')]).toEqual([0, 0]);

      await sql`drop trigger journal_refuses${sql.raw(engine === 'postgres' ? ' on journal' : '')}`.execute(admin);
      await local.dsfa.create({ ...T, body: { title: 'Nachher' } });
      expect(await count('dsfa')).toBe(before[0]! + 1);
      const reports = await (await local.auditor()).verify(T.tenant);
      expect(reports[0]).toMatchObject({ ok: true, entries: before[2]! + 2 });
    } finally {
      await local.close();
    }
  });
});
