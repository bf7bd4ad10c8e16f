import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { ENGINE_NAMES, freshStore, startServer } from '../support/helpers.js';

/**
 * The security matrix of issue 25: every key scope × route class × own or other tenant × allowed, other or no
 * Origin, on a real server over SQLite and over PostgreSQL. What is allowed succeeds; everything else is 403 (401 for
 * an expired key) and leaves the journal where it was, so nothing was stored.
 */
const OWN = 'acme';
const OTHER = 'globex';
const SHOP = 'https://shop.example';
const ORIGINS = { allowed: SHOP, other: 'https://evil.example', none: undefined } as const;
type OriginCase = keyof typeof ORIGINS;
type KeyName = 'publishable' | 'read' | 'write' | 'admin' | 'expired' | 'legacy';

interface RouteClass {
  name: string;
  /** The least secret scope it needs, by rank (1 read, 2 write, 3 admin); publishable routes are open to pk keys. */
  rank: number;
  publishable: boolean;
  /** Whether the tenant matters (key routes name their tenants in the body instead of a header). */
  tenantBound: boolean;
  ok: number;
  request(tenant: string): { method: string; path: string; body?: unknown };
}

let visitors = 0;
const ROUTES: RouteClass[] = [
  {
    name: 'publishable read (banner configuration)',
    rank: 1,
    publishable: true,
    tenantBound: true,
    ok: 200,
    request: () => ({ method: 'GET', path: '/einwilligungen/cookies' }),
  },
  {
    name: 'publishable write (record a consent)',
    rank: 2,
    publishable: true,
    tenantBound: true,
    ok: 201,
    request: () => ({
      method: 'POST',
      path: '/einwilligungen/consents',
      // a visitor of its own each time: the same decision again would create nothing (200)
      body: { user_id: `visitor-${++visitors}`, data_point_id: 'analytics', granted: true },
    }),
  },
  {
    name: 'other read (consent list)',
    rank: 1,
    publishable: false,
    tenantBound: true,
    ok: 200,
    request: () => ({ method: 'GET', path: '/einwilligungen/consents' }),
  },
  {
    name: 'write (create a DSFA)',
    rank: 2,
    publishable: false,
    tenantBound: true,
    ok: 201,
    request: () => ({ method: 'POST', path: '/dsfa', body: { title: 'matrix' } }),
  },
  {
    name: 'admin read (list keys)',
    rank: 3,
    publishable: false,
    tenantBound: false,
    ok: 200,
    request: () => ({ method: 'GET', path: '/keys' }),
  },
  {
    name: 'admin write (create a key)',
    rank: 3,
    publishable: false,
    tenantBound: true,
    ok: 201,
    request: (tenant) => ({ method: 'POST', path: '/keys', body: { name: 'made', scope: 'read', tenants: [tenant] } }),
  },
];

const RANK: Record<Exclude<KeyName, 'publishable' | 'expired'>, number> = { read: 1, write: 2, admin: 3, legacy: 3 };

function expected(key: KeyName, route: RouteClass, own: boolean, origin: OriginCase): number {
  if (key === 'expired') return 401;
  if (key === 'publishable') return route.publishable && own && origin === 'allowed' ? route.ok : 403;
  if (origin !== 'none') return 403; // a secret key is refused from every browser
  if (RANK[key] < route.rank) return 403;
  if (!own && route.tenantBound && key !== 'legacy') return 403;
  return route.ok;
}

