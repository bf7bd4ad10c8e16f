import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import type { JournalStore, TrailColumns } from '../../src/domain/journal/journal-store.port.js';
import { JournalService } from '../../src/domain/journal/journal.service.js';
import { everyTenantJournal } from '../../src/store/journal/journal.store.js';
import { ENGINE_NAMES, freshStore } from '../support/helpers.js';
import { BIN } from '../support/serve-process.js';

/**
 * `audit verify` on a store that is being written (a server taking consents): the audit trails are compared with
 * the journal's entries up to the snapshot the trails were read in, so a write committed meanwhile (a journal entry
 * and its trail row) is never taken for a row deleted or inserted outside the journal.
 */
const T = { tenant: 'acme', actor: 'alice' };
const grant = (local: LocalBackend, i: number) =>
  local.consents.create({ ...T, body: { user_id: `u${i}@example.de`, data_point_id: 'newsletter', granted: true } });

async function storeWithConsents(engine: 'sqlite' | 'postgres') {
  const target = await freshStore(engine);
  const local = await createLocalBackend(target);
  for (let i = 0; i < 5; i++) await grant(local, i);
  return { target, local };
}

// the trails compared by their tallies (as audit verify does first) and row by row (where tallies differ)
const MODES = ENGINE_NAMES.flatMap((engine) => [true, false].map((tallied) => ({ engine, tallied })));

describe.each(MODES)(
  'audit verify while the store is written, on $engine (tallied: $tallied)',
  ({ engine, tallied }) => {
    it('a write committed after the trails were read, while the journal is walked, is no tampering', async () => {
      const { local } = await storeWithConsents(engine);
      const journal = everyTenantJournal(local.store);
      let written = false;
      // the walk's first page is read once the trails' snapshot has been taken: a write lands between the two
      const store: JournalStore = Object.assign(Object.create(journal) as JournalStore, {
        trailSnapshot: async (tenant: string, trails: TrailColumns, tally?: string) => {
          const { read } = await journal.trailSnapshot!(tenant, trails, tally);
          const snap = await read;
          await grant(local, 100);
          written = true;
          return { read: Promise.resolve(snap) };
        },
      });
      const [report] = await new JournalService(store).verify('acme', undefined, { tallied });
      expect(written).toBe(true);
      expect(report).toMatchObject({ ok: true, entries: 12 });
      expect(report!.trails).toContainEqual({ table: 'consent_history', rows: 5, ok: true });
      await local.close();
    });

    it('a write committed after the walk, before the trails were read, is followed to the snapshot', async () => {
      const { local } = await storeWithConsents(engine);
      const journal = everyTenantJournal(local.store);
      let walked!: () => void;
      const walkDone = new Promise<void>((resolve) => (walked = resolve));
      const store: JournalStore = Object.assign(Object.create(journal) as JournalStore, {
        page: async (tenant: string, after: number, limit: number) => {
          const rows = await journal.page(tenant, after, limit);
          if (!rows.length) walked();
          return rows;
        },
        verifyPage: undefined,
        checkChain: undefined,
        trailSnapshot: async (tenant: string, trails: TrailColumns, tally?: string) => ({
          read: (async () => {
            await walkDone;
            await grant(local, 100);
            return (await journal.trailSnapshot!(tenant, trails, tally)).read;
          })(),
        }),
      });
      const [report] = await new JournalService(store).verify('acme', undefined, { tallied });
      expect(report).toMatchObject({ ok: true, entries: 12, head: { seq: 12 } });
      expect(report!.trails).toContainEqual({ table: 'consent_history', rows: 6, ok: true });
      await local.close();
    });
  },
);

describe.runIf(ENGINE_NAMES.includes('sqlite'))('audit verify of the built program while consents are written', () => {
  it('finds nothing wrong, on threads and on one', async () => {
    const { target, local } = await storeWithConsents('sqlite');
    let stop = false;
    let i = 1000;
    // a write every few milliseconds (SQLite's calls are synchronous: the loop waits a tick, or starves the others)
    const writer = (async () => {
      while (!stop) {
        await grant(local, i++);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const verify = (env: Record<string, string>) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const p = spawn(process.execPath, [BIN, '--db', target, '--json', 'audit', 'verify'], {
          env: { ...process.env, ...env },
        });
        let out = '';
        p.stdout.on('data', (c) => (out += c));
        p.on('close', (code) => resolve({ code, out }));
      });
    const runs = [];
    for (let n = 0; n < 3; n++) {
      runs.push(await verify({ COMPLIANCE_VERIFY_THREAD_ROWS: '1' }));
      runs.push(await verify({}));
    }
    stop = true;
    await writer;
    await local.close();
    expect(i - 1000).toBeGreaterThan(20); // writes did land while the verifications ran
    for (const r of runs) {
      expect(r.code, r.out).toBe(0);
      expect(JSON.parse(r.out)[0]).toMatchObject({ tenant: 'acme', ok: true });
    }
  });
});
