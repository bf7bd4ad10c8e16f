import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import type { ConsentWithHistory } from '../../src/domain/consents/consent.schema.js';
import { cli, ENGINE_NAMES, freshStore, tmp, tmpDb } from '../support/helpers.js';
import { expectChainIntact, journalAfter } from '../support/journal.js';
import { onLaptop, withSyncServer } from '../support/sync-server.js';

// One decision in force per user and data point holds on the sync door too (issue 36, item 1): a decision recorded
// offline meets the decisions of the server as it would have met them through the API. A refusal revokes the grant
// in force (history entry, consent.revoked, receipt), two grants end with the one given last in force, the same
// refusal again changes nothing, and both sides end alike, through a push, a pull and a bundle.
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

describe.each(ENGINE_NAMES)('one decision in force across a sync, with a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  const sync = (db: string, tenant: string, ...args: string[]) =>
    cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', ...args]);
  const consentsOf = async (b: LocalBackend, tenant: string, user = 'u1'): Promise<ConsentWithHistory[]> =>
    (await b.consents.list({ tenant, query: { user_id: user, limit: 100 } })).consents.sort((a, b) =>
      a.id < b.id ? -1 : 1,
    );
  const sortedHistory = (c: ConsentWithHistory) => [...c.history].sort((a, b) => (a.id < b.id ? -1 : 1));
  const comparable = (list: ConsentWithHistory[]) => list.map((c) => ({ ...c, history: sortedHistory(c) }));

  /** A tenant on the server and a laptop that cloned it before anything of user u1 was recorded. */
  async function cloned(tenant: string): Promise<string> {
    await server.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'u0', data_point_id: 'news', granted: true },
    });
    const laptop = tmpDb();
    expect((await sync(laptop, tenant)).code).toBe(0);
    return laptop;
  }

  /** Both sides hold the same consents of u1, history included, and a sync after moves nothing. */
  async function expectAlike(laptop: string, tenant: string): Promise<ConsentWithHistory[]> {
    const there = await consentsOf(server, tenant);
    await onLaptop(laptop, async (l) => {
      expect(comparable(await consentsOf(l, tenant))).toEqual(comparable(there));
      await expectChainIntact(l, tenant);
    });
    await expectChainIntact(server, tenant);
    const again = await sync(laptop, tenant, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ pulled: {}, pushed: {}, conflicts: [] });
    return there;
  }

  it('a refusal recorded offline revokes the grant the server holds: history, consent.revoked, receipt, both sides alike', async () => {
    const tenant = 'refused-offline';
    const laptop = await cloned(tenant);
    const grant = await server.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'u1', data_point_id: 'news', granted: true, ip_address: '192.0.2.1' },
    });
    const refusal = await onLaptop(laptop, (l) =>
      l.consents.create({
        tenant,
        actor: 'lea',
        body: { user_id: 'u1', data_point_id: 'news', granted: false, source: 'phone' },
      }),
    );
    const r = await sync(laptop, tenant, '--json');
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).conflicts).toEqual([]);
    expect(r.code).toBe(0);
    const there = await expectAlike(laptop, tenant);
    const g = there.find((c) => c.id === grant.id)!;
    expect(g.revoked_at).toBe(refusal.granted_at);
    expect(g.history.map((h) => h.action)).toEqual(['granted', 'revoked']);
    expect(g.history[1]).toMatchObject({ created_at: refusal.granted_at, source: 'phone' });
    expect(there.filter((c) => c.granted && c.revoked_at === null)).toEqual([]);
    // the revocation is a journal entry of the server's, from which consent.revoked is sent
    const entries = await journalAfter(server, tenant);
    const revoked = entries.filter(
      (e) => e.entity === 'consent_history' && (e.data as { action?: string } | null)?.action === 'revoked',
    );
    expect(revoked.map((e) => (e.data as { consent_id: string }).consent_id)).toEqual([grant.id]);
    // the receipt says it is no longer in force
    const receipt = await server.consents.receipt({ tenant, params: { id: grant.id } });
    expect(JSON.stringify(receipt)).toContain(refusal.granted_at);
  });

  it('a grant recorded offline while the server holds one: the one given last stays in force, the other is revoked', async () => {
    const tenant = 'two-grants';
    const laptop = await cloned(tenant);
    const first = await server.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'u1', data_point_id: 'news', granted: true, consent_version: '1.0' },
    });
    const second = await onLaptop(laptop, (l) =>
      l.consents.create({
        tenant,
        actor: 'lea',
        body: { user_id: 'u1', data_point_id: 'news', granted: true, consent_version: '2.0' },
      }),
    );
    const r = await sync(laptop, tenant, '--json');
    expect(JSON.parse(r.stdout).conflicts).toEqual([]);
    expect(r.code).toBe(0);
    const there = await expectAlike(laptop, tenant);
    expect(there.filter((c) => c.granted && c.revoked_at === null).map((c) => c.id)).toEqual([second.id]);
    const old = there.find((c) => c.id === first.id)!;
    expect(old.revoked_at).toBe(second.granted_at);
    expect(old.history.map((h) => h.action)).toEqual(['granted', 'revoked']);
  });

  it('a refusal on the server after a grant recorded offline: the laptop’s grant ends revoked on both sides', async () => {
    const tenant = 'refused-there';
    const laptop = await cloned(tenant);
    const grant = await onLaptop(laptop, (l) =>
      l.consents.create({
        tenant,
        actor: 'lea',
        body: { user_id: 'u1', data_point_id: 'news', granted: true, granted_at: minutesAgo(10) },
      }),
    );
    const refusal = await server.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'u1', data_point_id: 'news', granted: false },
    });
    const r = await sync(laptop, tenant, '--json');
    expect(JSON.parse(r.stdout).conflicts).toEqual([]);
    expect(r.code).toBe(0);
    const there = await expectAlike(laptop, tenant);
    const g = there.find((c) => c.id === grant.id)!;
    expect(g.revoked_at).toBe(refusal.granted_at);
    expect(g.history.map((h) => h.action)).toEqual(['granted', 'revoked']);
  });

  it('the same refusal again from a laptop changes nothing: no second revocation', async () => {
    const tenant = 'refused-twice';
    const laptop = await cloned(tenant);
    const grant = await server.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'u1', data_point_id: 'news', granted: true, granted_at: minutesAgo(10) },
    });
    const refusal = await server.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'u1', data_point_id: 'news', granted: false, granted_at: minutesAgo(5) },
    });
    await onLaptop(laptop, (l) =>
      l.consents.create({ tenant, actor: 'lea', body: { user_id: 'u1', data_point_id: 'news', granted: false } }),
    );
    const r = await sync(laptop, tenant, '--json');
    expect(JSON.parse(r.stdout).conflicts).toEqual([]);
    const there = await expectAlike(laptop, tenant);
    const g = there.find((c) => c.id === grant.id)!;
    expect(g.revoked_at).toBe(refusal.granted_at);
    expect(g.history.map((h) => h.action)).toEqual(['granted', 'revoked']);
  });

  it('a bundle holding a refusal revokes the grant of the store it is imported into', async () => {
    const tenant = 'refused-bundle';
    const target = await freshStore(engine);
    const grant = await onLaptop(target, (b) =>
      b.consents.create({
        tenant,
        actor: 'sam',
        body: { user_id: 'u1', data_point_id: 'news', granted: true, granted_at: minutesAgo(10) },
      }),
    );
    const laptop = tmpDb();
    const refusal = await onLaptop(laptop, (l) =>
      l.consents.create({ tenant, actor: 'lea', body: { user_id: 'u1', data_point_id: 'news', granted: false } }),
    );
    const bundle = join(tmp(), 'refusal.bundle');
    expect((await cli(['--db', laptop, '--tenant', tenant, 'export', '-o', bundle])).code).toBe(0);
    const imported = await cli(['--db', target, '--tenant', tenant, 'import', bundle]);
    expect(imported.stderr).not.toContain('Error');
    expect(imported.code).toBe(0);
    await onLaptop(target, async (b) => {
      const list = await consentsOf(b, tenant);
      const g = list.find((c) => c.id === grant.id)!;
      expect(g.revoked_at).toBe(refusal.granted_at);
      expect(g.history.map((h) => h.action)).toEqual(['granted', 'revoked']);
      expect(list.filter((c) => c.granted && c.revoked_at === null)).toEqual([]);
      await expectChainIntact(b, tenant);
      // the same bundle again changes nothing
      expect((await cli(['--db', target, '--tenant', tenant, 'import', bundle])).code).toBe(0);
    });
    await onLaptop(target, async (b) =>
      expect((await consentsOf(b, tenant)).find((c) => c.id === grant.id)!.history).toHaveLength(2),
    );
  });
});
