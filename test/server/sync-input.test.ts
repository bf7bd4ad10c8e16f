import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../src/domain/clock.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { forRequest } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { storeMedium } from '../support/media.js';
import { MediaRef } from '../../src/domain/training/media-ref.js';
import { withSyncServer } from '../support/sync-server.js';
import { bytesOf, cli, freePort, tmp, tmpDb } from '../support/helpers.js';
import { expectChainIntact, journalAfter } from '../support/journal.js';

// What a sync refuses, each in one line with its exit code, leaving both stores as they were; a dry run moves
// nothing; an import's batch entries travel as their rows.
describe('compliance sync: bad input, dry run, bulk imports', () => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer('sqlite', (s) => ({ server, url, key } = s));
  beforeAll(async () => {
    await server.dsfa.create({ tenant: 'acme', actor: 'sam', body: { title: 'Kamera' } });
  });
  const sync = (db: string, args: string[], remote = url, apiKey = key) =>
    cli(['--db', db, '--remote', remote, '--api-key', apiKey, '--tenant', 'acme', 'sync', ...args]);
  const oneLine = (s: string) => expect(s.trim().split('\n')).toHaveLength(1);

  it('refuses a wrong key (4), an unknown tenant (3), no --remote (2), an unreachable server (1)', async () => {
    const db = tmpDb();
    const wrongKey = await sync(db, [], url, 'cmp_nope_nope');
    expect(wrongKey.code).toBe(4);
    oneLine(wrongKey.stderr);
    const unknown = await cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', 'acne', 'sync']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('tenant acne has no records on');
    expect(unknown.stderr).toContain('--new-tenant');
    oneLine(unknown.stderr);
    const noRemote = await cli(['--db', db, '--tenant', 'acme', 'sync']);
    expect(noRemote.code).toBe(2);
    expect(noRemote.stderr).toContain('--remote');
    const down = await sync(db, [], `http://127.0.0.1:${await freePort()}`);
    expect(down.code).toBe(1);
    oneLine(down.stderr);
    // nothing was written on the laptop: its status knows no sync
    const status = await cli(['--db', db, '--tenant', 'acme', 'sync', 'status']);
    expect(status.stdout).toContain('never been synced');
  });

  it('refuses a server of another schema (5) before anything moves', async () => {
    const other: Server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          protocol: 1,
          version: '0.0.1',
          schema: '0016_consent_import_runs',
          tenant: 'acme',
          head_seq: 3,
          entities: ['dsfa'],
        }),
      );
      void req;
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    const r = await sync(tmpDb(), [], url);
    other.close();
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('schema 0016_consent_import_runs');
    oneLine(r.stderr);
  });

  it('resolve: needs --ours or --theirs (2), not both (2), an unknown conflict is not found (3)', async () => {
    const db = tmpDb();
    expect((await cli(['--db', db, 'sync', 'resolve', 'abc'])).code).toBe(2);
    expect((await cli(['--db', db, 'sync', 'resolve', 'abc', '--ours', '--theirs'])).code).toBe(2);
    const missing = await cli(['--db', db, 'sync', 'resolve', 'abcdefgh', '--ours']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('conflict abcdefgh not found');
  });

  it('a dry run says what would move and changes nothing on either side', async () => {
    const db = tmpDb();
    const dry = await sync(db, ['--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, first: true, pulled: { dsfa: 2 } });
    const status = await cli(['--db', db, '--tenant', 'acme', 'sync', 'status']);
    expect(status.stdout).toContain('never been synced');
    // a real clone, then an offline change: the dry run names it, the server still lacks it
    expect((await sync(db, [])).code).toBe(0);
    const laptop = await createLocalBackend(db);
    const d = await laptop.dsfa.create({ tenant: 'acme', actor: 'lea', body: { title: 'Offline' } });
    await laptop.close();
    const head = (await journalAfter(server, 'acme')).length;
    const plan = await sync(db, ['--dry-run']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('would push\tdsfa 2');
    expect((await journalAfter(server, 'acme')).length).toBe(head);
    expect((await server.dsfa.list({ tenant: 'acme', query: {} })).map((x) => x.id)).not.toContain(d.id);
    const st = await cli(['--db', db, '--tenant', 'acme', 'sync', 'status', '--json']);
    expect(JSON.parse(st.stdout).remotes[0].unsynced).toEqual({ dsfa: 1 }); // the DSFA, not its audit entry
    expect((await sync(db, [])).code).toBe(0);
    expect((await server.dsfa.list({ tenant: 'acme', query: {} })).map((x) => x.id)).toContain(d.id);
  });

  it('media files travel with their records: the laptop answers the same bytes', async () => {
    const tenant = 'media';
    const mod = await server.training.createModule({
      tenant,
      actor: 'sam',
      body: { module_code: 'NET-1', title: 'Sicher im Netz', regulation_area: 'nis2', frequency_type: 'micro' },
    });
    const bytes = Buffer.from('not really an m4a, but bytes all the same');
    const id = '01970000-0000-7000-8000-00000000abcd';
    await storeMedium(server, { tenant, moduleId: mod.id, id, kind: 'audio', bytes });
    const db = tmpDb();
    const r = await cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync']);
    expect(r.code).toBe(0);
    const made = Buffer.from('made offline');
    const other = join(tmp(), 'b.m4a');
    const id2 = '01970000-0000-7000-8000-00000000abce';
    const ref2 = MediaRef.of(tenant, mod.id, id2, 'audio');
    const key2 = ref2.key;
    const laptop = await createLocalBackend(db);
    try {
      const got = await laptop.trainingMedia.download({ tenant, params: { mediaId: id } });
      expect(await bytesOf(got)).toEqual(bytes);
      expect(await laptop.trainingMedia.list({ tenant, params: { moduleId: mod.id } })).toEqual(
        await server.trainingMedia.list({ tenant, params: { moduleId: mod.id } }),
      );
      // and back: a medium made on the laptop reaches the server with its file
      writeFileSync(other, made);
      await (await laptop.store.mediaObjects()).put(ref2, other);
      const lu = createUnitOfWork(laptop.store, systemClock, uuidv7Source());
      await forRequest({ tenant, actor: 'lea', principal: 'test' }, () =>
        lu.write(tenant, async (tx) => {
          const row = (await tx.replica.read(tenant, 'training_media', id))!;
          await tx.replica.apply(tenant, 'training_media', id2, {
            ...row,
            id: id2,
            object_key: key2,
            size_bytes: made.length,
          });
        }),
      );
    } finally {
      await laptop.close();
    }
    const back = await cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', '--json']);
    expect(back.code).toBe(0);
    expect(JSON.parse(back.stdout).pushed).toEqual({ training: 1 });
    const there = await server.trainingMedia.download({ tenant, params: { mediaId: id2 } });
    expect(await bytesOf(there)).toEqual(made);
  });

  it('an import on the server (batch entries) arrives as its consents and their history', async () => {
    const imported = await cli([
      '--remote',
      url,
      '--api-key',
      key,
      '--tenant',
      'imp',
      'consents',
      'import',
      'fixtures/consents/sample.csv',
    ]);
    expect(imported.code).toBe(0);
    const db = tmpDb();
    const r = await cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', 'imp', 'sync', '--json']);
    expect(r.code).toBe(0);
    const laptop = await createLocalBackend(db);
    try {
      const theirs = await server.consents.list({ tenant: 'imp', query: { limit: 500 } });
      expect(theirs.total).toBeGreaterThan(0);
      expect(await laptop.consents.list({ tenant: 'imp', query: { limit: 500 } })).toEqual(theirs);
      expect(await laptop.consents.imports({ tenant: 'imp', query: {} })).toEqual(
        await server.consents.imports({ tenant: 'imp', query: {} }),
      );
      await expectChainIntact(laptop, 'imp');
    } finally {
      await laptop.close();
    }
  });
});
