import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import type { Backend } from '../../src/backend/backend.js';
import { createHttpBackend } from '../../src/backend/http/http-backend.js';
import { SyncEngine } from '../../src/backend/sync/sync-engine.js';
import { runSync } from '../../src/backend/sync/sync-session.js';
import { uuidv7Source } from '../../src/store/ids.js';
import { openStore } from '../../src/store/open-store.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { createUnitOfWork } from '../../src/store/unit-of-work.js';
import { systemClock } from '../../src/domain/clock.js';
import { cli, ENGINE_NAMES, tmpDb } from '../support/helpers.js';
import { onLaptop, withSyncServer } from '../support/sync-server.js';
import { expectChainIntact } from '../support/journal.js';

// Two (or four) real stores and a real server on 127.0.0.1: a laptop clones a tenant, works offline, syncs back;
// records changed on both sides become conflicts (exit 6) that `sync resolve` settles; a cut-off sync resumes.
const T = 'acme';

describe.each(ENGINE_NAMES)('compliance sync with a server on %s', (engine) => {
  let server: LocalBackend;
  let url: string;
  let key: string;
  withSyncServer(engine, (s) => ({ server, url, key } = s));

  const sync = (db: string, ...args: string[]) =>
    cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', T, 'sync', ...args]);
  const as = (actor: string) => ({ tenant: T, actor });
  const dsfas = async (b: LocalBackend) =>
    (await b.dsfa.list({ tenant: T, query: { limit: 100 } })).sort((x, y) => x.id.localeCompare(y.id));

  it('clones, moves offline work both ways, reports a conflict (exit 6) and settles it with resolve', async () => {
    const d1 = await server.dsfa.create({ ...as('sam'), body: { title: 'Kamera', description: 'Eingang' } });
    const consent = await server.consents.create({
      ...as('sam'),
      body: { user_id: 'u1', data_point_id: 'news', granted: true },
    });
    const mod = await server.training.createModule({
      ...as('sam'),
      body: { module_code: 'NET-1', title: 'Sicher im Netz', regulation_area: 'nis2', frequency_type: 'micro' },
    });

    const laptop = tmpDb();
    const first = await sync(laptop, '--json');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const s1 = JSON.parse(first.stdout);
    expect(s1).toMatchObject({ first: true, tenant: T, conflicts: [], pushed: {} });
    expect(s1.pulled).toMatchObject({ dsfa: 2, consents: 2, training: 1 });
    await onLaptop(laptop, async (l) => {
      expect(await l.dsfa.get({ tenant: T, params: { id: d1.id } })).toEqual(
        await server.dsfa.get({ tenant: T, params: { id: d1.id } }),
      );
      expect(await l.consents.list({ tenant: T, query: {} })).toEqual(
        await server.consents.list({ tenant: T, query: {} }),
      );
      expect(await l.consents.history({ tenant: T, params: { id: consent.id } })).toEqual(
        await server.consents.history({ tenant: T, params: { id: consent.id } }),
      );
      expect(await l.training.getModule({ tenant: T, params: { id: mod.id } })).toEqual(
        await server.training.getModule({ tenant: T, params: { id: mod.id } }),
      );
    });

    // offline on the laptop, and meanwhile on the server
    const d2 = await onLaptop(laptop, async (l) => {
      await l.dsfa.update({ ...as('lea'), params: { id: d1.id }, body: { description: 'Eingang und Hof' } });
      return l.dsfa.create({ ...as('lea'), body: { title: 'Zeiterfassung' } });
    });
    const d3 = await server.dsfa.create({ ...as('sam'), body: { title: 'Videokonferenz' } });
    const second = await sync(laptop, '--json');
    expect(second.code).toBe(0);
    const s2 = JSON.parse(second.stdout);
    expect(s2.pulled).toEqual({ dsfa: 2 }); // d3 and its audit entry
    expect(s2.pushed).toEqual({ dsfa: 4 }); // d1, d2 and their audit entries
    await onLaptop(laptop, async (l) => {
      expect(await dsfas(l)).toEqual(await dsfas(server));
      expect((await dsfas(l)).map((d) => d.id)).toEqual(expect.arrayContaining([d1.id, d2.id, d3.id]));
    });
    // nothing to move: nothing moves, no echo
    const idle = JSON.parse((await sync(laptop, '--json')).stdout);
    expect(idle).toMatchObject({ pulled: {}, pushed: {}, conflicts: [] });

    // the same record on both sides: a conflict, neither side overwritten
    await onLaptop(laptop, (l) =>
      l.dsfa.update({ ...as('lea'), params: { id: d1.id }, body: { title: 'Kamera (Lea)' } }),
    );
    await server.dsfa.update({ ...as('sam'), params: { id: d1.id }, body: { title: 'Kamera (Sam)' } });
    // edit against delete
    await onLaptop(laptop, (l) => l.dsfa.update({ ...as('lea'), params: { id: d3.id }, body: { description: 'x' } }));
    await server.dsfa.delete({ ...as('sam'), params: { id: d3.id } });
    const clash = await sync(laptop);
    expect(clash.code).toBe(6);
    expect(clash.stdout).toContain('conflicts\t2');
    const status = JSON.parse((await cli(['--db', laptop, '--tenant', T, 'sync', 'status', '--json'])).stdout);
    const conflicts = status.remotes[0].conflicts as Array<{
      id: string;
      entity: string;
      entity_id: string;
      fields: string[];
      [k: string]: unknown;
    }>;
    const byId = (id: string) => conflicts.find((c) => c.entity === 'dsfa' && c.entity_id === id)!;
    expect(byId(d1.id)).toMatchObject({ area: 'dsfa', ours: { actor: 'lea', deleted: false } });
    expect(byId(d1.id).fields).toEqual(expect.arrayContaining(['title', 'updated_at']));
    expect(byId(d1.id).theirs).toMatchObject({ actor: 'sam', deleted: false });
    expect(byId(d3.id).theirs).toMatchObject({ actor: 'sam', deleted: true });
    expect((await server.dsfa.get({ tenant: T, params: { id: d1.id } })).title).toBe('Kamera (Sam)');
    await onLaptop(laptop, async (l) =>
      expect((await l.dsfa.get({ tenant: T, params: { id: d1.id } })).title).toBe('Kamera (Lea)'),
    );
    // still unsettled: exit 6 again, and nothing lost
    expect((await sync(laptop)).code).toBe(6);

    const ours = await cli(['--db', laptop, '--tenant', T, 'sync', 'resolve', byId(d1.id).id, '--ours']);
    expect(ours.code).toBe(0);
    const theirs = await cli(['--db', laptop, '--tenant', T, 'sync', 'resolve', byId(d3.id).id, '--theirs']);
    expect(theirs.code).toBe(0);
    const settled = await sync(laptop, '--json');
    expect(settled.code).toBe(0);
    expect(JSON.parse(settled.stdout).conflicts).toEqual([]);
    expect((await server.dsfa.get({ tenant: T, params: { id: d1.id } })).title).toBe('Kamera (Lea)');
    await onLaptop(laptop, async (l) => {
      expect(await dsfas(l)).toEqual(await dsfas(server));
      expect((await dsfas(l)).map((d) => d.id)).not.toContain(d3.id);
      await expectChainIntact(l, T);
    });
    await expectChainIntact(server, T);
  });

  it('a record deleted here and changed on the server is a conflict, and stays deleted here until it is settled', async () => {
    const tenant = 'gone';
    const laptop = tmpDb();
    const run = () => cli(['--db', laptop, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', '--json']);
    const d = await server.dsfa.create({ tenant, actor: 'sam', body: { title: 'Kamera' } });
    expect((await run()).code).toBe(0);
    await onLaptop(laptop, (l) => l.dsfa.delete({ tenant, actor: 'lea', params: { id: d.id } }));
    await server.dsfa.update({ tenant, actor: 'sam', params: { id: d.id }, body: { title: 'Kamera (Sam)' } });
    const r = await run();
    expect(r.code).toBe(6);
    expect(JSON.parse(r.stdout).conflicts).toContainEqual(
      expect.objectContaining({ entity: 'dsfa', entity_id: d.id, ours: expect.objectContaining({ deleted: true }) }),
    );
    await onLaptop(laptop, async (l) =>
      expect((await l.dsfa.list({ tenant, query: {} })).map((x) => x.id)).not.toContain(d.id),
    );
    expect((await server.dsfa.get({ tenant, params: { id: d.id } })).title).toBe('Kamera (Sam)');
  });

  it('a record deleted by another command while the sync runs is not brought back by its pull', async () => {
    const tenant = 'meanwhile';
    const laptop = tmpDb();
    const d = await server.dsfa.create({ tenant, actor: 'sam', body: { title: 'Kamera' } });
    const first = await cli(['--db', laptop, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync']);
    expect(first.code).toBe(0);
    await server.dsfa.update({ tenant, actor: 'sam', params: { id: d.id }, body: { title: 'Kamera (Sam)' } });
    // the sync has read what this store changed; before its pull writes, another command deletes the record here
    const http = createHttpBackend({ url, apiKey: key });
    let meanwhile = false;
    const remote: Backend = {
      ...http,
      journal: {
        ...http.journal,
        anchor: (r) => http.journal.anchor(r),
        page: async (r) => {
          if (!meanwhile) {
            meanwhile = true;
            await onLaptop(laptop, (l) => l.dsfa.delete({ tenant, actor: 'lea', params: { id: d.id } }));
          }
          return http.journal.page(r);
        },
      },
    };
    const store = await openStore(laptop);
    try {
      const ids = uuidv7Source();
      const engine = new SyncEngine({
        remote,
        store,
        uow: createUnitOfWork(store, systemClock, ids),
        clock: systemClock,
        ids,
        tenant,
        pageSize: 1,
      });
      const summary = await forTenant(tenant, () => engine.run());
      expect(meanwhile).toBe(true);
      expect(summary.conflicts).toContainEqual(
        expect.objectContaining({ entity_id: d.id, ours: expect.objectContaining({ deleted: true }) }),
      );
    } finally {
      await store.close();
      await http.close();
    }
    await onLaptop(laptop, async (l) =>
      expect((await l.dsfa.list({ tenant, query: {} })).map((x) => x.id)).not.toContain(d.id),
    );
  });

  it('a merge that would break a rule is a conflict: two versions of one document published on both sides', async () => {
    const tenant = 'legal';
    const api = server.legalDocuments;
    const doc = await api.create({ tenant, actor: 'sam', body: { title: 'DSE', document_type: 'privacy_policy' } });
    const publish = async (b: LocalBackend, content: string) => {
      const v = await b.legalDocuments.addVersion({
        tenant,
        actor: 'x',
        params: { id: doc.id },
        body: { title: 'DSE', content },
      });
      for (const step of ['submit', 'approve', 'publish'] as const)
        await b.legalDocuments[step]({ tenant, actor: 'x', params: { id: v.id }, body: {} });
      return v.id;
    };
    const laptop = tmpDb();
    const run = () => cli(['--db', laptop, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', '--json']);
    expect((await run()).code).toBe(0);
    const ours = await onLaptop(laptop, (l) => publish(l, 'vom Laptop'));
    const theirs = await publish(server, 'vom Server');
    const r = await run();
    expect(r.code).toBe(6);
    const conflicts = JSON.parse(r.stdout).conflicts as Array<{ entity: string; entity_id: string; reason: string }>;
    expect(conflicts).toContainEqual(
      expect.objectContaining({
        entity: 'legal_document_version',
        entity_id: theirs,
        // two versions 1 of one document: the store's key refuses the second before its publication does
        reason: expect.stringMatching(/already has a (published )?version/),
      }),
    );
    // neither side has two published versions
    const published = async (b: LocalBackend) =>
      (await b.legalDocuments.versions({ tenant, params: { id: doc.id } })).filter((v) => v.status === 'published');
    expect((await published(server)).map((v) => v.id)).toEqual([theirs]);
    await onLaptop(laptop, async (l) => expect((await published(l)).map((v) => v.id)).toEqual([ours]));
  });

  it('a merge that would break a rule is a conflict: an open assignment of one user and module made on both sides', async () => {
    const tenant = 'assign';
    const t = (actor: string) => ({ tenant, actor });
    const m = await server.training.createModule({
      ...t('sam'),
      body: { module_code: 'DSGVO-01', title: 'Datenschutz', regulation_area: 'dsgvo', frequency_type: 'annual' },
    });
    await server.training.setMatrix({ ...t('sam'), body: { role_code: 'R9', module_id: m.id } });
    const user = { user_id: 'u-1', user_name: 'Erika Mustermann', user_email: 'erika@example.com', roles: ['R9'] };
    const laptop = tmpDb();
    const run = () => cli(['--db', laptop, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', '--json']);
    expect((await run()).code).toBe(0);
    expect((await onLaptop(laptop, (l) => l.training.compute({ ...t('lea'), body: user }))).created).toBe(1);
    expect((await server.training.compute({ ...t('sam'), body: user })).created).toBe(1);
    const r = await run();
    expect(r.code).toBe(6);
    expect(JSON.parse(r.stdout).conflicts).toContainEqual(
      expect.objectContaining({
        entity: 'training_assignment',
        reason: expect.stringContaining('already has an open assignment'),
      }),
    );
    const open = async (b: LocalBackend) =>
      (await b.training.listAssignments({ tenant, query: { user_id: 'u-1' } })).filter((a) =>
        ['pending', 'in_progress', 'overdue'].includes(a.status),
      );
    expect(await open(server)).toHaveLength(1);
    await onLaptop(laptop, async (l) => expect(await open(l)).toHaveLength(1));
  });

  it('three laptops through one server end with the same records', async () => {
    const laptops = [tmpDb(), tmpDb(), tmpDb()];
    const tenant = 'three';
    const run = (db: string) =>
      cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', '--new-tenant']);
    await server.dsfa.create({ tenant, actor: 'sam', body: { title: 'Start' } });
    for (const db of laptops) expect((await run(db)).code).toBe(0);
    for (const [i, db] of laptops.entries())
      await onLaptop(db, (l) => l.dsfa.create({ tenant, actor: `u${i}`, body: { title: `Laptop ${i}` } }));
    for (const db of [...laptops, ...laptops]) expect((await run(db)).code).toBe(0);
    const list = async (b: LocalBackend) =>
      (await b.dsfa.list({ tenant, query: { limit: 100 } })).sort((x, y) => x.id.localeCompare(y.id));
    const expected = await list(server);
    expect(expected.map((d) => d.title).sort()).toEqual(['Laptop 0', 'Laptop 1', 'Laptop 2', 'Start']);
    for (const db of laptops) await onLaptop(db, async (l) => expect(await list(l)).toEqual(expected));
  });

  it('a record made here, changed on the server and then here again travels without a conflict', async () => {
    const tenant = 'again';
    const run = (db: string, ...args: string[]) =>
      cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', ...args]);
    const laptop = tmpDb();
    const d = await onLaptop(laptop, (l) => l.dsfa.create({ tenant, actor: 'lea', body: { title: 'Kamera' } }));
    expect((await run(laptop, '--new-tenant')).code).toBe(0);
    await server.dsfa.update({ tenant, actor: 'sam', params: { id: d.id }, body: { title: 'Kamera (Sam)' } });
    expect((await run(laptop)).code).toBe(0);
    // agreed now on the server's version, not on the one this store pushed before it
    await onLaptop(laptop, (l) =>
      l.dsfa.update({ tenant, actor: 'lea', params: { id: d.id }, body: { title: 'Kamera (Lea)' } }),
    );
    const third = await run(laptop);
    expect(third.stderr).toBe('');
    expect(third.code).toBe(0);
    expect((await server.dsfa.get({ tenant, params: { id: d.id } })).title).toBe('Kamera (Lea)');
  });

  it("a record another server's sync changed here is never overwritten by this server's change", async () => {
    const tenant = 'relay';
    const run = (db: string, ...args: string[]) =>
      cli(['--db', db, '--remote', url, '--api-key', key, '--tenant', tenant, 'sync', ...args]);
    const laptop = tmpDb();
    const d = await server.dsfa.create({ tenant, actor: 'sam', body: { title: 'Kamera' } });
    expect((await run(laptop)).code).toBe(0);
    // the record changed here as a sync with another server writes it: not this store's change, never pushed here
    const other = await createLocalBackend(laptop, { principal: 'sync:https://other.example' });
    try {
      await other.dsfa.update({ tenant, actor: 'kim', params: { id: d.id }, body: { title: 'Kamera (Kim)' } });
    } finally {
      await other.close();
    }
    const quiet = await run(laptop, '--json');
    expect(JSON.parse(quiet.stdout)).toMatchObject({ pulled: {}, pushed: {}, conflicts: [] });
    expect((await server.dsfa.get({ tenant, params: { id: d.id } })).title).toBe('Kamera');
    // a sync later, the server changes it: both sides changed it since they agreed
    await server.dsfa.update({ tenant, actor: 'sam', params: { id: d.id }, body: { title: 'Kamera (Sam)' } });
    const later = await run(laptop, '--json');
    expect(later.code).toBe(6);
    expect(JSON.parse(later.stdout).conflicts).toEqual([
      expect.objectContaining({ entity_id: d.id, fields: expect.arrayContaining(['title']) }),
    ]);
    await onLaptop(laptop, async (l) =>
      expect((await l.dsfa.get({ tenant, params: { id: d.id } })).title).toBe('Kamera (Kim)'),
    );
  });

  it('a sync cut off halfway reports it in one line, and run again completes with no duplicate and no loss', async () => {
    const tenant = 'cut';
    for (let i = 0; i < 12; i++) await server.dsfa.create({ tenant, actor: 'sam', body: { title: `S${i}` } });
    const laptop = tmpDb();
    await onLaptop(laptop, async (l) => {
      for (let i = 0; i < 6; i++) await l.dsfa.create({ tenant, actor: 'lea', body: { title: `L${i}` } });
    });
    // a proxy that passes requests until told to cut: before a request reaches the server, or after the server
    // answered it (a push applied there whose answer never came back)
    let cutAt = Infinity;
    let cutAfter = false;
    let seen = 0;
    const proxy: Server = createServer(async (req, res) => {
      const body = await new Promise<Buffer>((r) => {
        const parts: Buffer[] = [];
        req.on('data', (c) => parts.push(c)).on('end', () => r(Buffer.concat(parts)));
      });
      if (++seen >= cutAt && !cutAfter) return req.socket.destroy();
      const up = await fetch(`${url}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: req.method === 'GET' ? undefined : body,
      });
      const answer = Buffer.from(await up.arrayBuffer());
      if (seen >= cutAt) return req.socket.destroy();
      res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
      res.end(answer);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    const via = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const target = { db: laptop, tenant, actor: 'lea', clock: systemClock };
    const attempt = () => runSync(target, { url: via, apiKey: key }, { newTenant: true, pageSize: 5 });
    // cut in the pull (the 4th request: info, two pages, then the third page), then in the push after the server
    // applied the second page of records, then never
    seen = 0;
    cutAt = 4;
    expect(await attempt().catch((e) => e)).toMatchObject({ code: 'unavailable' });
    seen = 0;
    cutAt = 6;
    cutAfter = true;
    expect(await attempt().catch((e) => e)).toMatchObject({ code: 'unavailable' });
    cutAt = Infinity;
    const done = await attempt();
    proxy.close();
    expect(done.conflicts).toEqual([]);
    expect(done.first).toBe(false);
    const list = async (b: LocalBackend) =>
      (await b.dsfa.list({ tenant, query: { limit: 100 } })).sort((x, y) => x.id.localeCompare(y.id));
    const expected = await list(server);
    expect(expected).toHaveLength(18);
    await onLaptop(laptop, async (l) => {
      expect(await list(l)).toEqual(expected);
      await expectChainIntact(l, tenant);
    });
    await expectChainIntact(server, tenant);
  });
});
