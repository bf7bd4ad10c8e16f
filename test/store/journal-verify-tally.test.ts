import { describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import type { JournalStore, TrailColumns } from '../../src/domain/journal/journal-store.port.js';
import { JournalService } from '../../src/domain/journal/journal.service.js';
import { emptyTally, tallyKey, tallyText } from '../../src/domain/journal/trails.js';
import { everyTenantJournal } from '../../src/store/journal/journal.store.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';

/**
 * `audit verify` compares the audit trails with the journal by their tallies first (the rows of each summed under a
 * key drawn for the verification), and row by row only where the tallies differ, to name the row.
 */
describe('trail tallies', () => {
  const rows = ['["a",1]', '["b",2]', '["c",3]'];
  const tally = (key: string, texts: string[]) => {
    const t = emptyTally();
    for (const text of texts) tallyText(t, key, text);
    return t;
  };

  it('are the same for the same rows in any order, and differ for a row changed, missing or doubled', () => {
    const key = tallyKey();
    expect(tally(key, rows)).toEqual(tally(key, [...rows].reverse()));
    expect(tally(key, rows)).toMatchObject({ rows: 3 });
    expect(tally(key, rows)).not.toEqual(tally(key, ['["a",1]', '["b",2]', '["c",4]']));
    expect(tally(key, rows)).not.toEqual(tally(key, rows.slice(1)));
    expect(tally(key, rows)).not.toEqual(tally(key, [...rows, rows[0]!]));
  });

  it('differ from key to key: each verification draws its own', () => {
    const [one, two] = [tallyKey(), tallyKey()];
    expect(one).not.toBe(two);
    expect(tally(one, rows)).not.toEqual(tally(two, rows));
  });
});

const T = { tenant: 'acme', actor: 'alice' };
const grant = (local: LocalBackend, i: number) =>
  local.consents.create({ ...T, body: { user_id: `u${i}@example.de`, data_point_id: 'newsletter', granted: true } });

describe.each(ENGINE_NAMES)('audit verify by tallies on %s', (engine) => {
  /** The store's journal, counting how the trails are read: with a tally key, or row by row. */
  async function counted() {
    const local = await createLocalBackend(await freshStore(engine));
    for (let i = 0; i < 5; i++) await grant(local, i);
    const journal = everyTenantJournal(local.store);
    const reads: Array<'tallied' | 'rows'> = [];
    const store: JournalStore = Object.assign(Object.create(journal) as JournalStore, {
      trailSnapshot: (tenant: string, trails: TrailColumns, tally?: string) => {
        reads.push(tally === undefined ? 'rows' : 'tallied');
        return journal.trailSnapshot!(tenant, trails, tally);
      },
    });
    return { local, reads, service: new JournalService(store) };
  }

  it('an intact store is settled by the tallies: its trails are read once', async () => {
    const { local, reads, service } = await counted();
    const [report] = await service.verify('acme');
    expect(report).toMatchObject({ ok: true });
    expect(report!.trails).toContainEqual({ table: 'consent_history', rows: 5, ok: true });
    expect(reads).toEqual(['tallied']);
    await local.close();
  });

  it('a trail row edited in its table makes the tallies differ: compared again row by row, which names it', async () => {
    const { local, reads, service } = await counted();
    const edited = await local.store.admin
      .selectFrom('consent_history')
      .select('id')
      .where('tenant_id', '=', 'acme')
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await local.store.admin
      .updateTable('consent_history')
      .set({ user_agent: 'mallory' })
      .where('id', '=', edited.id)
      .execute();
    const [report] = await service.verify('acme');
    expect(report).toMatchObject({ ok: false });
    expect(report!.trails).toContainEqual({
      table: 'consent_history',
      rows: 5,
      ok: false,
      problem: {
        id: edited.id,
        kind: 'edited',
        message: `consent_history ${edited.id} differs from its journal entry`,
      },
    });
    expect(reads).toEqual(['tallied', 'rows']);
    await local.close();
  });
});
