import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainError } from '../../src/domain/errors.js';
import { BACKEND_NAMES, openBackend, type BackendUnderTest } from '../support/helpers.js';

const T = { tenant: 'kanzlei', actor: 'editor' };
const failure = async (p: Promise<unknown>) => p.then(() => { throw new Error('expected failure'); }, (e: DomainError) => e);

const banner = {
  categories: [
    { id: 'necessary', name: 'Notwendig', isRequired: true, defaultEnabled: true },
    { id: 'analytics', name: 'Statistik', isRequired: false, defaultEnabled: false },
  ],
  config: {
    position: 'bottom-right', style: 'box', primaryColor: '#0b5cab', showDeclineAll: true, showSettings: false,
    banner_texts: { title: 'Cookies', description: 'Wir nutzen Statistik-Cookies nur mit Ihrer Einwilligung.', privacyLink: 'https://example.com/datenschutz' },
  },
};

describe.each(BACKEND_NAMES)('legal documents on the %s backend', (name) => {
  let b: BackendUnderTest;
  beforeAll(async () => { b = await openBackend(name); });
  afterAll(async () => { await b.close(); });
  const api = () => b.backend.legalDocuments;

  it('walks draft → review → approved → published and archives the previous publication', async () => {
    const d = await api().create({ ...T, body: { title: 'Datenschutzerklärung', document_type: 'privacy_policy' } });
    expect(d).toMatchObject({ status: 'draft', language: 'de', tenant_id: 'kanzlei' });
    const v1 = await api().addVersion({ ...T, params: { id: d.id }, body: { title: 'DSE', content: '# Datenschutz\nVersion 1' } });
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

    const v2 = await api().addVersion({ ...T, params: { id: d.id }, body: { title: 'DSE', content: '# Datenschutz\nVersion 2', change_summary: 'Kontakt ergänzt' } });
    expect(v2.version_number).toBe(2);
    await api().submit({ ...T, params: { id: v2.id }, body: {} });
    await api().approve({ ...T, params: { id: v2.id }, body: {} });
    await api().publish({ ...T, params: { id: v2.id }, body: {} });
    const versions = await api().versions({ ...T, params: { id: d.id } });
    expect(versions.map((v) => [v.version_number, v.status])).toEqual([[2, 'published'], [1, 'archived']]);
    expect(Array.isArray(versions)).toBe(true);
  });

  it('validates documents and versions', async () => {
    const e = await failure(api().create({ ...T, body: { title: 'AGB', document_type: 'contract' } }));
    expect(e.code).toBe('validation');
    expect(e.message).toContain('privacy_policy, terms, cookie_policy, imprint, dpa');
    expect((await failure(api().create({ ...T, body: { title: '', document_type: 'terms' } }))).details[0]!.path).toBe('title');
    const d = await api().create({ ...T, body: { title: 'Impressum', document_type: 'imprint', language: 'en' } });
    expect((await failure(api().addVersion({ ...T, params: { id: d.id }, body: { title: 'x' } }))).details[0]!.path).toBe('content');
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
    expect((await failure(api().addVersion({ ...other, params: { id: d.id }, body: { title: 'x', content: 'y' } }))).code).toBe('not_found');
    expect((await api().version({ ...T, params: { id: v.id } })).status).toBe('draft');
  });
});

describe.each(BACKEND_NAMES)('cookie banner on the %s backend', (name) => {
  let b: BackendUnderTest;
  beforeAll(async () => { b = await openBackend(name); });
  afterAll(async () => { await b.close(); });
  const api = () => b.backend.cookieBanner;

  it('answers the default before any PUT, then stores and returns the whole configuration', async () => {
    const d = await api().get(T);
    expect(d).toMatchObject({ tenant_id: 'kanzlei', updated_at: null, config: { position: 'bottom', style: 'bar', showDeclineAll: true, showSettings: true } });
    expect(d.categories.map((c) => [c.id, c.isRequired, c.defaultEnabled])).toEqual([['necessary', true, true], ['functional', false, false], ['analytics', false, false], ['marketing', false, false]]);
    const saved = await api().put({ ...T, body: banner });
    expect(saved).toMatchObject({ ...banner, tenant_id: 'kanzlei' });
    expect(saved.updated_at).toMatch(/Z$/);
    expect(await api().get(T)).toEqual(saved);
    expect((await api().get({ tenant: 'other' })).updated_at).toBeNull();
  });

  it.each([
    [{ ...banner, categories: [banner.categories[0], banner.categories[0]] }, 'categories.1.id', 'duplicate'],
    [{ ...banner, config: { ...banner.config, primaryColor: 'red' } }, 'config.primaryColor', '#rgb or #rrggbb'],
    [{ ...banner, config: { ...banner.config, position: 'left' } }, 'config.position', 'bottom, top, center, bottom-left, bottom-right'],
    [{ ...banner, config: { ...banner.config, style: 'popup' } }, 'config.style', 'bar, box, modal'],
    [{ ...banner, categories: [{ id: 'necessary', name: 'N', isRequired: true, defaultEnabled: false }] }, 'categories.0.defaultEnabled', 'required category'],
    [{ categories: banner.categories }, 'config', 'required'],
  ])('refuses a bad configuration (%#) and keeps the stored one', async (body, path, hint) => {
    const before = await api().get(T);
    const e = await failure(api().put({ ...T, body }));
    expect(e.code).toBe('validation');
    const d = e.details.find((x) => x.path === path);
    expect(d, JSON.stringify(e.details)).toBeDefined();
    expect(d!.message).toContain(hint);
    expect(await api().get(T)).toEqual(before);
  });
});
