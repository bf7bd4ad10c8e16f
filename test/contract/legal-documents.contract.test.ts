import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES, failure, useBackend, useServer } from '../support/helpers.js';

const T = { tenant: 'kanzlei', actor: 'editor' };

describe.each(BACKEND_NAMES)('legal documents on the %s backend', (name) => {
  const b = useBackend(name);
  const api = () => b.backend.legalDocuments;

  it('walks draft → review → approved → published and archives the previous publication', async () => {
    const d = await api().create({ ...T, body: { title: 'Datenschutzerklärung', document_type: 'privacy_policy' } });
    expect(d).toMatchObject({ status: 'draft', language: 'de', tenant_id: 'kanzlei' });
    const v1 = await api().addVersion({
      ...T,
      params: { id: d.id },
      body: { title: 'DSE', content: '# Datenschutz\nVersion 1' },
    });
    expect(v1).toMatchObject({ version_number: 1, status: 'draft', created_by: 'editor', published_at: null });
    expect((await failure(api().publish({ ...T, params: { id: v1.id }, body: {} }))).code).toBe('conflict');
    expect((await failure(api().approve({ ...T, params: { id: v1.id }, body: {} }))).message).toMatch(/it is draft/);
    await api().submit({ ...T, params: { id: v1.id }, body: {} });
    const rejected = await api().reject({ ...T, params: { id: v1.id }, body: { comment: 'Kontakt fehlt' } });
    expect(rejected).toMatchObject({ status: 'draft', comment: 'Kontakt fehlt' });
    await api().submit({ ...T, params: { id: v1.id }, body: {} });
    const approved = await api().approve({ ...T, params: { id: v1.id }, body: { approved_by: 'dpo@example.com' } });
    expect(approved).toMatchObject({ status: 'approved', approved_by: 'dpo@example.com' });
    const p1 = await api().publish({ ...T, params: { id: v1.id }, body: {} });
    expect(p1.status).toBe('published');
    expect(p1.published_at).toMatch(/Z$/);
    expect((await api().get({ ...T, params: { id: d.id } })).status).toBe('published');

    const v2 = await api().addVersion({
      ...T,
      params: { id: d.id },
      body: { title: 'DSE', content: '# Datenschutz\nVersion 2', change_summary: 'Kontakt ergänzt' },
    });
    expect(v2.version_number).toBe(2);
    await api().submit({ ...T, params: { id: v2.id }, body: {} });
    await api().approve({ ...T, params: { id: v2.id }, body: {} });
    await api().publish({ ...T, params: { id: v2.id }, body: {} });
    const versions = await api().versions({ ...T, params: { id: d.id } });
    expect(versions.map((v) => [v.version_number, v.status])).toEqual([
      [2, 'published'],
      [1, 'archived'],
    ]);
    expect(Array.isArray(versions)).toBe(true);
  });

  it('validates documents and versions', async () => {
    const e = await failure(api().create({ ...T, body: { title: 'AGB', document_type: 'contract' } }));
    expect(e.code).toBe('validation');
    expect(e.message).toContain('privacy_policy, terms, cookie_policy, imprint, dpa');
    expect((await failure(api().create({ ...T, body: { title: '', document_type: 'terms' } }))).details[0]!.path).toBe(
      'title',
    );
    const d = await api().create({ ...T, body: { title: 'Impressum', document_type: 'imprint', language: 'en' } });
    expect(
      (await failure(api().addVersion({ ...T, params: { id: d.id }, body: { title: 'x' } }))).details[0]!.path,
    ).toBe('content');
    const v = await api().addVersion({ ...T, params: { id: d.id }, body: { title: 'x', content: 'y' } });
    await api().submit({ ...T, params: { id: v.id }, body: {} });
    expect((await failure(api().reject({ ...T, params: { id: v.id }, body: {} }))).details[0]!.path).toBe('comment');
  });

  it('filters the list and keeps tenants apart', async () => {
    const d = await api().create({ ...T, body: { title: 'Cookie-Richtlinie', document_type: 'cookie_policy' } });
    expect((await api().list({ ...T, query: { document_type: 'cookie_policy' } })).map((x) => x.id)).toEqual([d.id]);
    const v = await api().addVersion({ ...T, params: { id: d.id }, body: { title: 'x', content: 'y' } });
    const other = { tenant: 'andere', actor: 'x' };
    expect(await api().list(other)).toEqual([]);
    expect((await failure(api().versions({ ...other, params: { id: d.id } }))).code).toBe('not_found');
    expect((await failure(api().submit({ ...other, params: { id: v.id }, body: {} }))).code).toBe('not_found');
    expect(
      (await failure(api().addVersion({ ...other, params: { id: d.id }, body: { title: 'x', content: 'y' } }))).code,
    ).toBe('not_found');
    expect((await api().version({ ...T, params: { id: v.id } })).status).toBe('draft');
  });
});

describe('legal-document routes over HTTP', () => {
  const srv = useServer();

  it.each([
    ['GET', '/legal-documents/documents'],
    ['POST', '/legal-documents/documents'],
    ['GET', '/legal-documents/documents/0195a000-0000-7000-8000-000000000000/versions'],
    ['POST', '/legal-documents/documents/0195a000-0000-7000-8000-000000000000/versions'],
    ['POST', '/legal-documents/versions/0195a000-0000-7000-8000-000000000000/publish'],
  ])('%s %s without X-Tenant-ID is a 400', async (method, path) => {
    const res = await fetch(`${srv.url}/sdk/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: method === 'POST' ? '{}' : undefined,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'bad_request', error: expect.stringContaining('X-Tenant-ID') });
  });

  it('answers 201 on create, a direct array of versions, 409 for publishing a draft and 404 for an unknown version', async () => {
    const h = { 'x-tenant-id': 'web', 'content-type': 'application/json' };
    const doc = await fetch(`${srv.url}/sdk/v1/legal-documents/documents`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ title: 'Impressum', document_type: 'imprint' }),
    });
    expect(doc.status).toBe(201);
    const { id } = (await doc.json()) as { id: string };
    const v = await fetch(`${srv.url}/sdk/v1/legal-documents/documents/${id}/versions`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ title: 'v1', content: 'x' }),
    });
    expect(v.status).toBe(201);
    const list = await (
      await fetch(`${srv.url}/sdk/v1/legal-documents/documents/${id}/versions`, { headers: h })
    ).json();
    expect(Array.isArray(list)).toBe(true);
    const publish = await fetch(
      `${srv.url}/sdk/v1/legal-documents/versions/${(list as Array<{ id: string }>)[0]!.id}/publish`,
      { method: 'POST', headers: h },
    );
    expect(publish.status).toBe(409);
    const unknown = await fetch(
      `${srv.url}/sdk/v1/legal-documents/versions/0195a000-0000-7000-8000-000000000000/publish`,
      { method: 'POST', headers: h },
    );
    expect(unknown.status).toBe(404);
  });
});
