import { copyFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { dataHash, entryHash } from '../../src/domain/journal/chain.js';
import { changesOf, groupRows, type BatchData } from '../../src/domain/journal/changes.js';
import type { DB, JournalRow } from '../../src/store/db-types.js';
import { ENGINE_NAMES, cli, freshStore, tmpDb } from '../support/helpers.js';
import { copiedPostgresDatabase } from '../support/postgres.js';

const T = { tenant: 'acme', actor: 'importer' };
const AT = '2026-01-01T10:00:00Z';
/** Rows of the import that revoke the consent they create: granted ones with granted_at, every fourth. */
const revokes = (i: number) => i % 4 === 0 && i % 5 !== 0 && i % 7 !== 0;
/** The import writes 1,000 rows per transaction (COMPLIANCE_IMPORT_BATCH_ROWS): the file fills one and starts another. */
const BATCH = 1_000;
const ROWS = BATCH + 50;
const REVOKED = Array.from({ length: ROWS }, (_, i) => i).filter(revokes).length;

const csv = (lines: string[]) => ({
  body: (async function* () {
    yield lines.join('\n') + '\n';
  })(),
  content_type: 'text/csv',
});

/**
 * A store with a consent made through the API, then an import of every kind of row: new ones with and without
 * granted_at, revoked ones, values with quotes, backslashes and umlauts, empty optional fields, a repeated row
 * (unchanged), a refused one, and one that revokes the stored consent; over two transactions (BATCH rows each).
 * Made once per engine (closed, so that it can be copied); each test works on a copy of it (`imported`).
 */
async function importedOriginal(engine: 'sqlite' | 'postgres'): Promise<string> {
  const target = await freshStore(engine);
  const local = await createLocalBackend(target, { importBatchRows: String(BATCH) });
  await local.consents.create({
    ...T,
    body: { user_id: 'old', data_point_id: 'news', granted: true, consent_version: '1', granted_at: AT },
  });
  // a refusal stored, which a later grant in the file does not equal: the writer decides that row in JS (a created
  // consent that no set-based statement made, whose number the entry must hold too)
  await local.consents.create({
    ...T,
    body: { user_id: 'refused', data_point_id: 'news', granted: false, consent_version: '1', granted_at: AT },
  });
  const rows = ['user_id,data_point_id,granted,granted_at,revoked_at,consent_version,source,ip_address,user_agent'];
  for (let i = 0; i < ROWS; i++)
    rows.push(
      [
        `u${i}@example.com`,
        `dp${i % 3}`,
        i % 5 ? 'true' : 'false',
        i % 7 ? AT : '',
        revokes(i) ? '2026-02-01T00:00:00Z' : '',
        `1.${i % 2}`,
        i % 3 ? 'web' : '',
        i % 2 ? `10.0.0.${i % 250}` : '',
        i % 11 ? 'Mozilla/5.0 "Größe" \\ä' : '',
      ].join(','),
    );
  rows[5] = rows[5]!.replace('Mozilla/5.0 "Größe" \\ä', '"Mozilla ""quoted"", Ümlaut"');
  rows.push(
    rows[3]!,
    'u-bad,news,maybe,,,1,,,',
    `old,news,true,${AT},2026-03-01T00:00:00Z,1,,,`,
    'refused,news,true,2026-01-15T00:00:00Z,,1,,,',
  );
  const run = await local.consents.import({ ...T, query: {}, stream: csv(rows) });
  expect(run).toMatchObject({ created: ROWS + 1, unchanged: 1, revoked: 1, rejected: 1 });
  await local.close();
  return target;
}

/** A copy of the imported store of the engine, as a test of its own may change it. */
async function copyOf(
  engine: 'sqlite' | 'postgres',
  original: string,
): Promise<{ target: string; local: LocalBackend }> {
  let target = tmpDb();
  if (engine === 'postgres') target = await copiedPostgresDatabase(new URL(original).pathname.slice(1));
  else copyFileSync(original, target);
  return { target, local: await createLocalBackend(target) };
}

const entries = (db: Kysely<DB>) =>
  db.selectFrom('journal').selectAll().where('tenant_id', '=', 'acme').orderBy('seq').execute();
const batches = async (db: Kysely<DB>) => (await entries(db)).filter((e) => e.op === 'batch');

async function verify(target: string) {
  const r = await cli(['--db', target, '--json', 'audit', 'verify', '--tenant', 'acme']);
  return { code: r.code, report: r.stdout ? JSON.parse(r.stdout)[0] : undefined };
}

/** Rewrites the entries from `fromSeq` on so that each is valid on its own and links to the one before. */
async function rechain(db: Kysely<DB>, fromSeq: number): Promise<void> {
  const all = await entries(db);
  let prev = all.find((r) => Number(r.seq) === fromSeq - 1)!.hash;
  for (const r of all.filter((x) => Number(x.seq) >= fromSeq)) {
    const fixed = { ...r, seq: Number(r.seq), data_hash: dataHash(r.data), prev_hash: prev };
    const hash = entryHash(fixed);
    await db
      .updateTable('journal')
      .set({ data: r.data, data_hash: fixed.data_hash, prev_hash: prev, hash })
      .where('tenant_id', '=', 'acme')
      .where('seq', '=', r.seq)
      .execute();
    prev = hash;
  }
}

const setData = (db: Kysely<DB>, e: JournalRow, data: string) =>
  db.updateTable('journal').set({ data }).where('tenant_id', '=', 'acme').where('seq', '=', e.seq).execute();

describe.each(ENGINE_NAMES)('an import batch entry on %s', (engine) => {
  let original = '';
  beforeAll(async () => {
    original = await importedOriginal(engine);
  });
  const imported = () => copyOf(engine, original);

  it('holds the staged rows of the consents it created, at most a third of the rows it records', async () => {
    const { local } = await imported();
    const [first] = await batches(local.store.admin);
    const data = JSON.parse(first!.data!) as BatchData;
    expect(data.staged?.rows).toHaveLength(BATCH);
    const derived = data.groups.filter((g) => g.derive).map((g) => g.entity);
    expect(derived).toEqual(['consent', 'consent_history']);
    // the same rows written out whole, as the entry held them before
    const whole = JSON.stringify({
      groups: data.groups.map((g) => ({ ...g, derive: undefined, rows: groupRows(data, g) })),
    });
    expect(first!.data!.length).toBeLessThan(whole.length / 3);
    await local.close();
  });

  it('derives exactly the consent and history rows the tables hold', async () => {
    const { target, local } = await imported();
    const db = local.store.admin;
    const changes = (await batches(db)).flatMap((e) => changesOf({ ...e, data: JSON.parse(e.data!) }));
    const tally = (entity: string, op: string) => changes.filter((c) => c.entity === entity && c.op === op).length;
    // every created consent (the refused user's new grant among them) with its granted entry, the revoked entries,
    // the stored consent the file revokes with its entry
    expect([tally('consent', 'insert'), tally('consent_history', 'insert'), tally('consent', 'update')]).toEqual([
      ROWS + 1,
      ROWS + 1 + REVOKED + 1,
      1,
    ]);
    expect(changes.some((c) => c.entity === 'consent' && c.row?.user_id === 'refused')).toBe(true);
    for (const table of ['consent', 'consent_history'] as const) {
      const stored = new Map(
        (await db.selectFrom(table).selectAll().where('tenant_id', '=', 'acme').execute()).map((r) => [r.id, r]),
      );
      for (const c of changes.filter((x) => x.entity === table)) expect(c.row).toEqual(stored.get(c.id));
    }
    const quoted = changes.find((c) => c.row?.user_agent === 'Mozilla "quoted", Ümlaut');
    expect(quoted?.entity).toBe('consent');
    await local.close();
    expect((await verify(target)).code).toBe(0);
  });

  it('a staged row edited in the entry breaks the chain there', async () => {
    const { target, local } = await imported();
    const [first] = await batches(local.store.admin);
    await setData(local.store.admin, first!, first!.data!.replace('"u17@example.com"', '"mallory@example.com"'));
    await local.close();
    const r = await verify(target);
    expect(r.code).toBe(6);
    expect(r.report.problem).toMatchObject({ seq: Number(first!.seq), kind: 'edited' });
  });

  it('a staged row edited and the chain rehashed: the history rows no longer match their table', async () => {
    const { target, local } = await imported();
    const db = local.store.admin;
    const [first] = await batches(db);
    await setData(db, first!, first!.data!.replace(`"${AT.replace('Z', '.000Z')}"`, '"2025-01-01T00:00:00.000Z"'));
    await rechain(db, Number(first!.seq));
    await local.close();
    const r = await verify(target);
    expect(r.code).toBe(6);
    expect(r.report.problem).toBeUndefined();
    expect(r.report.trails.find((t: { table: string }) => t.table === 'consent_history')).toMatchObject({
      ok: false,
      problem: { kind: 'edited' },
    });
  });

  it.each(['edited', 'deleted'] as const)('an imported history row %s in its table is found', async (kind) => {
    const { target, local } = await imported();
    const db = local.store.admin;
    const row = await db
      .selectFrom('consent_history')
      .select('id')
      .where('tenant_id', '=', 'acme')
      .where('import_run_id', 'is not', null)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    if (kind === 'edited')
      await db.updateTable('consent_history').set({ source: 'forged' }).where('id', '=', row.id).execute();
    else await db.deleteFrom('consent_history').where('id', '=', row.id).execute();
    await local.close();
    const r = await verify(target);
    expect(r.code).toBe(6);
    expect(r.report.trails.find((t: { table: string }) => t.table === 'consent_history')).toMatchObject({
      ok: false,
      problem: { id: row.id, kind },
    });
  });

  it('a group whose columns come in another order than the table’s still verifies, and an edit in the table is found', async () => {
    const { target, local } = await imported();
    const db = local.store.admin;
    const before = await batches(db);
    for (const e of before) {
      const data = JSON.parse(e.data!) as BatchData;
      const reversed = {
        groups: data.groups.map((g) => ({
          ...g,
          derive: undefined,
          columns: [...g.columns].reverse(),
          rows: groupRows(data, g).map((values) => [...values].reverse()),
        })),
      };
      await setData(db, e, JSON.stringify(reversed));
    }
    await rechain(db, Number(before[0]!.seq));
    expect((await verify(target)).report).toMatchObject({ ok: true });
    const row = await db
      .selectFrom('consent_history')
      .select('id')
      .where('tenant_id', '=', 'acme')
      .where('import_run_id', 'is not', null)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await db.updateTable('consent_history').set({ consent_version: '9.9' }).where('id', '=', row.id).execute();
    await local.close();
    const r = await verify(target);
    expect(r.code).toBe(6);
    expect(r.report.trails.find((t: { table: string }) => t.table === 'consent_history')).toMatchObject({
      ok: false,
      problem: { id: row.id, kind: 'edited' },
    });
  });

  it('entries written whole, as before the staged form, still verify and give the same rows', async () => {
    const { target, local } = await imported();
    const db = local.store.admin;
    const before = await batches(db);
    const changes = (es: JournalRow[]) => es.flatMap((e) => changesOf({ ...e, data: JSON.parse(e.data!) }));
    for (const e of before) {
      const data = JSON.parse(e.data!) as BatchData;
      const whole = { groups: data.groups.map((g) => ({ ...g, derive: undefined, rows: groupRows(data, g) })) };
      await setData(db, e, JSON.stringify(whole));
    }
    await rechain(db, Number(before[0]!.seq));
    const after = await batches(db);
    expect(after.every((e) => !e.data!.includes('"staged"'))).toBe(true);
    expect(changes(after)).toEqual(changes(before));
    await local.close();
    const r = await verify(target);
    expect(r.code).toBe(0);
    expect(r.report).toMatchObject({ ok: true });
  });
});
