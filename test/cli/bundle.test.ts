import { userInfo } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, ENGINE_NAMES, freshStore, tmp, tmpDb } from '../support/helpers.js';
import { expectChainIntact, journalAfter, journalHead } from '../support/journal.js';

// A tenant written to a bundle and read into another store: the API answers the same JSON for every record; the
// same bundle again changes nothing; a record that differs is a conflict; a damaged bundle is refused, naming the
// part, before anything is written.
const T = 'acme';
describe.each(ENGINE_NAMES)('tenant bundles into a store on %s', (engine) => {
  let source: string;
  let bundle: string;
  let ids: { dsfa: string; consent: string; doc: string; module: string };
  beforeAll(async () => {
    source = tmpDb();
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
    await b.close();
    ids = { dsfa: d.id, consent: c.id, doc: doc.id, module: m.id };
    bundle = join(tmp(), 'acme.bundle');
    const r = await cli(['--db', source, '--tenant', T, 'export', '-o', bundle, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  let target: string;
  let store: LocalBackend;
  const reopen = async () => {
    await store?.close();
    store = await createLocalBackend(target);
  };
  afterAll(async () => store?.close());

  /** What the API answers for the tenant's records. */
  const answers = async (b: LocalBackend) => {
    const t = { tenant: T };
    return {
      dsfa: await b.dsfa.list({ ...t, query: {} }),
      audit: await b.dsfa.auditLog({ ...t, query: {} }),
      consents: await b.consents.list({ ...t, query: {} }),
      history: await b.consents.history({ ...t, params: { id: ids.consent } }),
      doc: await b.legalDocuments.get({ ...t, params: { id: ids.doc } }),
      versions: await b.legalDocuments.versions({ ...t, params: { id: ids.doc } }),
      modules: await b.training.listModules({ ...t, query: {} }),
    };
  };

  it('the manifest names every part with its SHA-256 and count, and a JSON Schema of each table', () => {
    const parts = unzipSync(new Uint8Array(readFileSync(bundle)));
    const manifest = JSON.parse(strFromU8(parts['manifest.json']!));
    expect(manifest).toMatchObject({ format: 'compliance-bundle/1', tenant: T });
    const byPath = Object.fromEntries(manifest.parts.map((p: { path: string }) => [p.path, p]));
    expect(byPath['records/dsfa.ndjson']).toMatchObject({ count: 1 });
    expect(byPath['records/dsfa_audit.ndjson']).toMatchObject({ count: 2 });
    expect(byPath['records/consent_history.ndjson']).toMatchObject({ count: 2 });
    const schema = JSON.parse(strFromU8(parts['schemas/dsfa.schema.json']!));
    expect(schema.properties.title).toEqual({ type: 'string' });
    expect(schema.required).toEqual(expect.arrayContaining(['tenant_id', 'title', 'created_at']));
  });

  it('into an empty store reproduces every record: the API answers the same JSON', async () => {
    target = await freshStore(engine);
    const r = await cli(['--db', target, 'import', bundle, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tenant: T, conflicts: [] });
    await reopen();
    const src = await createLocalBackend(source);
    expect(await answers(store)).toEqual(await answers(src));
    await src.close();
    await expectChainIntact(store, T);
    // each table's new records are one batch entry of whoever imported it, from the bundle, naming the part and rows
    const entries = await journalAfter(store, T);
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries)
      expect(e).toMatchObject({
        entity: 'bundle_import',
        op: 'batch',
        principal: `os:${userInfo().username}`,
        origin: expect.stringMatching(/^bundle:[0-9a-f]+$/),
        entity_id: expect.stringMatching(/^bundle:[0-9a-f]+#records\/[a-z_]+\.ndjson:\d+-\d+$/),
      });
    // the same bundle again: nothing new, nothing changed
    const again = await cli(['--db', target, 'import', bundle, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: {}, conflicts: [] });
  });

  it('into a store where a record differs: a conflict (exit 6) that resolve settles', async () => {
    await reopen();
    await store.dsfa.update({ tenant: T, actor: 'lea', params: { id: ids.dsfa }, body: { title: 'Kamera (Lea)' } });
    await store.close();
    const r = await cli(['--db', target, 'import', bundle, '--json']);
    expect(r.code).toBe(6);
    const conflicts = JSON.parse(r.stdout).conflicts;
    const dsfa = conflicts.find((c: { entity: string }) => c.entity === 'dsfa');
    expect(dsfa).toMatchObject({ entity_id: ids.dsfa, ours: { actor: 'lea' } });
    expect(dsfa.fields).toContain('title');
    // the new audit entry of Lea's change is hers only; the bundle's audit entries are all here already
    expect((await cli(['--db', target, '--tenant', T, 'sync', 'resolve', dsfa.id, '--theirs'])).code).toBe(0);
    await reopen();
    expect((await store.dsfa.get({ tenant: T, params: { id: ids.dsfa } })).title).toBe('Kamera');
    await store.close();
  });

  it("a bundle's conflict settled per field: the record it makes is this store's at once", async () => {
    await reopen();
    const t = { tenant: T, actor: 'lea', params: { id: ids.dsfa } };
    await store.dsfa.update({ ...t, body: { title: 'Kamera (Lea)', description: 'Hof' } });
    await store.close();
    const r = await cli(['--db', target, 'import', bundle, '--json']);
    expect(r.code).toBe(6);
    const c = JSON.parse(r.stdout).conflicts.find((x: { entity: string }) => x.entity === 'dsfa');
    const args = ['--db', target, '--tenant', T, 'sync', 'resolve', c.id, '--json'];
    const settled = await cli([...args, '--theirs', '--field', 'description=ours']);
    expect(settled.stderr).toBe('');
    expect(settled.code).toBe(0);
    expect(JSON.parse(settled.stdout)).toMatchObject({
      status: 'resolved',
      resolution: expect.stringMatching(/^fields:/),
    });
    await reopen();
    expect(await store.dsfa.get({ tenant: T, params: { id: ids.dsfa } })).toMatchObject({
      title: 'Kamera',
      description: 'Hof',
    });
    await expectChainIntact(store, T);
    await store.close();
  });

  it('a bundle that cannot be written is one clear line (exit 1), not an unexpected error', async () => {
    const r = await cli(['--db', source, '--tenant', T, 'export', '-o', '/proc/no-such-folder/acme.bundle']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: cannot write \/proc\/no-such-folder\/acme\.bundle: /);
    expect(r.stderr).not.toMatch(/unexpected/);
  });

  it('a damaged or edited bundle is refused before anything is written, naming the part', async () => {
    await reopen();
    const head = await journalHead(store, T);
    await store.close();
    const parts = unzipSync(new Uint8Array(readFileSync(bundle)));
    parts['records/dsfa.ndjson'] = strToU8(strFromU8(parts['records/dsfa.ndjson']!).replace('Kamera', 'Kamerb'));
    const edited = join(tmp(), 'edited.bundle');
    writeFileSync(edited, zipSync(parts));
    const r = await cli(['--db', target, 'import', edited]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('records/dsfa.ndjson fails its checksum');
    const torn = join(tmp(), 'torn.bundle');
    writeFileSync(torn, readFileSync(bundle).subarray(0, 200));
    const t = await cli(['--db', target, 'import', torn]);
    expect(t.code).toBe(2);
    expect(t.stderr).toContain('not a bundle');
    await reopen();
    expect(await journalHead(store, T)).toBe(head);
  });
});
