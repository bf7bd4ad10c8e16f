import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES, failure, useBackend, useServer } from '../support/helpers.js';

const T = { tenant: 'kanzlei', actor: 'editor' };

const banner = {
  categories: [
    { id: 'necessary', name: 'Notwendig', isRequired: true, defaultEnabled: true },
    { id: 'analytics', name: 'Statistik', isRequired: false, defaultEnabled: false },
  ],
  config: {
    position: 'bottom-right',
    style: 'box',
    primaryColor: '#0b5cab',
    showDeclineAll: true,
    showSettings: false,
    banner_texts: {
      title: 'Cookies',
      description: 'Wir nutzen Statistik-Cookies nur mit Ihrer Einwilligung.',
      privacyLink: 'https://example.com/datenschutz',
    },
  },
};

describe.each(BACKEND_NAMES)('cookie banner on the %s backend', (name) => {
  const b = useBackend(name);
  const api = () => b.backend.cookieBanner;

  it('answers the default before any PUT, then stores and returns the whole configuration', async () => {
    const d = await api().get(T);
    expect(d).toMatchObject({
      tenant_id: 'kanzlei',
      updated_at: null,
      config: { position: 'bottom', style: 'bar', showDeclineAll: true, showSettings: true },
    });
    expect(d.categories.map((c) => [c.id, c.isRequired, c.defaultEnabled])).toEqual([
      ['necessary', true, true],
      ['functional', false, false],
      ['analytics', false, false],
      ['marketing', false, false],
    ]);
    const saved = await api().put({ ...T, body: banner });
    expect(saved).toMatchObject({ ...banner, tenant_id: 'kanzlei' });
    expect(saved.updated_at).toMatch(/Z$/);
    expect(await api().get(T)).toEqual(saved);
    expect((await api().get({ tenant: 'other' })).updated_at).toBeNull();
  });

  it.each([
    [{ ...banner, categories: [banner.categories[0], banner.categories[0]] }, 'categories.1.id', 'duplicate'],
    [{ ...banner, config: { ...banner.config, primaryColor: 'red' } }, 'config.primaryColor', '#rgb or #rrggbb'],
    [
      { ...banner, config: { ...banner.config, position: 'left' } },
      'config.position',
      'bottom, top, center, bottom-left, bottom-right',
    ],
    [{ ...banner, config: { ...banner.config, style: 'popup' } }, 'config.style', 'bar, box, modal'],
    [
      { ...banner, categories: [{ id: 'necessary', name: 'N', isRequired: true, defaultEnabled: false }] },
      'categories.0.defaultEnabled',
      'required category',
    ],
    [{ categories: banner.categories }, 'config', 'required'],
    [
      {
        ...banner,
        config: {
          ...banner.config,
          banner_texts: { ...banner.config.banner_texts, translations: { English: { title: 'Cookies' } } },
        },
      },
      'config.banner_texts.translations.English',
      'language tag',
    ],
    [
      { ...banner, categories: [{ ...banner.categories[0], names: { en: '' } }] },
      'categories.0.names.en',
      'must not be empty',
    ],
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

describe('cookie-banner routes over HTTP', () => {
  const srv = useServer();

  it('requires X-Tenant-ID (400) on GET and PUT, and answers 422 for a bad configuration', async () => {
    for (const method of ['GET', 'PUT']) {
      const res = await fetch(`${srv.url}/sdk/v1/einwilligungen/cookies`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'PUT' ? JSON.stringify(banner) : undefined,
      });
      expect(res.status, method).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'bad_request', error: expect.stringContaining('X-Tenant-ID') });
    }
    const h = { 'x-tenant-id': 'web', 'content-type': 'application/json' };
    const bad = await fetch(`${srv.url}/sdk/v1/einwilligungen/cookies`, {
      method: 'PUT',
      headers: h,
      body: JSON.stringify({ ...banner, config: { ...banner.config, primaryColor: 'red' } }),
    });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({
      code: 'validation',
      details: [expect.objectContaining({ path: 'config.primaryColor' })],
    });
    const ok = await fetch(`${srv.url}/sdk/v1/einwilligungen/cookies`, {
      method: 'PUT',
      headers: h,
      body: JSON.stringify(banner),
    });
    expect(ok.status).toBe(200);
    expect(await (await fetch(`${srv.url}/sdk/v1/einwilligungen/cookies`, { headers: h })).json()).toEqual(
      await ok.json(),
    );
  });
});
