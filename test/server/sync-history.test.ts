import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import type { ConsentWithHistory } from '../../src/domain/consents/consent.schema.js';
import { eventsOf } from '../../src/domain/events/event.map.js';
import type { StoredEntry } from '../../src/domain/journal/chain.js';
import { cli, ENGINE_NAMES, tmp, tmpDb } from '../support/helpers.js';
import { heldRow, push, tenantState, versionOf } from '../support/hostile.js';
import { expectChainIntact, journalAfter } from '../support/journal.js';
import { onLaptop, withSyncServer } from '../support/sync-server.js';

// A consent's history merged by a sync keeps the consent's rules (issue 35 item 2, issue 36 item 5): a `revoked`
// entry goes with its consent's revocation, on every door, so a consent the server keeps unrevoked never gains one;
// a consent revoked on both sides ends with one revocation, the server's, on both sides, with one consent.revoked.
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

interface Conflict {
  id: string;
  entity: string;
  entity_id: string;
  reason: string;
}
interface PushAnswer {
  applied: number;
  unchanged: number;
  conflicts: Array<{ entity: string; entity_id: string; reason: string; theirs: unknown }>;
}

describe.each(ENGINE_NAMES)('a consent’s history across a sync, with a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  const sync = (db: string, tenant: string, ...args: string[]) =>
    cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', ...args]);
  const conflictsOf = (stdout: string) => JSON.parse(stdout).conflicts as Conflict[];
  const actions = (c: ConsentWithHistory) => c.history.map((h) => h.action);
  const only = async (b: LocalBackend, tenant: string) => {
    const list = (await b.consents.list({ tenant, query: {} })).consents;
    expect(list).toHaveLength(1);
    return list[0]!;
  };
  const revokedEvents = async (b: LocalBackend, tenant: string) =>
    (await journalAfter(b, tenant))
      .flatMap((e) =>
        eventsOf({ ...e, data: e.data === null ? null : JSON.stringify(e.data) } as unknown as StoredEntry),
      )
      .filter((e) => e.type === 'consent.revoked');

  /** A consent granted on the server and a laptop that cloned the tenant. */
  async function cloned(tenant: string) {
    const consent = await server.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'u1', data_point_id: 'news', granted: true },
    });
    const laptop = tmpDb();
    expect((await sync(laptop, tenant)).code).toBe(0);
    return { consent, laptop };
  }

  it('revoked on the laptop, renewed on the server: the server gains no revoked entry, and the conflict says what can be done', async () => {
    const tenant = 'revoked-renewed';
    const { consent, laptop } = await cloned(tenant);
    await onLaptop(laptop, (l) => l.consents.revoke({ tenant, actor: 'lea', params: { id: consent.id } }));
    await server.consents.renew({ tenant, actor: 'sam', params: { id: consent.id }, body: { consent_version: '2.0' } });
    const r = await sync(laptop, tenant, '--json');
    expect(r.code).toBe(6);
    // the server's consent is not revoked, so its history holds no revocation: granted, then renewed
    const there = await only(server, tenant);
    expect(there).toMatchObject({ consent_version: '2.0', revoked_at: null });
    expect(actions(there)).toEqual(['granted', 'version_update']);
    expect(await revokedEvents(server, tenant)).toEqual([]);
    const all = conflictsOf(r.stdout);
    const c = all.find((x) => x.entity === 'consent')!;
    // no choice of versions settles it: the reason says what the person can do, not that it stays revoked here
    expect(c.reason).not.toContain('it stays revoked at version 1.0');
    expect(c.reason).toContain(
      'no choice of versions settles it: to end the renewal, revoke the consent on the server too (a new decision, not a merge)',
    );
    // the laptop's revocation entry waits with its consent: not pushed, and no conflict of its own
    expect(all.map((x) => x.entity).sort()).toEqual(['consent', 'consent_history']);
    const renewal = all.find((x) => x.entity === 'consent_history')!;
    expect(renewal.reason).toContain('a revoked consent is not renewed');
    // the next sync changes nothing on the server
    const before = await tenantState(server, tenant);
    const again = await sync(laptop, tenant, '--json');
    expect(again.code).toBe(6);
    expect(
      conflictsOf(again.stdout)
        .map((x) => x.id)
        .sort(),
    ).toEqual([c.id, renewal.id].sort());
    expect(await tenantState(server, tenant)).toBe(before);
    await expectChainIntact(server, tenant);
    await onLaptop(laptop, async (l) => {
      const here = await only(l, tenant);
      expect(here).toMatchObject({ consent_version: '1.0', revoked_at: expect.any(String) });
      expect(actions(here)).toEqual(['granted', 'revoked']);
      await expectChainIntact(l, tenant);
    });
    // what the reason says: revoked on the server too, the laptop takes the server's revocation in place of its own
    // (never shared), and the server's renewal, before it, is now the consent's past
    const revoked = await server.consents.revoke({ tenant, actor: 'sam', params: { id: consent.id } });
    const after = await sync(laptop, tenant, '--json');
    expect(conflictsOf(after.stdout).map((x) => x.id)).toEqual([renewal.id]);
    const settled = await cli(['--db', laptop, '--tenant', tenant, 'sync', 'resolve', renewal.id, '--theirs']);
    expect(settled.stderr).toBe('');
    expect(settled.code).toBe(0);
    const last = await sync(laptop, tenant, '--json');
    expect(conflictsOf(last.stdout)).toEqual([]);
    expect(last.code).toBe(0);
    const final = await only(server, tenant);
    expect(final).toMatchObject({ consent_version: '2.0', revoked_at: revoked.revoked_at });
    expect(actions(final)).toEqual(['granted', 'version_update', 'revoked']);
    expect(await revokedEvents(server, tenant)).toHaveLength(1);
    await onLaptop(laptop, async (l) => {
      expect(await only(l, tenant)).toEqual(final);
      await expectChainIntact(l, tenant);
    });
  });

  it('revoked on the laptop after the server renewed it: the entry waits for the consent’s conflict, then goes with it', async () => {
    const tenant = 'renewed-revoked';
    const { consent, laptop } = await cloned(tenant);
    await server.consents.renew({ tenant, actor: 'sam', params: { id: consent.id }, body: { consent_version: '2.0' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await onLaptop(laptop, (l) => l.consents.revoke({ tenant, actor: 'lea', params: { id: consent.id } }));
    const r = await sync(laptop, tenant, '--json');
    expect(r.code).toBe(6);
    const c = conflictsOf(r.stdout);
    expect(c.map((x) => x.entity)).toEqual(['consent']);
    // the server holds no revocation entry while its consent is in force
    const before = await only(server, tenant);
    expect(before.revoked_at).toBeNull();
    expect(actions(before)).toEqual(['granted', 'version_update']);
    // kept here: the revocation comes after the renewal, so the server takes it, its entry with it
    const ours = await cli(['--db', laptop, '--tenant', tenant, 'sync', 'resolve', c[0]!.id, '--ours']);
    expect(ours.stderr).toBe('');
    expect(ours.code).toBe(0);
    const pushed = await sync(laptop, tenant, '--json');
    expect(conflictsOf(pushed.stdout)).toEqual([]);
    expect(JSON.parse(pushed.stdout).pushed).toEqual({ consents: 2 });
    const there = await only(server, tenant);
    expect(there.revoked_at).not.toBeNull();
    expect(actions(there)).toEqual(['granted', 'version_update', 'revoked']);
    expect(await revokedEvents(server, tenant)).toHaveLength(1);
    await onLaptop(laptop, async (l) => {
      expect(await only(l, tenant)).toEqual(there);
      await expectChainIntact(l, tenant);
    });
  });

  it('a bundle holding a revocation, imported where the consent was renewed: history as it was, the consent a conflict', async () => {
    const tenant = 'revoked-bundle';
    const { consent, laptop } = await cloned(tenant);
    await onLaptop(laptop, (l) => l.consents.revoke({ tenant, actor: 'lea', params: { id: consent.id } }));
    const bundle = join(tmp(), 'revoked.bundle');
    expect((await cli(['--db', laptop, '--tenant', tenant, 'export', '-o', bundle])).code).toBe(0);
    await server.consents.renew({ tenant, actor: 'sam', params: { id: consent.id }, body: { consent_version: '2.0' } });
    const other = tmpDb();
    expect((await sync(other, tenant)).code).toBe(0);
    const imported = await cli(['--db', other, '--tenant', tenant, 'import', bundle, '--json']);
    const reasons = (JSON.parse(imported.stdout).conflicts as Conflict[]).map((c) => `${c.entity}: ${c.reason}`);
    expect(reasons.find((r) => r.startsWith('consent_history'))).toMatch(
      /which is not revoked: a revoked entry goes with its consent's revocation$/,
    );
    expect(reasons.find((r) => r.startsWith('consent:'))).toBeDefined();
    await onLaptop(other, async (b) => {
      const here = await only(b, tenant);
      expect(here).toMatchObject({ consent_version: '2.0', revoked_at: null });
      expect(actions(here)).toEqual(['granted', 'version_update']);
      await expectChainIntact(b, tenant);
    });
  });

  it('a pushed revoked entry of a consent the server keeps unrevoked is refused, alone or with a refused revocation', async () => {
    const tenant = 'revoked-entry-pushed';
    const consent = await server.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'u1', data_point_id: 'news', granted: true, granted_at: minutesAgo(10) },
    });
    const held = (await heldRow(server, tenant, 'consent', consent.id))!;
    const [granted] = await server.consents.history({ tenant, params: { id: consent.id } });
    const at = minutesAgo(1);
    const entry = {
      ...(await heldRow(server, tenant, 'consent_history', granted!.id))!,
      id: 'e-revoked-1',
      action: 'revoked',
      created_at: at,
    };
    await server.consents.renew({ tenant, actor: 'sam', params: { id: consent.id }, body: { consent_version: '2.0' } });
    const before = await tenantState(server, tenant);
    // alone: the consent is not revoked
    const alone = await push(url, key, tenant, [
      { entity: 'consent_history', entity_id: entry.id, data: entry, base: null },
    ]);
    expect(alone.status, alone.text).toBe(200);
    expect((alone.body as PushAnswer).applied).toBe(0);
    expect((alone.body as PushAnswer).conflicts.map((x) => x.reason)).toEqual([
      `consent_history e-revoked-1 revokes consent ${consent.id} at ${at}, which is not revoked: a revoked entry goes with its consent's revocation`,
    ]);
    // with the consent's revocation over a version the server no longer holds: both refused together
    const both = await push(url, key, tenant, [
      { entity: 'consent', entity_id: consent.id, data: { ...held, revoked_at: at }, base: versionOf(held) },
      { entity: 'consent_history', entity_id: entry.id, data: entry, base: null },
    ]);
    expect((both.body as PushAnswer).applied).toBe(0);
    expect((both.body as PushAnswer).conflicts.map((x) => x.entity).sort()).toEqual(['consent', 'consent_history']);
    expect(await tenantState(server, tenant)).toBe(before);
    expect(actions(await only(server, tenant))).toEqual(['granted', 'version_update']);
  });

  it('revoked on both sides: one revocation on both, the server’s, one consent.revoked, nothing left to do', async () => {
    const tenant = 'revoked-twice';
    const { consent, laptop } = await cloned(tenant);
    await onLaptop(laptop, (l) => l.consents.revoke({ tenant, actor: 'lea', params: { id: consent.id } }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const revoked = await server.consents.revoke({ tenant, actor: 'sam', params: { id: consent.id } });
    const r = await sync(laptop, tenant, '--json');
    expect(r.stderr).toBe('');
    expect(conflictsOf(r.stdout)).toEqual([]);
    expect(r.code).toBe(0);
    const there = await only(server, tenant);
    expect(there.revoked_at).toBe(revoked.revoked_at);
    expect(actions(there)).toEqual(['granted', 'revoked']);
    expect(await revokedEvents(server, tenant)).toHaveLength(1);
    await onLaptop(laptop, async (l) => {
      expect(await only(l, tenant)).toEqual(there);
      await expectChainIntact(l, tenant);
      const status = JSON.parse((await cli(['--db', laptop, '--tenant', tenant, 'sync', 'status', '--json'])).stdout);
      expect(status.remotes[0]).toMatchObject({ open: 0, conflicts: [] });
    });
    await expectChainIntact(server, tenant);
    const again = await sync(laptop, tenant, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ pulled: {}, pushed: {}, conflicts: [] });
  });

  it('a second revocation pushed to a revoked consent is not recorded; its revocation entry is not deleted nor moved', async () => {
    const tenant = 'revoked-hostile';
    const consent = await server.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'u1', data_point_id: 'news', granted: true, granted_at: minutesAgo(10) },
    });
    const granted = (await heldRow(server, tenant, 'consent', consent.id))!;
    await server.consents.revoke({ tenant, actor: 'sam', params: { id: consent.id } });
    const held = (await heldRow(server, tenant, 'consent', consent.id))!;
    const history = await server.consents.history({ tenant, params: { id: consent.id } });
    const theirs = (await heldRow(server, tenant, 'consent_history', history.find((h) => h.action === 'revoked')!.id))!;
    const earlier = minutesAgo(1);
    const mine = { ...theirs, id: 'e-revoked-2', created_at: earlier };
    const before = await tenantState(server, tenant);
    // a laptop's own revocation, sent over the version it last agreed on: answered with the server's state
    const second = await push(url, key, tenant, [
      { entity: 'consent', entity_id: consent.id, data: { ...granted, revoked_at: earlier }, base: versionOf(granted) },
      { entity: 'consent_history', entity_id: mine.id, data: mine, base: null },
    ]);
    const answer = second.body as PushAnswer;
    expect(answer.applied).toBe(0);
    expect(answer.conflicts.find((x) => x.entity === 'consent')!.theirs).toEqual(held);
    expect(answer.conflicts.find((x) => x.entity === 'consent_history')!.reason).toBe(
      `consent_history e-revoked-2 revokes consent ${consent.id} at ${earlier}, which is revoked at ${String(held.revoked_at)} already: a consent is revoked once`,
    );
    // hostile: the server's entry deleted, replaced, or the revocation moved to another time
    for (const items of [
      [{ entity: 'consent_history', entity_id: theirs.id, data: null, base: versionOf(theirs) }],
      [
        {
          entity: 'consent_history',
          entity_id: theirs.id,
          data: { ...theirs, created_at: earlier },
          base: versionOf(theirs),
        },
      ],
      [
        { entity: 'consent', entity_id: consent.id, data: { ...held, revoked_at: earlier }, base: versionOf(held) },
        { entity: 'consent_history', entity_id: theirs.id, data: null, base: versionOf(theirs) },
        { entity: 'consent_history', entity_id: mine.id, data: mine, base: null },
      ],
    ]) {
      const r = await push(url, key, tenant, items);
      expect(r.status, r.text).toBe(200);
      expect((r.body as PushAnswer).applied, r.text).toBe(0);
      expect((r.body as PushAnswer).conflicts).toHaveLength(items.length);
    }
    expect(await tenantState(server, tenant)).toBe(before);
    expect(await revokedEvents(server, tenant)).toHaveLength(1);
  });
});
