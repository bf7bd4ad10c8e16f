import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import { systemClock } from '../../src/domain/clock.js';
import { changesOf, type BatchData } from '../../src/domain/journal/changes.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { forRequest } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { ENGINE_NAMES, cli, tmp, tmpDb } from '../support/helpers.js';
import { batchAgain, heldRow, mediaFolder, poisonBatch, setStaged } from '../support/hostile.js';
import { expectChainIntact, journalAfter } from '../support/journal.js';
import { onLaptop, withSyncServer } from '../support/sync-server.js';

// A server whose records were poisoned (written past its rules, as an older release let a push do) must not crash a
// laptop that syncs with it, nor break the laptop's rules: the laptop's door refuses each such record as a conflict
// naming the rule, `sync resolve --theirs` cannot write it either, and everything else arrives.

describe.each(ENGINE_NAMES)('a laptop pulling from a poisoned server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  /** Writes rows on the server as stored, past the door (the way a poisoned store came to hold them). */
  async function poison(tenant: string, rows: Array<[string, string, Record<string, unknown>]>) {
    const uow = createUnitOfWork(server.store, systemClock, uuidv7Source());
    await forRequest({ tenant, actor: 'mallory', principal: 'sync:evil' }, () =>
      uow.write(tenant, async (tx) => {
        for (const [entity, id, row] of rows) await tx.replica.apply(tenant, entity, id, row);
      }),
    );
  }

  it('refuses each poisoned record as a conflict naming the rule, and takes the rest', async () => {
    const tenant = 'poisoned';
    const t = { tenant, actor: 'sam' };
    const good = await server.dsfa.create({ ...t, body: { title: 'Gut' } });
    const bad = await server.dsfa.create({ ...t, body: { title: 'Schlecht' } });
    const c = await server.consents.create({ ...t, body: { user_id: 'u1', data_point_id: 'news', granted: true } });
    const m = await server.training.createModule({
      ...t,
      body: { module_code: 'M-1', title: 'Modul', regulation_area: 'dsgvo', frequency_type: 'annual' },
    });
    const laptop = tmpDb();
    const sync = () => cli(['--db', laptop, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', '--json']);
    expect((await sync()).code).toBe(0);
    await onLaptop(laptop, (l) => l.consents.revoke({ tenant, actor: 'lea', params: { id: c.id } }));
    expect((await sync()).code).toBe(0);

    const outside = join(tmp(), 'pulled-file');
    const media = '01970000-0000-7000-8000-0000000000c1';
    await poison(tenant, [
      ['dsfa', bad.id, { ...(await heldRow(server, tenant, 'dsfa', bad.id))!, data_categories: 'not json' }],
      ['consent', c.id, { ...(await heldRow(server, tenant, 'consent', c.id))!, revoked_at: null }],
      [
        'training_media',
        media,
        {
          id: media,
          tenant_id: tenant,
          module_id: m.id,
          content_id: null,
          kind: 'audio',
          bucket: '..',
          object_key: `../../../../../../..${outside}`,
          content_type: 'audio/mp4',
          size_bytes: 1,
          duration_seconds: 1,
          status: 'draft',
          created_at: new Date().toISOString(),
          published_at: null,
        },
      ],
    ]);
    await server.dsfa.update({ ...t, params: { id: good.id }, body: { title: 'Gut (neu)' } });
    const r = await sync();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(6);
    const conflicts = JSON.parse(r.stdout).conflicts as Array<{
      id: string;
      entity: string;
      entity_id: string;
      reason: string;
    }>;
    const reason = (entity: string, id: string) =>
      conflicts.find((x) => x.entity === entity && x.entity_id === id)?.reason;
    expect(reason('dsfa', bad.id)).toContain('data_categories: must be JSON text');
    expect(reason('consent', c.id)).toContain('stays revoked');
    expect(reason('training_media', media)).toContain(
      `its location is the store's to choose: bucket training-media, object_key ${mediaFolder(tenant)}/`,
    );
    expect(conflicts).toHaveLength(3);
    expect(existsSync(outside)).toBe(false);
    await onLaptop(laptop, async (l) => {
      // the laptop's commands work, and its records are as its rules allow
      expect((await l.dsfa.list({ tenant, query: {} })).map((d) => d.title).sort()).toEqual(['Gut (neu)', 'Schlecht']);
      expect((await l.consents.list({ tenant, query: {} })).consents[0]!.revoked_at).not.toBeNull();
      expect(await l.trainingMedia.list({ tenant, params: { moduleId: m.id } })).toEqual([]);
      await expectChainIntact(l, tenant);
    });
    // taking the server's version is refused by the same door, naming the rule (exit 5), and writes nothing
    const theirs = await cli([
      '--db',
      laptop,
      '--tenant',
      tenant,
      'sync',
      'resolve',
      conflicts.find((x) => x.entity === 'dsfa')!.id,
      '--theirs',
    ]);
    expect(theirs.code).toBe(5);
    expect(theirs.stderr).toContain('cannot take their version: dsfa');
    expect(theirs.stderr).toContain('data_categories: must be JSON text');
    const media2 = await cli([
      '--db',
      laptop,
      '--tenant',
      tenant,
      'sync',
      'resolve',
      conflicts.find((x) => x.entity === 'training_media')!.id,
      '--theirs',
    ]);
    expect(media2.code).toBe(5);
    await onLaptop(laptop, async (l) => expect((await l.dsfa.list({ tenant, query: {} })).length).toBe(2));
  });

  // An import's batch travels in its compact form (staged rows and the rules that derive the rows from them): a
  // server can put a row there that breaks a rule, and the laptop keeps that form only for rows it wrote exactly so.
  it("refuses a row an import's batch derives past the rules, and journals the rest of that batch row by row", async () => {
    const tenant = 'poisoned-batch';
    const imported = await cli(
      ['--remote', url, '--api-key', key, '--tenant', tenant, 'consents', 'import', 'fixtures/consents/sample.csv'],
      {},
    );
    expect(imported.code).toBe(0);
    const laptop = tmpDb();
    const sync = () => cli(['--db', laptop, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', '--json']);
    expect((await sync()).code).toBe(0);
    const real = (await journalAfter(server, tenant)).find((e) => e.op === 'batch')!;
    // then the same batch again under new ids (pulled alone by the next sync), its second consent granted a year
    // from now
    const data = batchAgain(real, { newIds: true });
    setStaged(data, 'consent', 'granted_at', 1, new Date(Date.now() + 365 * 86_400_000).toISOString());
    await poisonBatch(server, tenant, real.entity_id, data);
    const poisoned = changesOf({ ...real, data }).filter((c) => c.entity === 'consent');

    const r = await sync();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(6);
    const conflicts = JSON.parse(r.stdout).conflicts as Array<{ entity: string; entity_id: string; reason: string }>;
    // the consent granted in the future, and its history entry, which names it
    expect(conflicts.map((c) => c.entity).sort()).toEqual(['consent', 'consent_history']);
    expect(conflicts.find((c) => c.entity === 'consent')).toMatchObject({
      entity_id: poisoned[1]!.id,
      reason: expect.stringContaining('granted_at must not lie in the future'),
    });
    await onLaptop(laptop, async (l) => {
      const held = (await l.consents.list({ tenant, query: { limit: 50 } })).consents.map((c) => c.id);
      expect(held).toHaveLength(2 * poisoned.length - 1);
      expect(held).not.toContain(poisoned[1]!.id);
      // the first batch kept its compact form; of the poisoned one, only the rows that were written, one by one
      const pulled = (await journalAfter(l, tenant)).map((e) => e.data as BatchData);
      const compact = pulled.filter((d) => d.staged);
      expect(compact.map((d) => d.staged!.ids.prefix)).toEqual([(real.data as BatchData).staged!.ids.prefix]);
      const rows = pulled.flatMap((d) => d.groups.filter((g) => g.rows && g.entity === 'consent'));
      expect(rows.flatMap((g) => g.rows!).length).toBe(poisoned.length - 1);
      await expectChainIntact(l, tenant);
    });
  });

  // The journal's batch entries have a shape (changes.ts): one a server sends out of that shape stops the pull with a
  // message naming the entry and what is wrong, before anything of its page is expanded or written.
  it('stops at a batch entry it cannot read, naming it, writes nothing of its page, and says the same again', async () => {
    const tenant = 'unreadable';
    const d = await server.dsfa.create({ tenant, actor: 'sam', body: { title: 'Gut' } });
    const laptop = tmpDb();
    const sync = () => cli(['--db', laptop, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', '--json']);
    expect((await sync()).code).toBe(0);
    await server.dsfa.update({ tenant, actor: 'sam', params: { id: d.id }, body: { title: 'Gut (neu)' } });
    await poisonBatch(server, tenant, 'run-x', {
      groups: [{ entity: 'consent', op: 'insert', key: ['id'], columns: ['id'], derive: 5 as never }],
      staged: { ids: { prefix: 'p', start: 0, step: 1 }, rows: [[0]] },
    });
    const head = (await journalAfter(server, tenant)).at(-1)!.seq;
    for (let attempt = 0; attempt < 2; attempt++) {
      const r = await sync();
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout || r.stderr)).toMatchObject({
        code: 'internal',
        error: `the server at ${url}/sdk/v1 sent journal entry ${head} (consent_import_run run-x) in a form this version cannot read: data.groups.0.derive: expected array, got 5`,
      });
    }
    await onLaptop(laptop, async (l) => {
      // the DSFA's update came in the same page: nothing of it was written
      expect((await l.dsfa.get({ tenant, params: { id: d.id } })).title).toBe('Gut');
      await expectChainIntact(l, tenant);
    });
  });
});
