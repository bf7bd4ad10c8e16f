import Database from 'better-sqlite3';
import { Kysely, Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { MIGRATION_NAMES } from '../../migrations/names.js';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { compositeId } from '../../src/store/journal/journal-writer.js';
import { openStore } from '../../src/store/open-store.js';
import { cli, ENGINE_NAMES, freshStore } from '../support/helpers.js';

const JOURNAL = MIGRATION_NAMES.find((n) => n.endsWith('_journal'))!;
const BEFORE_JOURNAL = MIGRATION_NAMES[MIGRATION_NAMES.indexOf(JOURNAL) - 1]!;

/** Records of every kind in two tenants, and an API key: what a store held before it had a journal. */
async function fill(local: LocalBackend): Promise<void> {
  const a = { tenant: 'a', actor: 'alice' };
  const b = { tenant: 'b', actor: 'bob' };
  const d = await local.dsfa.create({ ...a, body: { title: 'Videoüberwachung' } });
  await local.dsfa.update({ ...a, params: { id: d.id }, body: { description: 'Lager' } });
  await local.dsfa.updateSettings({ ...a, body: { workflow: 'strict' } });
  const c = await local.consents.create({ ...b, body: { user_id: 'u1', data_point_id: 'newsletter', granted: true } });
  await local.consents.revoke({ ...b, params: { id: c.id } });
  await local.cookieBanner.put({ ...b, body: (await local.cookieBanner.get(b)) as never });
  const block = await local.trainingBlocks.create({
    ...a,
    body: { name: 'Zugang', regulation_area: 'nis2', module_code_prefix: 'SEC-AUTH', domain_filter: 'AUTH' },
  });
  await local.trainingBlocks.generate({ ...a, params: { id: block.id }, body: { skip_content: true } });
  await (await local.keys()).create('ci');
}

/** Takes the store back to the schema before the journal, as a store of the previous version was. */
async function backToBeforeJournal(local: LocalBackend, target: string, engine: 'sqlite' | 'postgres') {
  const m = new Migrator({
    db: local.store.admin as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
  });
  expect((await m.migrateTo(BEFORE_JOURNAL)).error).toBeUndefined();
  await local.close();
  if (engine === 'sqlite') {
    const db = new Database(target);
    db.pragma(`user_version = ${MIGRATION_NAMES.indexOf(BEFORE_JOURNAL) + 1}`);
    db.close();
  }
}

describe.each(ENGINE_NAMES)('a %s store of the version before the journal', (engine) => {
  it('is chained on upgrade: one genesis entry per stored record, per tenant, and the chains verify', async () => {
    const target = await freshStore(engine);
    const local = await createLocalBackend(target);
    await fill(local);
    const tables = ['dsfa', 'dsfa_audit', 'dsfa_setting', 'consent', 'consent_history', 'cookie_banner', 'api_key'];
    const count = async (t: string) =>
      Number(
        (
          await (local.store.admin as unknown as Kysely<Record<string, { n: number }>>)
            .selectFrom(t)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = Object.fromEntries(
      await Promise.all(
        [...tables, 'training_module', 'training_block', 'training_block_control', 'training_matrix'].map(
          async (t) => [t, await count(t)] as const,
        ),
      ),
    );
    expect(before.training_block_control).toBeGreaterThan(0);
    await backToBeforeJournal(local, target, engine);

    const upgraded = await openStore(target);
    const entries = await upgraded.admin
      .selectFrom('journal')
      .selectAll()
      .orderBy('tenant_id')
      .orderBy('seq')
      .execute();
    await upgraded.close();
    expect(entries.every((e) => e.op === 'genesis' && e.actor === 'system' && e.principal === 'upgrade')).toBe(true);
    const of = (entity: string) => entries.filter((e) => e.entity === entity).length;
    for (const [t, n] of Object.entries(before)) expect(of(t), t).toBe(n);
    // the store's own chain holds the key, without its hash
    const key = entries.find((e) => e.entity === 'api_key')!;
    expect(key.tenant_id).toBe('');
    expect(JSON.parse(key.data!)).not.toHaveProperty('hash');
    // control links carry no tenant of their own: they join their block's chain
    expect(new Set(entries.filter((e) => e.entity === 'training_block_control').map((e) => e.tenant_id))).toEqual(
      new Set(['a']),
    );
    // a record's genesis names it as the stores name it in its later entries: the tenant is the chain's, not the id's
    const matrix = entries.filter((e) => e.entity === 'training_matrix');
    expect(matrix.length).toBeGreaterThan(0);
    for (const e of matrix) {
      const row = JSON.parse(e.data!);
      expect(e.entity_id).toBe(compositeId(row.role_code, row.module_id));
    }
    for (const t of ['', 'a', 'b']) {
      const seqs = entries.filter((e) => e.tenant_id === t).map((e) => Number(e.seq));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
    const verified = await cli(['--db', target, '--json', 'audit', 'verify']);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout).map((r: { tenant: string; ok: boolean }) => [r.tenant, r.ok])).toEqual([
      ['', true],
      ['a', true],
      ['b', true],
    ]);
  });
});
