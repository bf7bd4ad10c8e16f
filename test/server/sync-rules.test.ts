import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, ENGINE_NAMES, tmpDb } from '../support/helpers.js';
import { onLaptop, withSyncServer } from '../support/sync-server.js';
import { expectChainIntact, journalAfter } from '../support/journal.js';

// The rules of one record (a revoked consent stays revoked, an escalation level never goes down) hold for merges: a
// record changed on both sides, and how its conflict is settled. A change of one side onto a record the other side
// left alone is sequential (a later deadline lowers a level, an undone import lifts a revocation) and just travels.
// Conflicts are settled whole or per field.
const DAY = 86_400_000;
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString();

interface Conflict {
  id: string;
  entity: string;
  entity_id: string;
  reason: string;
  fields: string[];
}

describe.each(ENGINE_NAMES)('sync rules of one record, with a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  const sync = (db: string, tenant: string, ...args: string[]) =>
    cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', ...args]);
  const resolve = (db: string, tenant: string, ...args: string[]) =>
    cli(['--db', db, '--tenant', tenant, 'sync', 'resolve', ...args]);
  const conflictsOf = (stdout: string) => JSON.parse(stdout).conflicts as Conflict[];

  /** A module, its matrix row and one user's assignment (deadline in 30 days) on the server. */
  async function assignment(tenant: string): Promise<string> {
    const t = { tenant, actor: 'sam' };
    const m = await server.training.createModule({
      ...t,
      body: { module_code: 'DSGVO-01', title: 'Datenschutz', regulation_area: 'dsgvo', frequency_type: 'annual' },
    });
    await server.training.setMatrix({ ...t, body: { role_code: 'R1', module_id: m.id } });
    const user = { user_id: 'u-1', user_name: 'Erika Mustermann', user_email: 'erika@example.com', roles: ['R1'] };
    expect((await server.training.compute({ ...t, body: user })).created).toBe(1);
    return (await server.training.listAssignments({ tenant, query: { user_id: 'u-1' } }))[0]!.id;
  }
  // 8 days past the 30-day deadline: level 1
  const escalate = (b: LocalBackend, tenant: string) =>
    b.training.escalate({ tenant, actor: 'esc', body: { as_of: inDays(38), dry_run: false } });

  it('a level the server lowers (a later deadline) reaches a laptop that left the assignment alone, no conflict', async () => {
    const tenant = 'level-down';
    const id = await assignment(tenant);
    expect((await escalate(server, tenant)).escalated).toBe(1);
    const laptop = tmpDb();
    expect((await sync(laptop, tenant)).code).toBe(0);
    await onLaptop(laptop, async (l) =>
      expect((await l.training.getAssignment({ tenant, params: { id } })).escalation_level).toBe(1),
    );
    const later = await server.training.updateAssignment({
      tenant,
      actor: 'sam',
      params: { id },
      body: { deadline: inDays(60) },
    });
    expect(later.escalation_level).toBe(0);
    const r = await sync(laptop, tenant, '--json');
    expect(r.stderr).toBe('');
    expect(conflictsOf(r.stdout)).toEqual([]);
    expect(r.code).toBe(0);
    await onLaptop(laptop, async (l) => {
      expect(await l.training.getAssignment({ tenant, params: { id } })).toEqual(
        await server.training.getAssignment({ tenant, params: { id } }),
      );
      await expectChainIntact(l, tenant);
    });
    // and the other way: the server escalates again, the laptop (offline) moves the deadline later; the server,
    // which left the assignment alone since, takes the lower level without a conflict
    expect(
      (await server.training.escalate({ tenant, actor: 'esc', body: { as_of: inDays(68), dry_run: false } })).escalated,
    ).toBe(1);
    expect((await sync(laptop, tenant)).code).toBe(0);
    const moved = await onLaptop(laptop, (l) =>
      l.training.updateAssignment({ tenant, actor: 'lea', params: { id }, body: { deadline: inDays(120) } }),
    );
    expect(moved.escalation_level).toBe(0);
    const back = await sync(laptop, tenant, '--json');
    expect(conflictsOf(back.stdout)).toEqual([]);
    expect(back.code).toBe(0);
    expect(await server.training.getAssignment({ tenant, params: { id } })).toEqual(moved);
    await expectChainIntact(server, tenant);
  });

  it('an escalation offline against a change on the server: a conflict naming the rule, settled per field', async () => {
    const tenant = 'level-merge';
    const id = await assignment(tenant);
    const laptop = tmpDb();
    expect((await sync(laptop, tenant)).code).toBe(0);
    expect((await onLaptop(laptop, (l) => escalate(l, tenant))).escalated).toBe(1);
    await server.training.updateAssignment({
      tenant,
      actor: 'sam',
      params: { id },
      body: { user_name: 'Erika Musterfrau' },
    });
    const r = await sync(laptop, tenant, '--json');
    expect(r.code).toBe(6);
    const [c] = conflictsOf(r.stdout);
    expect(c).toMatchObject({ entity: 'training_assignment', entity_id: id });
    expect(c!.reason).toBe(
      `changed on both sides since the last sync; the escalation level of assignment ${id} never goes down: it is 1 here, not 0`,
    );
    expect(c!.fields).toEqual(expect.arrayContaining(['escalation_level', 'user_name']));
    // the status shows the rule too
    const status = await cli(['--db', laptop, '--tenant', tenant, 'sync', 'status']);
    expect(status.stdout).toContain('never goes down');

    const theirs = await resolve(laptop, tenant, c!.id, '--theirs');
    expect(theirs.code).toBe(5);
    expect(theirs.stderr.trim().split('\n')).toHaveLength(1);
    expect(theirs.stderr).toContain(`never goes down: it is 1 here, not 0`);
    expect(theirs.stderr).toContain(`--theirs --field escalation_level=ours`);
    const merged = await resolve(laptop, tenant, c!.id, '--theirs', '--field', 'escalation_level=ours', '--json');
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({
      id: c!.id,
      status: 'ours',
      resolution: expect.stringContaining('escalation_level=ours'),
    });
    expect(JSON.parse(merged.stdout).resolution).toContain('user_name=theirs');

    const done = await sync(laptop, tenant, '--json');
    expect(conflictsOf(done.stdout)).toEqual([]);
    expect(done.code).toBe(0);
    const there = await server.training.getAssignment({ tenant, params: { id } });
    expect(there).toMatchObject({ escalation_level: 1, user_name: 'Erika Musterfrau' });
    await onLaptop(laptop, async (l) => {
      expect(await l.training.getAssignment({ tenant, params: { id } })).toEqual(there);
      await expectChainIntact(l, tenant);
    });
    await expectChainIntact(server, tenant);
    // nothing left to move
    expect(JSON.parse((await sync(laptop, tenant, '--json')).stdout)).toMatchObject({ pulled: {}, pushed: {} });
  });

  it('a consent revoked offline while the server renews it: a conflict saying both cannot hold, never revoked then renewed', async () => {
    const tenant = 'revoked';
    const consent = await server.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'u1', data_point_id: 'news', granted: true },
    });
    const laptop = tmpDb();
    expect((await sync(laptop, tenant)).code).toBe(0);
    await onLaptop(laptop, (l) => l.consents.revoke({ tenant, actor: 'lea', params: { id: consent.id } }));
    await server.consents.renew({ tenant, actor: 'sam', params: { id: consent.id }, body: { consent_version: '2.0' } });
    const r = await sync(laptop, tenant, '--json');
    expect(r.code).toBe(6);
    const all = conflictsOf(r.stdout);
    const c = all.find((x) => x.entity === 'consent')!;
    expect(c.reason).toContain(
      `consent ${consent.id} is revoked here at version 1.0 and renewed on the server to version 2.0: a revoked consent is not renewed, so both cannot hold and no choice of versions settles it: to end the renewal, revoke the consent on the server too`,
    );
    // the server's renewal entry is not written after the revocation here: a conflict saying why
    expect(all.find((x) => x.entity === 'consent_history')?.reason).toContain('a revoked consent is not renewed');
    const theirs = await resolve(laptop, tenant, c.id, '--theirs');
    expect(theirs.code).toBe(5);
    expect(theirs.stderr).toContain('stays revoked');
    // the choice per field that made "revoked at 1.0, then renewed to 2.0" is refused, and not suggested
    expect(theirs.stderr).not.toContain('--field revoked_at=ours');
    const merged = await resolve(laptop, tenant, c.id, '--theirs', '--field', 'revoked_at=ours');
    expect(merged.code).toBe(5);
    expect(merged.stderr).toContain('is revoked here at version 1.0 and renewed on the server to version 2.0');
    expect(merged.stderr).toContain('both cannot hold');
    await onLaptop(laptop, async (l) => {
      const [here] = (await l.consents.list({ tenant, query: {} })).consents;
      expect(here).toMatchObject({ consent_version: '1.0', revoked_at: expect.any(String) });
      expect(here!.history.map((h) => h.action).sort()).toEqual(['granted', 'revoked']);
      await expectChainIntact(l, tenant);
    });
    // nor does the server take a revocation dated before its renewal: keeping this version is refused at once
    const ours = await resolve(laptop, tenant, c.id, '--ours');
    expect(ours.code).toBe(5);
    expect(ours.stderr).toContain(`consent ${consent.id} is revoked at`);
    expect(ours.stderr).toContain('was renewed on the server after (version_update to version 2.0 at');
    expect(ours.stderr).toContain('no choice of versions holds on both sides, so the conflict stays open');
    expect(ours.stderr.trim().split('\n')).toHaveLength(1);
    // nor does it take the deletion of its renewal entry, which keeping "no such entry here" would push
    const entry = all.find((x) => x.entity === 'consent_history')!;
    const without = await resolve(laptop, tenant, entry.id, '--ours');
    expect(without.code).toBe(5);
    expect(without.stderr).toContain(`consent_history ${entry.entity_id} is history held on the server`);
    expect(without.stderr).toContain('no choice of versions holds on both sides, so the conflict stays open');
    // nothing was settled: the next sync reports the conflict again and the server keeps its renewal
    const again = await sync(laptop, tenant, '--json');
    expect(again.code).toBe(6);
    expect(
      conflictsOf(again.stdout)
        .map((x) => x.id)
        .sort(),
    ).toEqual([c.id, entry.id].sort());
    const [there] = (await server.consents.list({ tenant, query: {} })).consents;
    expect(there).toMatchObject({ consent_version: '2.0', revoked_at: null });
    await expectChainIntact(server, tenant);
    await onLaptop(laptop, (l) => expectChainIntact(l, tenant));
  });

  it('a revocation undone on the server (an import run reverted) reaches a laptop that left the consent alone', async () => {
    const tenant = 'unrevoke';
    const at = '2026-01-01T10:00:00Z';
    const csv = (text: string) => ({
      body: (async function* () {
        yield `user_id,data_point_id,granted,granted_at,revoked_at\n${text}`;
      })(),
      content_type: 'text/csv',
    });
    const eve = await server.consents.create({
      tenant,
      actor: 'sam',
      body: { user_id: 'eve', data_point_id: 'news', granted: true, granted_at: at },
    });
    const run = await server.consents.import({ tenant, stream: csv(`eve,news,true,${at},2026-03-01T00:00:00Z\n`) });
    expect(run).toMatchObject({ revoked: 1 });
    const laptop = tmpDb();
    expect((await sync(laptop, tenant)).code).toBe(0);
    await onLaptop(laptop, async (l) =>
      expect((await l.consents.list({ tenant, query: {} })).consents[0]!.revoked_at).not.toBeNull(),
    );
    await server.consents.revertImport({ tenant, params: { id: run.run_id! } });
    const r = await sync(laptop, tenant, '--json');
    expect(conflictsOf(r.stdout)).toEqual([]);
    expect(r.code).toBe(0);
    await onLaptop(laptop, async (l) => {
      const here = (await l.consents.list({ tenant, query: {} })).consents;
      expect(here).toEqual((await server.consents.list({ tenant, query: {} })).consents);
      expect(here.find((c) => c.id === eve.id)!.revoked_at).toBeNull();
      await expectChainIntact(l, tenant);
    });
  });

  it('a DSFA settled per field: title from here, description from the server; bad choices are refused', async () => {
    const tenant = 'fields';
    const t = (actor: string) => ({ tenant, actor });
    const d = await server.dsfa.create({ ...t('sam'), body: { title: 'Kamera', description: 'Eingang' } });
    const gone = await server.dsfa.create({ ...t('sam'), body: { title: 'Alt' } });
    const laptop = tmpDb();
    expect((await sync(laptop, tenant)).code).toBe(0);
    await onLaptop(laptop, async (l) => {
      await l.dsfa.update({ ...t('lea'), params: { id: d.id }, body: { title: 'Kamera (Lea)', description: 'Lea' } });
      await l.dsfa.update({ ...t('lea'), params: { id: gone.id }, body: { title: 'Alt (Lea)' } });
    });
    await server.dsfa.update({
      ...t('sam'),
      params: { id: d.id },
      body: { title: 'Kamera (Sam)', description: 'Hof' },
    });
    await server.dsfa.delete({ ...t('sam'), params: { id: gone.id } });
    const r = await sync(laptop, tenant, '--json');
    expect(r.code).toBe(6);
    const all = conflictsOf(r.stdout);
    const c = all.find((x) => x.entity === 'dsfa' && x.entity_id === d.id)!;
    const deleted = all.find((x) => x.entity === 'dsfa' && x.entity_id === gone.id)!;
    expect(c.fields).toEqual(expect.arrayContaining(['description', 'title']));

    const oneLine = (s: string) => expect(s.trim().split('\n')).toHaveLength(1);
    const unknown = await resolve(laptop, tenant, c.id, '--theirs', '--field', 'titel=ours');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('dsfa has no field titel');
    expect(unknown.stderr).toContain('description');
    oneLine(unknown.stderr);
    const badSide = await resolve(laptop, tenant, c.id, '--field', 'title=mine');
    expect(badSide.code).toBe(2);
    expect(badSide.stderr).toContain('--field title=mine');
    expect(badSide.stderr).toContain('ours, theirs');
    oneLine(badSide.stderr);
    const missing = await resolve(laptop, tenant, c.id, '--field', 'title=ours');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing: .*description/);
    expect(missing.stderr).not.toMatch(/missing: .*title/);
    oneLine(missing.stderr);
    const onDeleted = await resolve(laptop, tenant, deleted.id, '--ours', '--field', 'title=ours');
    expect(onDeleted.code).toBe(2);
    expect(onDeleted.stderr).toContain('deleted on the other side');
    oneLine(onDeleted.stderr);
    // nothing of that was written: both conflicts still open
    const open = await cli(['--db', laptop, '--tenant', tenant, 'sync', 'status', '--json']);
    expect(
      JSON.parse(open.stdout)
        .remotes[0].conflicts.map((x: Conflict) => x.id)
        .sort(),
    ).toEqual([c.id, deleted.id].sort());

    const ok = await resolve(laptop, tenant, c.id, '--theirs', '--field', 'title=ours');
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^conflict \S+ \(dsfa \S+\) settled: per field .*title=ours.* \(pushed next sync\)\n$/);
    expect((await resolve(laptop, tenant, deleted.id, '--theirs')).code).toBe(0);
    const done = await sync(laptop, tenant, '--json');
    expect(conflictsOf(done.stdout)).toEqual([]);
    expect(done.code).toBe(0);
    const there = await server.dsfa.get({ tenant, params: { id: d.id } });
    expect(there).toMatchObject({ title: 'Kamera (Lea)', description: 'Hof' });
    await onLaptop(laptop, async (l) => {
      expect(await l.dsfa.get({ tenant, params: { id: d.id } })).toEqual(there);
      expect((await l.dsfa.list({ tenant, query: {} })).map((x) => x.id)).toEqual([d.id]);
      await expectChainIntact(l, tenant);
      // the record made per field is a change of whoever resolved it, on this machine, like any command's
      const made = (await journalAfter(l, tenant)).filter((e) => e.entity === 'dsfa' && e.entity_id === d.id).at(-1);
      expect(made).toMatchObject({ principal: `os:${userInfo().username}`, op: 'update' });
    });
    await expectChainIntact(server, tenant);
  });
});