describe.each(ENGINE_NAMES)('key scopes on %s', (engine) => {
  let local: LocalBackend;
  let srv: Awaited<ReturnType<typeof startServer>>;
  const keys = {} as Record<KeyName, string>;

  beforeAll(async () => {
    local = await createLocalBackend(await freshStore(engine));
    const store = await local.keys();
    keys.publishable = (await store.create({ scope: 'publishable', tenants: [OWN], origins: [SHOP] })).key;
    keys.read = (await store.create({ scope: 'read', tenants: [OWN] })).key;
    keys.write = (await store.create({ scope: 'write', tenants: [OWN] })).key;
    keys.admin = (await store.create({ scope: 'admin', tenants: [OWN] })).key;
    const expired = await store.create({ scope: 'write', tenants: [OWN], expires: '1d' });
    keys.expired = expired.key;
    await local.store.admin
      .updateTable('api_key')
      .set({ expires_at: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', expired.id)
      .execute();
    // as a store before migration 0020 holds it: scope admin, every tenant
    keys.legacy = (await store.create('legacy')).key;
    srv = await startServer(local, { server: { rateLimits: { perKey: 0, perIp: 0 } } });
  });
  afterAll(async () => {
    await srv?.close();
    await local?.close();
  });

  const head = async (): Promise<number> => {
    const r = await local.store.admin
      .selectFrom('journal')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  };

  async function call(key: string, route: RouteClass, tenant: string, origin: string | undefined) {
    const { method, path, body } = route.request(tenant);
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'x-tenant-id': tenant };
    if (origin) headers.origin = origin;
    if (body) headers['content-type'] = 'application/json';
    const res = await fetch(`${srv.url}/sdk/v1${path}`, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    return { res, json: (await res.json()) as { code?: string } };
  }

  it.each(['publishable', 'read', 'write', 'admin', 'expired', 'legacy'] as KeyName[])(
    'a %s key: allowed combinations succeed, all others are refused and store nothing',
    async (key) => {
      const wrong: string[] = [];
      let checked = 0;
      for (const route of ROUTES)
        for (const own of [true, false])
          for (const origin of Object.keys(ORIGINS) as OriginCase[]) {
            const before = await head();
            const { res, json } = await call(keys[key], route, own ? OWN : OTHER, ORIGINS[origin]);
            const after = await head();
            const want = expected(key, route, own, origin);
            const label = `${route.name}, ${own ? 'own' : 'other'} tenant, ${origin} origin`;
            checked++;
            if (res.status !== want) wrong.push(`${label}: ${res.status}, expected ${want}`);
            if (want >= 400) {
              if (json.code !== (want === 401 ? 'unauthorized' : 'forbidden'))
                wrong.push(`${label}: code ${json.code}`);
              if (after !== before) wrong.push(`${label}: the journal moved from ${before} to ${after}`);
            } else if (route.ok === 201 && after === before) wrong.push(`${label}: stored nothing`);
            // a page may read only what its own publishable key was allowed to fetch
            const acao = res.headers.get('access-control-allow-origin');
            if (acao === '*') wrong.push(`${label}: Access-Control-Allow-Origin *`);
            if (origin !== 'allowed' && acao !== null) wrong.push(`${label}: CORS header for ${origin} origin`);
            if (key === 'publishable' && want < 400 && acao !== SHOP) wrong.push(`${label}: no CORS header`);
          }
      expect(checked).toBe(ROUTES.length * 2 * 3);
      expect(wrong).toEqual([]);
    },
  );

  it('answers an expired key 401 wherever it is sent, before routing or tenants', async () => {
    for (const path of ['/no-such-route', '/openapi.json', '/einwilligungen/consents'])
      expect(
        (await fetch(`${srv.url}/sdk/v1${path}`, { headers: { authorization: `Bearer ${keys.expired}` } })).status,
        path,
      ).toBe(401);
  });

  it('records the key as the principal beside the X-User-ID it names, so a key cannot hide behind a user', async () => {
    const res = await fetch(`${srv.url}/sdk/v1/dsfa`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${keys.write}`,
        'x-tenant-id': OWN,
        'x-user-id': 'the-ceo',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ title: 'who did this' }),
    });
    expect(res.status).toBe(201);
    const prefix = /^cmp_([0-9a-f]{12})_/.exec(keys.write)![1];
    const page = await fetch(`${srv.url}/sdk/v1/journal?after=0&limit=1000`, {
      headers: { authorization: `Bearer ${keys.read}`, 'x-tenant-id': OWN },
    });
    const { entries } = (await page.json()) as { entries: Array<{ actor: string; principal: string; data: unknown }> };
    const mine = entries.filter((e) => JSON.stringify(e.data).includes('who did this'));
    expect(mine.length).toBeGreaterThan(0);
    for (const e of mine) expect(e).toMatchObject({ actor: 'the-ceo', principal: `key:${prefix}` });
  });

  it('shows a publishable key published legal documents only', async () => {
    const admin = { authorization: `Bearer ${keys.legacy}`, 'x-tenant-id': OWN, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) =>
      (await (
        await fetch(`${srv.url}/sdk/v1${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) })
      ).json()) as {
        id: string;
      };
    const published = await post('/legal-documents/documents', {
      title: 'Datenschutz',
      document_type: 'privacy_policy',
    });
    const draft = await post('/legal-documents/documents', { title: 'Entwurf', document_type: 'imprint' });
    const v = await post(`/legal-documents/documents/${published.id}/versions`, { title: 'v1', content: '# Text' });
    await post(`/legal-documents/versions/${v.id}/submit`, {});
    await post(`/legal-documents/versions/${v.id}/approve`, { approved_by: 'dpo' });
    await post(`/legal-documents/versions/${v.id}/publish`, {});
    const v2 = await post(`/legal-documents/documents/${published.id}/versions`, { title: 'v2', content: '# Neu' });
    const browser = { authorization: `Bearer ${keys.publishable}`, 'x-tenant-id': OWN, origin: SHOP };
    const get = (path: string) => fetch(`${srv.url}/sdk/v1${path}`, { headers: browser });
    const docs = (await (await get('/legal-documents/documents')).json()) as Array<{ id: string }>;
    expect(docs.map((d) => d.id)).toEqual([published.id]);
    const versions = (await (await get(`/legal-documents/documents/${published.id}/versions`)).json()) as Array<{
      id: string;
    }>;
    expect(versions.map((x) => x.id)).toEqual([v.id]);
    expect((await get(`/legal-documents/versions/${v.id}`)).status).toBe(200);
    expect((await get(`/legal-documents/versions/${v2.id}`)).status).toBe(404);
    expect((await get(`/legal-documents/documents/${draft.id}`)).status).toBe(404);
  });
});
