import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import { openStore } from '../../src/store/open-store.js';
import { cli, ENGINE_NAMES, tmp, tmpDb } from '../support/helpers.js';
import { BIN } from '../support/serve-process.js';
import { onLaptop, withSyncServer } from '../support/sync-server.js';

// A large pull through the built CLI stores no agreed version for the records it writes: they are agreed as they
// are until changed here, and a change here is pushed over the version the journal shows before it. A base out of
// place would show as a false conflict: a record changed on one side only must travel either way.
const T = 'hash';
const run = promisify(execFile);

describe.each(ENGINE_NAMES)('a large pull from a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  /** How many agreed versions the laptop's store holds: one per record would cost a clone a fifth of its time. */
  const storedVersions = async (db: string) => {
    const store = await openStore(db);
    try {
      const r = await store.db
        .selectFrom('sync_base')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    } finally {
      await store.close();
    }
  };

  /** The built CLI in a process of its own, as a consultant runs it. */
  const syncBuilt = async (db: string) => {
    const r = await run(process.execPath, [
      BIN,
      '--db',
      db,
      '--remote',
      url,
      '--api-key',
      key,
      '--tenant',
      T,
      'sync',
      '--json',
    ]);
    return JSON.parse(r.stdout) as {
      pulled: Record<string, number>;
      pushed: Record<string, number>;
      conflicts: unknown[];
    };
  };

  it('agrees on every record it cloned without storing a version of each', async () => {
    const as = { tenant: T, actor: 'sam' };
    const [kept, theirs] = [
      await server.dsfa.create({ ...as, body: { title: 'Kamera' } }),
      await server.dsfa.create({ ...as, body: { title: 'Zeiterfassung' } }),
    ];
    const csv = join(tmp(), 'consents.csv');
    const lines = ['user_id,data_point_id,granted,granted_at,consent_version,source'];
    for (let i = 0; i < 1500; i++) lines.push(`u${i}@example.com,dp${i % 7},true,2026-03-01T10:00:00Z,1.0,web_banner`);
    writeFileSync(csv, lines.join('\n') + '\n');
    const imported = await cli(['--remote', url, '--api-key', key, '--tenant', T, 'consents', 'import', csv]);
    expect(imported.code).toBe(0);

    const laptop = tmpDb();
    const first = await syncBuilt(laptop);
    expect(await storedVersions(laptop)).toBe(0);
    expect(first.pulled).toEqual({ dsfa: 4, consents: 3001 });
    expect(first.conflicts).toEqual([]);

    // one record changed on each side: each travels, neither is a conflict
    const consent = (await server.consents.list({ ...as, query: { user_id: 'u7@example.com' } })).consents[0]!;
    await server.dsfa.update({ ...as, params: { id: theirs.id }, body: { title: 'Zeiterfassung (Server)' } });
    await server.consents.revoke({ ...as, params: { id: consent.id } });
    await onLaptop(laptop, (l) =>
      l.dsfa.update({ tenant: T, actor: 'lea', params: { id: kept.id }, body: { title: 'Kamera (Lea)' } }),
    );
    const second = await syncBuilt(laptop);
    expect(second.conflicts).toEqual([]);
    expect(second.pulled).toEqual({ dsfa: 2, consents: 2 });
    expect(second.pushed).toEqual({ dsfa: 2 });
    expect((await server.dsfa.get({ ...as, params: { id: kept.id } })).title).toBe('Kamera (Lea)');
    await onLaptop(laptop, async (l) => {
      expect((await l.dsfa.get({ ...as, params: { id: theirs.id } })).title).toBe('Zeiterfassung (Server)');
      const [mine] = (await l.consents.list({ ...as, query: { user_id: 'u7@example.com' } })).consents;
      expect(mine?.revoked_at).not.toBeNull();
    });
    // the pushed records keep the version they were sent in until the server's echo of them comes back
    expect(await storedVersions(laptop)).toBe(2);
    expect(await syncBuilt(laptop)).toMatchObject({ pulled: {}, pushed: {}, conflicts: [] });
    expect(await storedVersions(laptop)).toBe(0);
  });
});
