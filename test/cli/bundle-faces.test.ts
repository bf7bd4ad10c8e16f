import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, ENGINE_NAMES, freshStore, startServer, tmp, tmpDb } from '../support/helpers.js';
import { journalHead } from '../support/journal.js';
import { storeMedium } from '../support/media.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { MediaRef } from '../../src/domain/training/media-ref.js';
import { readObject } from '../../src/store/media-objects.js';

// export and import on every face: from and into the embedded store, and through a server's routes (admin keys),
// streamed; a bundle goes into its own tenant, or into another only when asked to rename it.
const T = 'acme';
/** What the API answers for a tenant's records. */
async function answers(b: LocalBackend, tenant: string, ids: { consent: string; doc: string; module: string }) {
  const t = { tenant };
  return {
    dsfa: await b.dsfa.list({ ...t, query: {} }),
    audit: await b.dsfa.auditLog({ ...t, query: {} }),
    consents: await b.consents.list({ ...t, query: {} }),
    history: await b.consents.history({ ...t, params: { id: ids.consent } }),
    doc: await b.legalDocuments.get({ ...t, params: { id: ids.doc } }),
    versions: await b.legalDocuments.versions({ ...t, params: { id: ids.doc } }),
    modules: await b.training.listModules({ ...t, query: {} }),
    media: await b.trainingMedia.list({ ...t, params: { moduleId: ids.module } }),
  };
}

/** The parts of a bundle file with their SHA-256, from its manifest (records and media; not the time it was made). */
const partsOf = (file: string) => {
  const m = JSON.parse(strFromU8(unzipSync(new Uint8Array(readFileSync(file)))['manifest.json']!)) as {
    tenant: string;
    parts: Array<{ path: string; sha256: string }>;
  };
  return { tenant: m.tenant, parts: m.parts.filter((p) => !p.path.startsWith('schemas/')) };
};

