import { describe, expect, it } from 'vitest';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import { eventsOf } from '../../src/domain/events/event.map.js';
import type { StoredEntry } from '../../src/domain/journal/chain.js';
import { ENGINE_NAMES, cli, tmpDb } from '../support/helpers.js';
import { expectChainIntact, journalAfter } from '../support/journal.js';
import { onLaptop, withSyncServer } from '../support/sync-server.js';

// Issue 36 items 4 and 6 to 9: a conflict a person can read (both versions side by side), settle by the id they
// know, merge list fields of, and whose settling is a change of theirs with its audit entry; a conflict whose sides
// came together closes itself; sync status counts records and the conflicts still open.
const RESOLVER = 'rita';

interface Report {
  id: string;
  entity: string;
  entity_id: string;
  fields: string[];
  ours: { actor: string | null; time: string | null; deleted: boolean };
  theirs: { actor: string | null; time: string | null; deleted: boolean };
}

describe.each(ENGINE_NAMES)('settling sync conflicts, with a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  const sync = (db: string, tenant: string, ...args: string[]) =>
    cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', ...args]);
  const local = (db: string, tenant: string, ...args: string[]) =>
    cli(['--db', db, '--tenant', tenant, '--user', RESOLVER, 'sync', ...args]);
  const conflictsOf = (stdout: string) => JSON.parse(stdout).conflicts as Report[];
  const trail = (b: LocalBackend, tenant: string, dsfa_id: string) =>
    b.dsfa.auditLog({ tenant, query: { dsfa_id, limit: 100, offset: 0 } });
  const events = async (b: LocalBackend, tenant: string) =>
    (await journalAfter(b, tenant)).flatMap((e) =>
      eventsOf({ ...e, data: e.data === null ? null : JSON.stringify(e.data) } as unknown as StoredEntry),
    );

  /** A DSFA on the server, cloned to a new laptop, then changed on both sides. */
  async function clash(tenant: string) {
    const as = (actor: string) => ({ tenant, actor });
    const d = await server.dsfa.create({
      ...as('sam'),
      body: { title: 'Kamera', description: 'Eingang', measures: ['Zugriffsschutz'] },
    });
    const laptop = tmpDb();
    expect((await sync(laptop, tenant)).code).toBe(0);
    await onLaptop(laptop, (l) =>
      l.dsfa.update({
        ...as('lea'),
        params: { id: d.id },
        body: { title: 'Kamera (Lea)', measures: ['Zugriffsschutz', 'Löschfrist 72 h'] },
      }),
    );
    await server.dsfa.update({
      ...as('sam'),
      params: { id: d.id },
      body: { title: 'Kamera (Sam)', measures: ['Zugriffsschutz', 'Hinweisschild'] },
    });
    const r = await sync(laptop, tenant, '--json');
    expect(r.code).toBe(6);
    return { d, laptop, conflict: conflictsOf(r.stdout).find((c) => c.entity_id === d.id)! };
  }

  it('shows the fields that differ side by side, settles by the record’s short id, merges a list, and audits it', async () => {
    const tenant = 'show-merge';
    const { d, laptop, conflict } = await clash(tenant);
    // updated_at is nobody's choice
    expect(conflict.fields).toEqual(['measures', 'title']);

    const shown = await local(laptop, tenant, 'conflicts', 'show', d.id.slice(-8), '--json');
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    const detail = JSON.parse(shown.stdout);
    expect(detail).toMatchObject({
      id: conflict.id,
      entity: 'dsfa',
      entity_id: d.id,
      ours: { actor: 'lea', deleted: false, time: expect.any(String) },
      theirs: { actor: 'sam', deleted: false, time: expect.any(String) },
    });
    expect(detail.differences).toEqual([
      {
        field: 'measures',
        list: true,
        ours: ['Zugriffsschutz', 'Löschfrist 72 h'],
        theirs: ['Zugriffsschutz', 'Hinweisschild'],
      },
      { field: 'title', list: false, ours: 'Kamera (Lea)', theirs: 'Kamera (Sam)' },
    ]);
    // on a terminal: short ids, a header, each side with who changed it and when
    const tty = await cli(['--db', laptop, '--tenant', tenant, 'sync', 'conflicts', 'show', conflict.id], {
      tty: true,
    });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toContain(`conflict ${conflict.id.slice(-8)}: dsfa ${d.id.slice(-8)}`);
    expect(tty.stdout).not.toContain(d.id);
    expect(tty.stdout).toMatch(/field\s.*ours \(here\)\s.*theirs/);
    expect(tty.stdout).toContain('changed by lea at');
    expect(tty.stdout).toContain('Kamera (Sam)');
    expect(tty.stdout).not.toContain('updated_at');
    const list = await cli(['--db', laptop, '--tenant', tenant, 'sync', 'status'], { tty: true });
    expect(list.stdout).toMatch(/conflict\s.*table\s.*record/);
    expect(list.stdout).toContain(conflict.id.slice(-8));
    expect(list.stdout).not.toContain(conflict.id);

    // both is for lists only
    const notList = await local(laptop, tenant, 'resolve', conflict.id, '--theirs', '--field', 'title=both');
    expect(notList.code).toBe(2);
    expect(notList.stderr).toContain('--field title=both');
    expect(notList.stderr).toContain('measures');

    const ok = await local(
      laptop,
      tenant,
      'resolve',
      d.id.slice(-8),
      '--theirs',
      '--field',
      'title=ours',
      '--field',
      'measures=both',
    );
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('measures=both');
    const merged = await onLaptop(laptop, (l) => l.dsfa.get({ tenant, params: { id: d.id } }));
    expect(merged).toMatchObject({
      title: 'Kamera (Lea)',
      measures: ['Zugriffsschutz', 'Löschfrist 72 h', 'Hinweisschild'],
    });
    // the resolution is a change of the one who resolved it, in the record's audit trail
    const last = (await onLaptop(laptop, (l) => trail(l, tenant, d.id))).find((e) => e.changed_by === RESOLVER)!;
    expect(last).toMatchObject({
      action: 'UPDATE',
      old_values: { title: 'Kamera (Sam)', measures: ['Zugriffsschutz', 'Löschfrist 72 h'] },
      new_values: { title: 'Kamera (Lea)', measures: ['Zugriffsschutz', 'Löschfrist 72 h', 'Hinweisschild'] },
    });

    const done = await sync(laptop, tenant, '--json');
    expect(conflictsOf(done.stdout)).toEqual([]);
    expect(done.code).toBe(0);
    expect(await server.dsfa.get({ tenant, params: { id: d.id } })).toEqual(merged);
    expect((await trail(server, tenant, d.id)).map((e) => e.id)).toContain(last.id);
    await onLaptop(laptop, (l) => expectChainIntact(l, tenant));
    await expectChainIntact(server, tenant);
  });

  it('an edit against a deletion shows what was edited, and keeping the deletion says the record is gone', async () => {
    const tenant = 'edit-delete';
    const as = (actor: string) => ({ tenant, actor });
    const d = await server.dsfa.create({ ...as('sam'), body: { title: 'Alt', description: 'alt' } });
    const laptop = tmpDb();
    expect((await sync(laptop, tenant)).code).toBe(0);
    await onLaptop(laptop, (l) => l.dsfa.update({ ...as('lea'), params: { id: d.id }, body: { description: 'neu' } }));
    await server.dsfa.delete({ ...as('sam'), params: { id: d.id } });
    const r = await sync(laptop, tenant, '--json');
    expect(r.code).toBe(6);
    const c = conflictsOf(r.stdout).find((x) => x.entity_id === d.id)!;
    expect(c.fields).toEqual(['description']);
    const detail = JSON.parse((await local(laptop, tenant, 'conflicts', 'show', c.id, '--json')).stdout);
    expect(detail.differences).toEqual([{ field: 'description', list: false, ours: 'neu', theirs: null }]);
    expect(detail.theirs).toMatchObject({ deleted: true, actor: 'sam' });

    expect((await local(laptop, tenant, 'resolve', d.id, '--theirs')).code).toBe(0);
    const gone = await onLaptop(laptop, (l) => trail(l, tenant, d.id));
    expect(gone.find((e) => e.changed_by === RESOLVER)).toMatchObject({
      action: 'DELETE',
      old_values: expect.objectContaining({ description: 'neu', title: 'Alt' }),
    });
    // and the event any deletion has
    expect(await onLaptop(laptop, (l) => events(l, tenant))).toContainEqual({
      type: 'dsfa.deleted',
      data: { dsfa_id: d.id, changed_by: RESOLVER },
    });
    expect((await sync(laptop, tenant)).code).toBe(0);
    expect((await trail(server, tenant, d.id)).find((e) => e.changed_by === RESOLVER)).toMatchObject({
      action: 'DELETE',
    });
    await onLaptop(laptop, (l) => expectChainIntact(l, tenant));
    await expectChainIntact(server, tenant);
  });

  it('the start of an id shared by several conflicts is ambiguous (exit 2) listing them; a whole id is not', async () => {
    const tenant = 'ambiguous';
    const as = (actor: string) => ({ tenant, actor });
    const a = await server.dsfa.create({ ...as('sam'), body: { title: 'A' } });
    const b = await server.dsfa.create({ ...as('sam'), body: { title: 'B' } });
    const laptop = tmpDb();
    expect((await sync(laptop, tenant)).code).toBe(0);
    await onLaptop(laptop, async (l) => {
      for (const d of [a, b]) await l.dsfa.update({ ...as('lea'), params: { id: d.id }, body: { title: 'Lea' } });
    });
    for (const d of [a, b]) await server.dsfa.update({ ...as('sam'), params: { id: d.id }, body: { title: 'Sam' } });
    const cs = conflictsOf((await sync(laptop, tenant, '--json')).stdout);
    expect(cs).toHaveLength(2);
    // conflicts made in one sync share the start of their ids (UUIDv7: the time)
    const start = cs[0]!.id.slice(0, 8);
    expect(cs[1]!.id.startsWith(start)).toBe(true);
    const r = await local(laptop, tenant, 'resolve', start, '--ours');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ambiguous');
    for (const c of cs) expect(r.stderr).toContain(c.id.slice(-8));
    expect(r.stderr).not.toContain('not found');
    const none = await local(laptop, tenant, 'resolve', 'ffffffffffff', '--ours');
    expect(none.code).toBe(3);
    expect((await local(laptop, tenant, 'resolve', cs[0]!.id, '--ours')).code).toBe(0);
    expect((await local(laptop, tenant, 'resolve', b.id, '--theirs')).code).toBe(0);
  });

  it('a conflict whose sides came to the same content closes itself; status counts records and open conflicts', async () => {
    const tenant = 'converge';
    const { d, laptop, conflict } = await clash(tenant);
    const status = JSON.parse((await local(laptop, tenant, 'status', '--json')).stdout);
    expect(status.remotes[0]).toMatchObject({ open: 1 });
    // the server comes to the laptop's content
    await server.dsfa.update({
      tenant,
      actor: 'sam',
      params: { id: d.id },
      body: { title: 'Kamera (Lea)', measures: ['Zugriffsschutz', 'Löschfrist 72 h'] },
    });
    const r = await sync(laptop, tenant, '--json');
    expect(conflictsOf(r.stdout)).toEqual([]);
    expect(r.code).toBe(0);
    expect((await local(laptop, tenant, 'resolve', conflict.id, '--ours')).code).toBe(3);
    await onLaptop(laptop, async (l) =>
      expect(await l.dsfa.get({ tenant, params: { id: d.id } })).toEqual(
        await server.dsfa.get({ tenant, params: { id: d.id } }),
      ),
    );
    // one DSFA changed here (and its audit entry): one record to push
    await onLaptop(laptop, (l) =>
      l.dsfa.update({ tenant, actor: 'lea', params: { id: d.id }, body: { description: 'Hof' } }),
    );
    const after = JSON.parse((await local(laptop, tenant, 'status', '--json')).stdout);
    expect(after.remotes[0]).toMatchObject({ unsynced: { dsfa: 1 }, open: 0, conflicts: [] });
    const text = await local(laptop, tenant, 'status');
    expect(text.stdout).toContain('conflicts\t0 open');
    await onLaptop(laptop, (l) => expectChainIntact(l, tenant));
  });

  it('a record changed here into the server’s version closes its conflict at the next sync', async () => {
    const tenant = 'converge-here';
    const { d, laptop } = await clash(tenant);
    await onLaptop(laptop, (l) =>
      l.dsfa.update({
        tenant,
        actor: 'lea',
        params: { id: d.id },
        body: { title: 'Kamera (Sam)', measures: ['Zugriffsschutz', 'Hinweisschild'] },
      }),
    );
    const status = JSON.parse((await local(laptop, tenant, 'status', '--json')).stdout);
    expect(status.remotes[0]).toMatchObject({ open: 0, conflicts: [] });
    const r = await sync(laptop, tenant, '--json');
    expect(conflictsOf(r.stdout)).toEqual([]);
    expect(r.code).toBe(0);
    const { updated_at: _a, ...there } = await server.dsfa.get({ tenant, params: { id: d.id } });
    const { updated_at: _b, ...here } = await onLaptop(laptop, (l) => l.dsfa.get({ tenant, params: { id: d.id } }));
    expect(here).toEqual(there);
    await expectChainIntact(server, tenant);
  });
});
