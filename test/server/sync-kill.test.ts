import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, ENGINE_NAMES, tmp, tmpDb } from '../support/helpers.js';
import { withSyncServer } from '../support/sync-server.js';
import { expectChainIntact, journalHead } from '../support/journal.js';
import { BIN } from '../support/serve-process.js';

// `compliance sync` as a real process, killed with SIGKILL in the middle of its pull and then of its push (no
// chance to clean up), and run again: it completes, and both stores hold the same records, each once, with their
// journal chains intact. The tenant is large enough for several pages each way (1,000 journal entries a page,
// 1,000 records a push).
const T = 'kill';
const USERS = 1200; // an assignment and its audit entry each: 2,400 entries, three pages each way

describe.each(ENGINE_NAMES)('a sync killed as a process, with a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  /** Starts `compliance sync` and answers once `until` holds (checked every few milliseconds), killing it then. */
  async function killedWhen(db: string, until: () => Promise<boolean> | boolean) {
    const proc = spawn(process.execPath, [BIN, '--db', db, '--remote', url, '--api-key', key, '--tenant', T, 'sync'], {
      env: { ...process.env, HOME: tmp(), COMPLIANCE_USER: 'lea' },
    });
    let err = '';
    proc.stderr.on('data', (c) => (err += c));
    proc.stdout.resume();
    const exited = new Promise<NodeJS.Signals | number | null>((r) =>
      proc.on('exit', (code, signal) => r(signal ?? code)),
    );
    let done: NodeJS.Signals | number | null | undefined;
    void exited.then((x) => (done = x));
    for (;;) {
      if (done !== undefined) throw new Error(`the sync ended (${String(done)}) before it could be killed: ${err}`);
      if (await until()) break;
      await new Promise((r) => setTimeout(r, 3));
    }
    proc.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
  }

  /** The laptop's position in the server's journal, read from its store file while the sync runs. */
  const pulledSeq = (db: string): number => {
    if (!existsSync(db)) return 0;
    const file = new Database(db, { readonly: true, fileMustExist: true });
    try {
      const r = file.prepare('select pulled_seq from sync_state where tenant_id = ?').get(T) as
        { pulled_seq: number } | undefined;
      return r ? Number(r.pulled_seq) : 0;
    } catch {
      return 0; // not migrated yet
    } finally {
      file.close();
    }
  };

  const assignments = async (b: LocalBackend) => {
    const all: Array<{ id: string }> = [];
    for (let offset = 0; ; offset += 500) {
      const page = await b.training.listAssignments({ tenant: T, query: { limit: 500, offset } });
      all.push(...page);
      if (page.length < 500) return all.sort((x, y) => x.id.localeCompare(y.id));
    }
  };
  const staff = (prefix: string) =>
    Array.from({ length: USERS }, (_, i) => ({
      user_id: `${prefix}-${i}`,
      user_name: `User ${prefix} ${i}`,
      user_email: `${prefix}${i}@example.com`,
      roles: ['R1'],
    }));

  it('killed mid-pull and mid-push, run again: the same records on both sides, each once, chains intact', async () => {
    const m = await server.training.createModule({
      tenant: T,
      actor: 'sam',
      body: { module_code: 'NET-1', title: 'Sicher im Netz', regulation_area: 'nis2', frequency_type: 'micro' },
    });
    await server.training.setMatrix({ tenant: T, actor: 'sam', body: { role_code: 'R1', module_id: m.id } });
    expect(await server.training.computeMany({ tenant: T, actor: 'sam', body: { users: staff('s') } })).toMatchObject({
      created: USERS,
    });
    const serverHead = await journalHead(server, T);
    expect(serverHead).toBeGreaterThan(2000);

    // the pull: killed once its first page is applied, before its last
    const laptop = tmpDb();
    await killedWhen(laptop, () => pulledSeq(laptop) > 0);
    const cut = pulledSeq(laptop);
    expect(cut).toBeGreaterThan(0);
    expect(cut).toBeLessThan(serverHead);
    const resumed = await cli(['--db', laptop, '--remote', url, '--api-key', key, '--tenant', T, 'sync', '--json']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ first: false, conflicts: [], pulled_seq: serverHead });
    const laptopBackend = await createLocalBackend(laptop);
    try {
      expect(await assignments(laptopBackend)).toEqual(await assignments(server));
      // the push's material: as many assignments again, made offline on the laptop
      expect(
        await laptopBackend.training.computeMany({ tenant: T, actor: 'lea', body: { users: staff('l') } }),
      ).toMatchObject({ created: USERS });
    } finally {
      await laptopBackend.close();
    }

    // the push: killed once the server applied a first part of it, before the last
    await killedWhen(laptop, async () => (await journalHead(server, T)) > serverHead);
    expect((await assignments(server)).length).toBeLessThan(2 * USERS);
    const again = await cli(['--db', laptop, '--remote', url, '--api-key', key, '--tenant', T, 'sync', '--json']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).conflicts).toEqual([]);
    // everything arrived, once
    const there = await assignments(server);
    expect(there).toHaveLength(2 * USERS);
    const after = await createLocalBackend(laptop);
    try {
      expect(await assignments(after)).toEqual(there);
      await expectChainIntact(after, T);
    } finally {
      await after.close();
    }
    await expectChainIntact(server, T);
    // nothing left to move
    const idle = await cli(['--db', laptop, '--remote', url, '--api-key', key, '--tenant', T, 'sync', '--json']);
    expect(JSON.parse(idle.stdout)).toMatchObject({ pulled: {}, pushed: {}, conflicts: [] });
  }, 120_000);
});