describe.each(ENGINE_NAMES)('tenant bundles on every face, on %s', (engine) => {
  let source: string;
  let bundle: string;
  let ids: { consent: string; doc: string; module: string; media: string };
  const video = randomBytes(3 * 1024 * 1024);
  let server: LocalBackend;
  let srv: Awaited<ReturnType<typeof startServer>>;
  const keys = {} as Record<'root' | 'read', string>;

  beforeAll(async () => {
    source = await freshStore(engine);
    const b = await createLocalBackend(source);
    const t = { tenant: T, actor: 'sam' };
    const d = await b.dsfa.create({ ...t, body: { title: 'Kamera' } });
    await b.dsfa.update({ ...t, params: { id: d.id }, body: { description: 'Eingang' } });
    const c = await b.consents.create({ ...t, body: { user_id: 'u1', data_point_id: 'news', granted: true } });
    await b.consents.revoke({ ...t, params: { id: c.id }, body: {} });
    const doc = await b.legalDocuments.create({ ...t, body: { title: 'DSE', document_type: 'privacy_policy' } });
    await b.legalDocuments.addVersion({ ...t, params: { id: doc.id }, body: { title: 'DSE', content: '# DSE' } });
    const m = await b.training.createModule({
      ...t,
      body: { module_code: 'NET-1', title: 'Sicher im Netz', regulation_area: 'nis2', frequency_type: 'micro' },
    });
    const media = '01930000-0000-7000-8000-00000000a001';
    // inside the tenant's scope: on PostgreSQL the object's rows are the tenant's
    await forTenant(T, () => storeMedium(b, { tenant: T, moduleId: m.id, id: media, kind: 'video', bytes: video }));
    await b.close();
    ids = { consent: c.id, doc: doc.id, module: m.id, media };
    bundle = join(tmp(), 'acme.bundle');
    const r = await cli(['--db', source, '--tenant', T, 'export', '-o', bundle]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^wrote .*acme\.bundle: tenant acme, \d+ records, 1 media files\n$/);

    server = await createLocalBackend(await freshStore(engine));
    const k = await server.keys();
    keys.root = (await k.create('root')).key;
    keys.read = (await k.create({ scope: 'read', tenants: [T] })).key;
    srv = await startServer(server);
  });
  afterAll(async () => {
    await srv?.close();
    await server?.close();
  });

  const remote = (key: string, ...args: string[]) => cli(['--remote', srv.url, '--api-key', key, ...args]);

  it.runIf(engine === 'sqlite')(
    'export is a read: a store that does not exist is refused (exit 1), not created',
    async () => {
      const typo = join(tmp(), 'typo.db');
      const out = join(tmp(), 'x.bundle');
      const r = await cli(['--db', typo, '--tenant', T, 'export', '-o', out]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error: no store at .*typo\.db: a command that only reads creates none/);
      expect([existsSync(typo), existsSync(out)]).toEqual([false, false]);
    },
  );

  it('--remote import writes into the server, not into a local store: the API answers the same', async () => {
    const xdg = tmp();
    const r = await remote(keys.root, '--json', 'import', bundle);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tenant: T, conflicts: [] });
    expect(readdirSync(xdg)).toEqual([]);
    const src = await createLocalBackend(source);
    try {
      expect(await answers(server, T, ids)).toEqual(await answers(src, T, ids));
    } finally {
      await src.close();
    }
    const objects = await server.store.mediaObjects();
    const [medium] = await server.trainingMedia.list({ tenant: T, params: { moduleId: ids.module } });
    const ref = MediaRef.of(T, ids.module, medium!.id, medium!.kind);
    expect(medium!.object_key).toBe(ref.key);
    const stored = await forTenant(T, () => readObject(objects, ref));
    expect(Buffer.compare(stored, video)).toBe(0);
    // the same bundle again changes nothing
    const again = await remote(keys.root, '--json', 'import', bundle);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: {}, conflicts: [] });
  });

  it("--remote export streams the server's tenant: the same records and media as the local export", async () => {
    const out = join(tmp(), 'from-server.bundle');
    const r = await remote(keys.root, '--tenant', T, 'export', '-o', out);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('tenant acme');
    expect(partsOf(out)).toEqual(partsOf(bundle));
    // it reads back into an empty store
    const copy = tmpDb();
    expect((await cli(['--db', copy, 'import', out])).code).toBe(0);
    const b = await createLocalBackend(copy);
    try {
      expect(await answers(b, T, ids)).toEqual(await answers(server, T, ids));
    } finally {
      await b.close();
    }
  });

  it('needs an admin key on the server: a read key can neither export nor import (exit 4)', async () => {
    const out = join(tmp(), 'read.bundle');
    const e = await remote(keys.read, '--tenant', T, 'export', '-o', out);
    expect(e.code).toBe(4);
    expect(e.stderr).toMatch(/needs admin/);
    expect(existsSync(out)).toBe(false);
    expect((await remote(keys.read, '--tenant', T, 'import', bundle)).code).toBe(4);
  });

  it.each(['local', 'remote'])(
    '%s: into another --tenant is refused (exit 2) naming both, unless --rename-tenant',
    async (face) => {
      const target = tmpDb();
      expect((await cli(['--db', target, 'db', 'init'])).code).toBe(0);
      const run = (...args: string[]) =>
        face === 'local' ? cli(['--db', target, ...args]) : remote(keys.root, ...args);
      const r = await run('--tenant', 'acme-gmbh', 'import', bundle);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('holds tenant acme, not acme-gmbh');
      expect(r.stderr).toContain('--rename-tenant');
      const listed = async () =>
        (JSON.parse((await run('--json', 'tenants', 'list')).stdout) as Array<{ tenant_id: string }>).map(
          (t) => t.tenant_id,
        );
      expect(await listed()).toEqual(face === 'local' ? [] : [T]);
      const renamed = await run('--tenant', 'acme-gmbh', '--json', 'import', bundle, '--rename-tenant');
      if (face === 'remote') {
        // the server holds acme, whose records carry the same ids: refused before anything is written
        expect(renamed.code).toBe(5);
        expect(renamed.stderr).toMatch(/held in this store by another tenant/);
        expect(await listed()).toEqual([T]);
        return;
      }
      expect(renamed.code, renamed.stderr).toBe(0);
      expect(JSON.parse(renamed.stdout)).toMatchObject({ tenant: 'acme-gmbh', conflicts: [] });
      expect(await listed()).toEqual(['acme-gmbh']);
      const b = await createLocalBackend(target);
      try {
        const [dsfa] = await b.dsfa.list({ tenant: 'acme-gmbh', query: {} });
        expect(dsfa).toMatchObject({ tenant_id: 'acme-gmbh', title: 'Kamera' });
        const [medium] = await b.trainingMedia.list({ tenant: 'acme-gmbh', params: { moduleId: ids.module } });
        const objects = await b.store.mediaObjects();
        // its file is where this store keeps the renamed tenant's media, and the record says so
        const ref = MediaRef.of('acme-gmbh', ids.module, medium!.id, medium!.kind);
        expect(medium!.object_key).toBe(ref.key);
        expect(Buffer.compare(await readObject(objects, ref), video)).toBe(0);
        // the original beside its renamed copy would share their keys: refused, nothing written
        const head = await journalHead(b, T);
        const original = await cli(['--db', target, 'import', bundle]);
        expect(original.code).toBe(5);
        expect(original.stderr).toMatch(/held in this store by another tenant/);
        expect(await journalHead(b, T)).toBe(head);
      } finally {
        await b.close();
      }
    },
  );

  it('the API refuses a bundle for another tenant with 422 naming both, and takes rename_tenant', async () => {
    const res = await fetch(`${srv.url}/sdk/v1/bundle`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.root}`, 'x-tenant-id': 'globex', 'content-type': 'application/zip' },
      body: readFileSync(bundle),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'validation',
      error: expect.stringContaining('holds tenant acme, not globex'),
      details: [{ path: 'rename_tenant' }],
    });
    const garbage = await fetch(`${srv.url}/sdk/v1/bundle`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.root}`, 'x-tenant-id': T, 'content-type': 'application/zip' },
      body: 'not a zip',
    });
    expect(garbage.status).toBe(422);
    expect(((await garbage.json()) as { error: string }).error).toBe(
      'the bundle: not a bundle (not a readable ZIP archive)',
    );
  });
});
