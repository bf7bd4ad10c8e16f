import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { dataHash, entryHash } from '../../src/domain/journal/chain.js';
import type { DB, JournalRow } from '../../src/store/db-types.js';
import { cli, ENGINE_NAMES, freshStore } from '../support/helpers.js';
import { builtCli } from '../support/serve-process.js';

/** A store with one tenant's chain of seven entries (three assessments and a setting), and its location. */
async function storeWithChain(engine: 'sqlite' | 'postgres'): Promise<{ target: string; local: LocalBackend }> {
  const target = await freshStore(engine);
  const local = await createLocalBackend(target);
  const t = { tenant: 'acme', actor: 'alice' };
  for (const title of ['Videoüberwachung', 'Bewerbermanagement', 'Zeiterfassung'])
    await local.dsfa.create({ ...t, body: { title } });
  await local.dsfa.updateSettings({ ...t, body: { workflow: 'strict' } });
  return { target, local };
}

const rows = (db: Kysely<DB>) =>
  db.selectFrom('journal').selectAll().where('tenant_id', '=', 'acme').orderBy('seq').execute();

/** Rewrites entries from `fromSeq` on so that each is valid on its own and links to the one before. */
async function rechain(db: Kysely<DB>, fromSeq: number): Promise<void> {
  const all = await rows(db);
  let prev = all.find((r) => Number(r.seq) === fromSeq - 1)!.hash;
  for (const r of all.filter((x) => Number(x.seq) >= fromSeq)) {
    const fixed = { ...r, seq: Number(r.seq), data_hash: dataHash(r.data), prev_hash: prev };
    const hash = entryHash(fixed);
    await db
      .updateTable('journal')
      .set({ data_hash: fixed.data_hash, prev_hash: prev, hash })
      .where('tenant_id', '=', 'acme')
      .where('seq', '=', r.seq)
      .execute();
    prev = hash;
  }
}

/** Moves the entries from `fromSeq` on by `by` (through a detour, so the unique key never clashes midway). */
async function renumber(db: Kysely<DB>, fromSeq: number, by: number): Promise<void> {
  const base = db.updateTable('journal').where('tenant_id', '=', 'acme');
  await base
    .set({ seq: sql`seq + 1000000` })
    .where('seq', '>=', fromSeq)
    .execute();
  await base
    .set({ seq: sql`seq - ${1000000 - by}` })
    .where('seq', '>=', 1000000)
    .execute();
}

/**
 * Each engine, and SQLite once more through the built program with every `audit verify` read in threads
 * (COMPLIANCE_VERIFY_THREAD_ROWS=1: the chain in ranges, the trails digested beside the walk), which only a built
 * program can start: both ways must find and name the same.
 */
const VARIANTS = [
  ...ENGINE_NAMES.map((e) => [e, e, false] as const),
  ...(ENGINE_NAMES.includes('sqlite') ? [['sqlite, read in threads', 'sqlite', true] as const] : []),
];

