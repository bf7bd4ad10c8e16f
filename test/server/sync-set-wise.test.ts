import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import { runSync } from '../../src/backend/sync/sync-session.js';
import { systemClock } from '../../src/domain/clock.js';
import { changesOf, type BatchData } from '../../src/domain/journal/changes.js';
import { cli, ENGINE_NAMES, tmp, tmpDb } from '../support/helpers.js';
import { batchAgain, poisonBatch, setStaged, tenantRecords } from '../support/hostile.js';
import { expectChainIntact, journalAfter } from '../support/journal.js';
import { freshPostgresDatabase } from '../support/postgres.js';
import { onLaptop, withSyncServer } from '../support/sync-server.js';

// A pull writes the consents and history entries of an import's batches set-wise: checked at the same door as
// any record, all of a page's batches at once, then inserted in statements of many rows and journaled in the
// batch's compact form. The laptop must end exactly where the record-by-record way ends, on both engines, and a
// hostile server's batch must meet the same refusals.

/** An import file of `n` rows from `first`: grants, refusals, revoked grants, rows without a time or an address. */
function csv(first: number, n: number): string {
  const file = join(tmp(), `import-${first}.csv`);
  const lines = ['user_id,data_point_id,granted,granted_at,revoked_at,consent_version,source,ip_address,user_agent'];
  for (let i = first; i < first + n; i++) {
    const granted = i % 4 !== 1;
    const at = i % 5 === 0 ? '' : `2026-0${1 + (i % 8)}-0${1 + (i % 7)}T10:00:00Z`;
    const revoked = granted && at && i % 3 === 0 ? '2026-09-20T08:00:00+02:00' : '';
    const address = i % 2 ? `192.0.2.${i % 250}` : '';
    lines.push(`user${i}@example.com,dp${i % 6},${granted},${at},${revoked},1.${i % 3},web_banner,${address},UA ${i}`);
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

describe.each(ENGINE_NAMES)('a pull that writes import batches set-wise from a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  const laptopDb = async () => (engine === 'postgres' ? freshPostgresDatabase() : tmpDb());
  const pull = (db: string, tenant: string, rowsPerTransaction?: number) =>
    runSync({ db, tenant, clock: systemClock }, { url, apiKey: key }, { rowsPerTransaction });
  const importOn = async (tenant: string, file: string) => {
    const r = await cli(['--remote', url, '--api-key', key, '--tenant', tenant, 'consents', 'import', file], {});
    expect(r.code, r.stderr).toBe(0);
  };

  it('ends with every record as the server holds it, the batches journaled compact, in one transaction or many', async () => {
    const tenant = 'sw-clone';
    const as = { tenant, actor: 'sam' };
    await importOn(tenant, csv(0, 40));
    await server.consents.create({ ...as, body: { user_id: 'api@example.com', data_point_id: 'dp1', granted: true } });
    await importOn(tenant, csv(40, 60));
    await importOn(tenant, csv(100, 25));
    const batches = (await journalAfter(server, tenant)).filter((e) => e.op === 'batch');
    expect(batches).toHaveLength(3);
    const held = await tenantRecords(server, tenant);

    // every page in one transaction (the three batches checked together), and every entry in one of its own
    for (const rows of [1_000_000, 1]) {
      const laptop = await laptopDb();
      const summary = await pull(laptop, tenant, rows);
      expect(summary.conflicts).toEqual([]);
      expect(summary.pulled.consents).toBe(held.tables.consent!.length + held.tables.consent_history!.length + 3);
      await onLaptop(laptop, async (l) => {
        expect((await tenantRecords(l, tenant)).tables).toEqual(held.tables);
        const pulled = await journalAfter(l, tenant);
        // each batch once, in the server's compact form, and no consent or history row of a batch written out
        const compact = pulled.filter((e) => (e.data as BatchData).staged);
        expect(compact.map((e) => (e.data as BatchData).staged!.ids.prefix)).toEqual(
          batches.map((e) => (e.data as BatchData).staged!.ids.prefix),
        );
        // written set-wise: each batch's entry holds its derived groups alone (the run's record came before)
        for (const e of compact) expect((e.data as BatchData).groups.every((g) => g.derive)).toBe(true);
        const written = pulled
          .filter((e) => !(e.data as BatchData).staged)
          .flatMap((e) => changesOf(e))
          .filter((c) => c.entity === 'consent' || c.entity === 'consent_history');
        expect(written.map((c) => (c.row as { user_id?: string }).user_id ?? 'history')).toEqual([
          'api@example.com',
          'history',
        ]);
        await expectChainIntact(l, tenant);
      });
      // a sync after it has nothing to move either way
      const again = await pull(laptop, tenant);
      expect([again.pulled, again.pushed, again.conflicts]).toEqual([{}, {}, []]);
    }
  });

  // the summary counts each record once: a consent of a batch written set-wise, then revoked in a later entry (a
  // record-by-record write), is one record pulled
  it('counts a record of a batch written set-wise once when a later entry changes it', async () => {
    const tenant = 'sw-count';
    await importOn(tenant, csv(300, 10));
    const imported = (await tenantRecords(server, tenant)).tables.consent as Array<Record<string, unknown>>;
    const open = imported.find((c) => c.granted === 1 && c.revoked_at === null)!;
    await server.consents.revoke({ tenant, actor: 'sam', params: { id: String(open.id) } });
    const held = await tenantRecords(server, tenant);
    for (const rows of [1_000_000, 1]) {
      const laptop = await laptopDb();
      const summary = await pull(laptop, tenant, rows);
      expect(summary.conflicts).toEqual([]);
      expect(summary.pulled.consents).toBe(held.tables.consent!.length + held.tables.consent_history!.length + 1);
      await onLaptop(laptop, async (l) => {
        expect((await tenantRecords(l, tenant)).tables).toEqual(held.tables);
        // an entry per transaction: the batch went set-wise (its entry holds its derived groups alone); in one
        // transaction with the revocation it goes the record-by-record way
        const compact = (await journalAfter(l, tenant)).filter((e) => (e.data as BatchData).staged);
        expect(compact).toHaveLength(1);
        expect((compact[0]!.data as BatchData).groups.every((g) => g.derive)).toBe(rows === 1);
      });
    }
  });

  it('refuses a batch whose ids another tenant here holds, as the record-by-record way does', async () => {
    const mine = 'sw-first';
    const theirs = 'sw-second';
    await importOn(mine, csv(200, 12));
    const laptop = await laptopDb();
    expect((await pull(laptop, mine)).conflicts).toEqual([]);
    const before = await onLaptop(laptop, (l) => tenantRecords(l, mine));
    // the server sends the other tenant the same batch under the same ids
    const real = (await journalAfter(server, mine)).find((e) => e.op === 'batch')!;
    const data = batchAgain(real, { tenant: theirs });
    await poisonBatch(server, theirs, real.entity_id, data);

    const summary = await pull(laptop, theirs);
    const ids = changesOf({ ...real, data }).map((c) => c.id);
    expect(summary.conflicts.map((c) => c.entity_id).sort()).toEqual([...ids].sort());
    for (const c of summary.conflicts) expect(c.reason).toMatch(/cannot be written: the id is taken/);
    await onLaptop(laptop, async (l) => {
      expect((await tenantRecords(l, mine)).tables).toEqual(before.tables);
      expect((await tenantRecords(l, theirs)).tables.consent).toEqual([]);
      await expectChainIntact(l, mine);
    });
  });

  // the values of a batch's records are checked once per rule's cell (derivedValuesFit); what that check does not
  // cover (the tenant a row names) is still checked for every record, and a value it refuses sends the batch the
  // record-by-record way, which names the rule
  it('refuses the rows of a batch that name another tenant or a time ahead, its values checked once per cell', async () => {
    const tenant = 'sw-cells';
    await importOn(tenant, csv(400, 8));
    const real = (await journalAfter(server, tenant)).find((e) => e.op === 'batch')!;
    const elsewhere = batchAgain(real, { tenant: 'sw-other', newIds: true });
    await poisonBatch(server, tenant, real.entity_id, elsewhere);
    const ahead = batchAgain(real, { newIds: true });
    ahead.staged!.ids.prefix = ahead.staged!.ids.prefix.replace(/^./, 'a');
    const consents = ahead.groups.find((g) => g.entity === 'consent')!;
    const late = new Date(Date.now() + 3_600_000).toISOString();
    consents.derive![0]!.cells[consents.columns.indexOf('created_at')] = ['c', late];
    await poisonBatch(server, tenant, real.entity_id, ahead);

    // an entry per transaction: the batch naming another tenant is checked alone, its values passing the cells' check
    const laptop = await laptopDb();
    const summary = await pull(laptop, tenant, 1);
    const other = changesOf({ ...real, data: elsewhere }).map((c) => c.id);
    const later = changesOf({ ...real, data: ahead }).filter((c) => c.entity === 'consent');
    const reasons = new Map(summary.conflicts.map((c) => [c.entity_id, c.reason]));
    for (const id of other) expect(reasons.get(id)).toMatch(/belongs to tenant sw-other, not sw-cells/);
    for (const c of later) expect(reasons.get(c.id)).toMatch(/created_at lies in the future/);
    // the history entries of the consents refused for their time name records this tenant does not hold
    expect(summary.conflicts).toHaveLength(
      other.length + 2 * later.length + later.filter((c) => c.row!.revoked_at).length,
    );
    await onLaptop(laptop, async (l) => {
      const held = (await tenantRecords(l, tenant)).tables;
      expect(held.consent).toHaveLength(8);
      await expectChainIntact(l, tenant);
    });
  });

  it('takes a batch this store holds already the record-by-record way: the same records again change nothing', async () => {
    const tenant = 'sw-again';
    await importOn(tenant, csv(400, 8));
    const laptop = await laptopDb();
    expect((await pull(laptop, tenant)).conflicts).toEqual([]);
    const before = await onLaptop(laptop, (l) => tenantRecords(l, tenant));
    const real = (await journalAfter(server, tenant)).find((e) => e.op === 'batch')!;
    await poisonBatch(server, tenant, real.entity_id, batchAgain(real));

    const summary = await pull(laptop, tenant);
    expect([summary.pulled, summary.conflicts]).toEqual([{}, []]);
    await onLaptop(laptop, async (l) => {
      expect((await tenantRecords(l, tenant)).tables).toEqual(before.tables);
      await expectChainIntact(l, tenant);
    });
  });

  // a clone's tables hold nothing when it starts, so what it holds of a batch is what this run wrote: a batch sent
  // again in a later transaction of the same run must still find its records held
  it('takes a batch sent again in the same first pull the record-by-record way, the first one having been written', async () => {
    const tenant = 'sw-twice';
    await importOn(tenant, csv(500, 8));
    const held = await tenantRecords(server, tenant);
    const real = (await journalAfter(server, tenant)).find((e) => e.op === 'batch')!;
    await poisonBatch(server, tenant, real.entity_id, batchAgain(real));

    for (const rows of [1_000_000, 1]) {
      const laptop = await laptopDb();
      const summary = await pull(laptop, tenant, rows);
      expect(summary.conflicts).toEqual([]);
      await onLaptop(laptop, async (l) => {
        expect((await tenantRecords(l, tenant)).tables).toEqual(held.tables);
        await expectChainIntact(l, tenant);
      });
    }
  });

  it('refuses the rows of a batch that break a rule and writes the rest, as the record-by-record way does', async () => {
    const tenant = 'sw-rules';
    await importOn(tenant, csv(300, 10));
    const real = (await journalAfter(server, tenant)).find((e) => e.op === 'batch')!;
    // the same batch under new ids, one consent revoked before it was given, one whose user is not a text
    const data = batchAgain(real, { newIds: true });
    setStaged(data, 'consent', 'revoked_at', 2, '2020-01-01T00:00:00.000Z');
    setStaged(data, 'consent', 'user_id', 4, { nested: true });
    await poisonBatch(server, tenant, real.entity_id, data);

    const laptop = await laptopDb();
    const summary = await pull(laptop, tenant);
    const consents = changesOf({ ...real, data }).filter((c) => c.entity === 'consent');
    const refused = summary.conflicts.filter((c) => c.entity === 'consent');
    expect(refused.map((c) => c.entity_id).sort()).toEqual([consents[2]!.id, consents[4]!.id].sort());
    expect(refused.find((c) => c.entity_id === consents[4]!.id)!.reason).toMatch(/does not fit its table: user_id/);
    await onLaptop(laptop, async (l) => {
      const held = (await tenantRecords(l, tenant)).tables.consent!.map((r) => (r as { id: string }).id);
      expect(held).toHaveLength(2 * consents.length - 2);
      expect(held).not.toContain(consents[2]!.id);
      await expectChainIntact(l, tenant);
    });
  });
});
