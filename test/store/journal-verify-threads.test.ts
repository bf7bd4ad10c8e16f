import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { JournalService } from '../../src/domain/journal/journal.service.js';
import { KyselyJournalStore } from '../../src/store/journal/journal.store.js';
import type { VerifyThreads } from '../../src/store/journal/verify-jobs.js';
import { cli, freshStore } from '../support/helpers.js';
import { builtCli } from '../support/serve-process.js';

/**
 * `audit verify` reads a large store on threads of its own (COMPLIANCE_VERIFY_THREAD_ROWS, 50,000 rows by default;
 * 1 here, so a small store does): the chain in ranges, the audit trails as texts SQLite builds, digested beside the
 * walk. What only those paths meet is tried here; journal-tamper.test.ts runs every tampering through them too.
 */
const THREADS = { COMPLIANCE_VERIFY_THREAD_ROWS: '1' };

async function storeWithTrail(): Promise<string> {
  const target = await freshStore('sqlite');
  const local = await createLocalBackend(target);
  for (const title of ['Videoüberwachung', 'Bewerbermanagement', 'Zeiterfassung', 'Hinweisgebersystem'])
    await local.dsfa.create({ tenant: 'acme', actor: 'alice', body: { title } });
  await local.close();
  return target;
}

const verifyBoth = async (target: string) => {
  const here = await cli(['--db', target, '--tenant', 'acme', '--json', 'audit', 'verify']);
  const threaded = builtCli(['--db', target, '--tenant', 'acme', '--json', 'audit', 'verify'], THREADS);
  return { here, threaded };
};

describe('audit verify read in threads (SQLite, the built program)', () => {
  it('finds what the walk on one thread finds, in the same words', async () => {
    const target = await storeWithTrail();
    const { here, threaded } = await verifyBoth(target);
    expect(threaded.code, threaded.stderr).toBe(0);
    expect(JSON.parse(threaded.stdout)).toEqual(JSON.parse(here.stdout));
    expect(JSON.parse(threaded.stdout)[0]).toMatchObject({ entries: 8, ok: true });
    // and it did read on threads: a range of the chain per core (two at least) and one for the trails
    const traced = builtCli(['--db', target, '--tenant', 'acme', '--json', 'audit', 'verify'], {
      ...THREADS,
      NODE_DEBUG: 'worker',
    });
    expect(traced.stderr.match(/created Worker with ID/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(traced.stdout)).toEqual(JSON.parse(here.stdout));
  });

  it('a trail value stored as a blob, which SQLite cannot write as JSON, is named as edited, not a failure', async () => {
    const target = await storeWithTrail();
    const db = new Database(target);
    const [row] = db.prepare(`select id from dsfa_audit where tenant_id = 'acme' order by id limit 1`).all() as Array<{
      id: string;
    }>;
    db.prepare('update dsfa_audit set changed_by = ? where id = ?').run(Buffer.from('alice'), row!.id);
    db.close();
    const { here, threaded } = await verifyBoth(target);
    for (const r of [here, threaded]) {
      expect(r.code, r.stderr).toBe(6);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
      expect(JSON.parse(r.stdout)[0].trails[0]).toMatchObject({
        table: 'dsfa_audit',
        ok: false,
        problem: { id: row!.id, kind: 'edited' },
      });
    }
  });

  it('a chain broken in the second range is walked again on one thread, which names the entry', async () => {
    const target = await storeWithTrail();
    const db = new Database(target);
    db.prepare(`update journal set actor = 'mallory' where tenant_id = 'acme' and seq = 7`).run();
    db.close();
    const { here, threaded } = await verifyBoth(target);
    expect(threaded.code).toBe(6);
    expect(JSON.parse(threaded.stdout)).toEqual(JSON.parse(here.stdout));
    expect(JSON.parse(threaded.stdout)[0]).toMatchObject({ entries: 6, problem: { seq: 7, kind: 'edited' } });
  });

  it('a thread that fails leaves its reading to the calling thread, which finds the same', async () => {
    const target = await storeWithTrail();
    const local = await createLocalBackend(target);
    const failing = new KyselyJournalStore(local.store.admin, {
      threads: async () => ({ run: async () => Promise.reject(new Error('the thread stopped')) }) as VerifyThreads,
      threadRows: 1,
    });
    const [report] = await new JournalService(failing).verify('acme');
    const [here] = await new JournalService(new KyselyJournalStore(local.store.admin)).verify('acme');
    await local.close();
    expect(report).toEqual(here);
    expect(report).toMatchObject({ ok: true, entries: 8 });
  });

  it('refuses a size that is not a whole number, naming the variable', () => {
    const r = builtCli(['--db', ':memory:', 'audit', 'verify'], { COMPLIANCE_VERIFY_THREAD_ROWS: 'lots' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/COMPLIANCE_VERIFY_THREAD_ROWS/);
    expect(r.stderr).toMatch(/whole number/);
  });
});