describe.each(VARIANTS)('tampering with the journal on %s is found and named', (_, engine, threaded) => {
  const run = async (args: string[]) => (threaded ? builtCli(args, { COMPLIANCE_VERIFY_THREAD_ROWS: '1' }) : cli(args));
  const verify = async (target: string, ...extra: string[]) => {
    const r = await run(['--db', target, '--json', 'audit', 'verify', ...extra]);
    return { code: r.code, reports: r.stdout ? JSON.parse(r.stdout) : [], stderr: r.stderr };
  };

  const tamper = async (change: (db: Kysely<DB>, entries: JournalRow[]) => Promise<void>) => {
    const { target, local } = await storeWithChain(engine);
    // the owner's connection: an attacker with the database file or the schema owner's password
    await change(local.store.admin, await rows(local.store.admin));
    await local.close();
    return verify(target, '--tenant', 'acme');
  };

  it('an intact chain verifies, and entries have no gaps and link from the start', async () => {
    const { target, local } = await storeWithChain(engine);
    const entries = await rows(local.store.admin);
    expect(entries.map((e) => Number(e.seq))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(entries.map((e) => e.entity)).toEqual([...Array(3).fill(['dsfa', 'dsfa_audit']).flat(), 'dsfa_setting']);
    await local.close();
    const r = await verify(target);
    expect(r.code).toBe(0);
    expect(r.reports).toEqual([
      {
        tenant: 'acme',
        entries: 7,
        head: { seq: 7, hash: entries[6]!.hash },
        ok: true,
        trails: [
          { table: 'dsfa_audit', rows: 3, ok: true },
          { table: 'training_audit', rows: 0, ok: true },
          { table: 'consent_history', rows: 0, ok: true },
        ],
      },
    ]);
  });

  it('an edited entry: its data no longer matches', async () => {
    const r = await tamper(async (db) => {
      await db
        .updateTable('journal')
        .set({ data: sql`replace(data, 'Bewerber', 'Kandidaten')` })
        .where('seq', '=', 3)
        .execute();
    });
    expect(r.code).toBe(6);
    expect(r.reports[0]).toMatchObject({ ok: false, entries: 2, problem: { seq: 3, kind: 'edited' } });
    expect(r.reports[0].problem.message).toMatch(/data was changed/);
  });

  it('an edited entry whose hashes were recomputed: its successor no longer links to it', async () => {
    const r = await tamper(async (db) => {
      await db.updateTable('journal').set({ actor: 'mallory' }).where('seq', '=', 3).execute();
      const e = (await rows(db)).find((x) => Number(x.seq) === 3)!;
      await db
        .updateTable('journal')
        .set({ hash: entryHash({ ...e, seq: 3 }) })
        .where('seq', '=', 3)
        .execute();
    });
    expect(r.reports[0]).toMatchObject({ ok: false, entries: 3, problem: { seq: 3, kind: 'edited' } });
    expect(r.reports[0].problem.message).toMatch(/hash recomputed/);
  });

  it('a deleted entry', async () => {
    const r = await tamper(async (db) => {
      await db.deleteFrom('journal').where('seq', '=', 4).execute();
    });
    expect(r.reports[0]).toMatchObject({
      ok: false,
      problem: { seq: 4, kind: 'deleted', message: 'entry 4 was deleted' },
    });
  });

  it('deleted entries at the start', async () => {
    const r = await tamper(async (db) => {
      await db.deleteFrom('journal').where('seq', '<=', 2).execute();
    });
    expect(r.reports[0].problem).toMatchObject({ seq: 1, kind: 'deleted', message: 'entries 1 to 2 were deleted' });
  });

  it('an inserted entry, the entries after it renumbered to make room', async () => {
    const r = await tamper(async (db, entries) => {
      await renumber(db, 4, 1);
      const forged = { ...entries[3]!, seq: 4, entity_id: 'forged', data: null, data_hash: dataHash(null) };
      forged.prev_hash = entries[2]!.hash;
      forged.hash = entryHash(forged);
      await db.insertInto('journal').values(forged).execute();
    });
    expect(r.reports[0]).toMatchObject({ ok: false, entries: 4, problem: { seq: 4, kind: 'inserted' } });
    expect(r.reports[0].problem.message).toBe('entry 4 was inserted: entry 5 links to entry 3');
  });

  it('reordered entries', async () => {
    const r = await tamper(async (db) => {
      await db.updateTable('journal').set({ seq: 100 }).where('seq', '=', 3).execute();
      await db.updateTable('journal').set({ seq: 3 }).where('seq', '=', 4).execute();
      await db.updateTable('journal').set({ seq: 4 }).where('seq', '=', 100).execute();
    });
    expect(r.reports[0]).toMatchObject({ ok: false, problem: { seq: 3, kind: 'reordered' } });
    expect(r.reports[0].problem.message).toBe('entry 3 is out of order: it links to entry 4, which comes after it');
  });

  it('an anchor proves the entries up to it unchanged, and catches a chain rewritten whole after it', async () => {
    const { target, local } = await storeWithChain(engine);
    const anchored = await run(['--db', target, '--tenant', 'acme', '--json', 'audit', 'anchor']);
    const anchor = JSON.parse(anchored.stdout);
    expect(anchor).toMatchObject({ tenant: 'acme', seq: 7 });
    await local.dsfa.create({ tenant: 'acme', body: { title: 'Später' } });
    let r = await verify(target, '--anchor', anchored.stdout);
    expect(r.code).toBe(0);
    expect(r.reports[0]).toMatchObject({ ok: true, entries: 9, anchor: { ok: true, seq: 7 } });
    // a rewrite that keeps every link valid: only the anchor kept outside the store can tell
    await local.store.admin.updateTable('journal').set({ actor: 'mallory' }).where('seq', '=', 2).execute();
    await rechain(local.store.admin, 2);
    await local.close();
    r = await verify(target, '--tenant', 'acme');
    expect(r.code).toBe(0);
    r = await verify(target, '--anchor', anchor.head, '--tenant', 'acme');
    expect(r.code).toBe(6);
    expect(r.reports[0].anchor.message).toMatch(/no entry carries the anchored hash/);
  });

  it.each([
    [
      'edited',
      async (db: Kysely<DB>) => {
        await db
          .updateTable('dsfa_audit')
          .set({ changed_by: 'mallory' })
          .where('action', '=', 'CREATE')
          .where('tenant_id', '=', 'acme')
          .execute();
      },
    ],
    [
      'deleted',
      async (db: Kysely<DB>) => {
        const one = await db.selectFrom('dsfa_audit').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
        await db.deleteFrom('dsfa_audit').where('id', '=', one.id).execute();
      },
    ],
    [
      'inserted',
      async (db: Kysely<DB>) => {
        const one = await db.selectFrom('dsfa_audit').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow();
        await db
          .insertInto('dsfa_audit')
          .values({ ...one, id: 'ffffffff-ffff-7fff-bfff-ffffffffffff' })
          .execute();
      },
    ],
  ] as const)(
    'an audit-trail row %s in its table, outside the journal, is found though the chain is intact',
    async (kind, change) => {
      const { target, local } = await storeWithChain(engine);
      await change(local.store.admin);
      await local.close();
      const r = await verify(target, '--tenant', 'acme');
      expect(r.code).toBe(6);
      expect(r.reports[0]).toMatchObject({ ok: false, entries: 7 });
      expect(r.reports[0].problem).toBeUndefined();
      expect(r.reports[0].trails[0]).toMatchObject({ table: 'dsfa_audit', ok: false, problem: { kind } });
      // db status checks the hash chains only, and says so instead of calling the journal intact
      const status = await cli(['--db', target, 'db', 'status']);
      expect(status.stdout).toMatch(
        /journal\s+\d+ entries in \d+ chains?: hashes and links intact \(audit trails not compared here: compliance audit verify compares them\)/,
      );
      const json = JSON.parse((await cli(['--db', target, '--json', 'db', 'status'])).stdout);
      expect(json.journal).toMatchObject({ ok: true, trails_compared: false });
    },
  );

  it('a tampered store still serves: the chain is evidence, not a lock', async () => {
    const { target, local } = await storeWithChain(engine);
    await local.store.admin.deleteFrom('journal').where('seq', '=', 2).execute();
    await local.dsfa.create({ tenant: 'acme', body: { title: 'Nach der Manipulation' } });
    expect(await local.dsfa.list({ tenant: 'acme', query: {} })).toHaveLength(4);
    await local.close();
    expect((await verify(target)).code).toBe(6);
    // db status says so too, naming the tenant and the entry
    const status = await cli(['--db', target, 'db', 'status']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/journal\s+BROKEN: tenant "acme" at entry 2 \(deleted\)/);
    const json = JSON.parse((await cli(['--db', target, '--json', 'db', 'status'])).stdout);
    expect(json.journal).toMatchObject({ ok: false, broken: [{ tenant: 'acme', seq: 2, kind: 'deleted' }] });
  });

  it('db status of an intact store counts its chains and entries', async () => {
    const { target, local } = await storeWithChain(engine);
    const entries = (await rows(local.store.admin)).length;
    await local.close();
    const json = JSON.parse((await cli(['--db', target, '--json', 'db', 'status'])).stdout);
    expect(json.journal).toMatchObject({ ok: true, broken: [] });
    expect(json.journal.entries).toBeGreaterThanOrEqual(entries);
    expect((await cli(['--db', target, 'db', 'status'])).stdout).toMatch(
      /journal\s+\d+ entries in \d+ chains?: hashes and links intact \(audit trails not compared here/,
    );
  });
});
