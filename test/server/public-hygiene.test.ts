import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { startServer, tmpDb } from '../support/helpers.js';

const SHOP = 'https://shop.example';

/** A server over a fresh store with one publishable key for `acme` on SHOP and one admin key. */
async function serverWithKeys(server: NonNullable<Parameters<typeof startServer>[1]>['server'] = {}) {
  const local = await createLocalBackend(tmpDb());
  const store = await local.keys();
  const pk = await store.create({ scope: 'publishable', tenants: ['acme'], origins: [SHOP] });
  const admin = await store.create({ scope: 'admin', tenants: ['acme'] });
  const srv = await startServer(local, { server });
  return {
    local,
    srv,
    pk: pk.key,
    admin: admin.key,
    close: async () => {
      await srv.close();
      await local.close();
    },
  };
}

type Setup = Awaited<ReturnType<typeof serverWithKeys>>;

describe('CORS', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await serverWithKeys();
  });
  afterAll(() => s?.close());

  const preflight = (path: string, origin: string, method: string) =>
    fetch(`${s.srv.url}/sdk/v1${path}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization, content-type, x-tenant-id',
      },
    });

  it('answers the preflight of a publishable route for an origin a publishable key lists', async () => {
    for (const [path, method] of [
      ['/einwilligungen/consents', 'POST'],
      ['/einwilligungen/cookies', 'GET'],
      ['/legal-documents/documents', 'GET'],
    ] as const) {
      const res = await preflight(path, SHOP, method);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
      expect(res.headers.get('access-control-allow-methods')).toBe(method);
      expect(res.headers.get('access-control-allow-headers')).toBe(
        'Authorization, Content-Type, X-Tenant-ID, X-User-ID, X-Request-ID',
      );
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toMatch(/Origin/);
    }
  });

  it('refuses the preflight of another origin, and of a route a publishable key may not call', async () => {
    for (const [path, origin, method] of [
      ['/einwilligungen/consents', 'https://evil.example', 'POST'],
      ['/einwilligungen/consents', 'https://shop.example:8443', 'POST'],
      ['/einwilligungen/consents', 'http://shop.example', 'POST'],
      ['/dsfa', SHOP, 'POST'],
      ['/einwilligungen/cookies', SHOP, 'PUT'],
      ['/keys', SHOP, 'GET'],
    ] as const) {
      const res = await preflight(path, origin, method);
      expect(res.status, `${origin} ${method} ${path}`).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(((await res.json()) as { code: string }).code).toBe('forbidden');
    }
  });

  it('lets the page read the answer of its own publishable key, and the error bodies too', async () => {
    const headers = { authorization: `Bearer ${s.pk}`, 'x-tenant-id': 'acme', origin: SHOP };
    const ok = await fetch(`${s.srv.url}/sdk/v1/einwilligungen/cookies`, { headers });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/X-Request-ID/);
    const other = await fetch(`${s.srv.url}/sdk/v1/einwilligungen/cookies`, {
      headers: { ...headers, 'x-tenant-id': 'globex' },
    });
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBe(SHOP);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After and the error body once an address used up its minute', async () => {
    const s = await serverWithKeys({ rateLimits: { perIp: 3, perKey: 0 } });
    try {
      const get = () =>
        fetch(`${s.srv.url}/sdk/v1/einwilligungen/cookies`, {
          headers: { authorization: `Bearer ${s.pk}`, 'x-tenant-id': 'acme', origin: SHOP },
        });
      for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200);
      const limited = await get();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await limited.json()).toMatchObject({ code: 'rate_limited', error: expect.stringMatching(/try again/) });
      // the routes of secret keys are not the public ones
      const dsfa = await fetch(`${s.srv.url}/sdk/v1/dsfa?tenant_id=acme`, {
        headers: { authorization: `Bearer ${s.admin}` },
      });
      expect(dsfa.status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('tells every caller of a limited route its quota in RateLimit-Policy and RateLimit, and readably cross-origin', async () => {
    const s = await serverWithKeys({ rateLimits: { perIp: 3, perKey: 2 } });
    try {
      const headers = { authorization: `Bearer ${s.pk}`, 'x-tenant-id': 'acme', origin: SHOP };
      const get = () => fetch(`${s.srv.url}/sdk/v1/einwilligungen/cookies`, { headers });
      const first = await get();
      expect(first.status).toBe(200);
      // draft-ietf-httpapi-ratelimit-headers: a list of quota policies, and the service limit left of each
      expect(first.headers.get('ratelimit-policy')).toBe('"per-address";q=3;w=60, "per-key";q=2;w=60');
      expect(first.headers.get('ratelimit')).toMatch(/^"per-address";r=2;t=\d+, "per-key";r=1;t=\d+$/);
      expect(first.headers.get('retry-after')).toBeNull();
      // a page may read them, as it reads Retry-After
      expect(first.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Policy, RateLimit\b/);
      expect((await get()).headers.get('ratelimit')).toMatch(/^"per-address";r=1;t=\d+, "per-key";r=0;t=\d+$/);
      // the key's quota refuses the third: both quotas counted it, Retry-After is the key's next request
      const byKey = await get();
      expect(byKey.status).toBe(429);
      const t = /"per-key";r=0;t=(\d+)$/.exec(byKey.headers.get('ratelimit')!)?.[1];
      expect(Number(t)).toBeGreaterThanOrEqual(1);
      expect(byKey.headers.get('retry-after')).toBe(t);
      // the address's quota refuses the fourth before any key is looked up: only its own quota is named
      const byAddress = await get();
      expect(byAddress.status).toBe(429);
      expect(byAddress.headers.get('ratelimit-policy')).toBe('"per-address";q=3;w=60');
      expect(byAddress.headers.get('ratelimit')).toBe(`"per-address";r=0;t=${byAddress.headers.get('retry-after')}`);
      // the routes of secret keys are not limited, and say nothing of quotas
      const dsfa = await fetch(`${s.srv.url}/sdk/v1/dsfa?tenant_id=acme`, {
        headers: { authorization: `Bearer ${s.admin}` },
      });
      expect(dsfa.headers.get('ratelimit')).toBeNull();
      expect(dsfa.headers.get('ratelimit-policy')).toBeNull();
    } finally {
      await s.close();
    }
  });

  it('does not limit a server without keys (it listens on 127.0.0.1 only)', async () => {
    const local = await createLocalBackend(tmpDb());
    const srv = await startServer(local, { server: { rateLimits: { perIp: 1, perKey: 1 } } });
    try {
      for (let i = 0; i < 3; i++)
        expect(
          (await fetch(`${srv.url}/sdk/v1/einwilligungen/cookies`, { headers: { 'x-tenant-id': 'a' } })).status,
        ).toBe(200);
    } finally {
      await srv.close();
      await local.close();
    }
  });

  it('limits each key on its own, and stores nothing for a refused request', async () => {
    const s = await serverWithKeys({ rateLimits: { perIp: 0, perKey: 2 } });
    try {
      let visitor = 0;
      const post = () =>
        fetch(`${s.srv.url}/sdk/v1/einwilligungen/consents`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${s.pk}`,
            'x-tenant-id': 'acme',
            origin: SHOP,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ user_id: `v${++visitor}`, data_point_id: 'analytics', granted: true }),
        });
      expect((await post()).status).toBe(201);
      expect((await post()).status).toBe(201);
      const limited = await post();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('30');
      const stored = await s.local.store.admin.selectFrom('consent').select('id').execute();
      expect(stored).toHaveLength(2);
    } finally {
      await s.close();
    }
  });
});

describe('request ids, the log and security headers', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await serverWithKeys({ logFormat: 'json' });
  });
  afterAll(() => s?.close());

  it('echoes a sane X-Request-ID, replaces an insane one, and logs one JSON object per request', async () => {
    const n = s.srv.logs.length;
    const mine = await fetch(`${s.srv.url}/sdk/v1/dsfa?tenant_id=acme`, {
      headers: { authorization: `Bearer ${s.admin}`, 'x-request-id': 'req-42.a' },
    });
    expect(mine.headers.get('x-request-id')).toBe('req-42.a');
    const insane = await fetch(`${s.srv.url}/sdk/v1/dsfa?tenant_id=acme`, {
      headers: { authorization: `Bearer ${s.admin}`, 'x-request-id': 'a b <script>' },
    });
    const generated = insane.headers.get('x-request-id')!;
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await fetch(`${s.srv.url}/sdk/v1/dsfa`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const lines = s.srv.logs.slice(n).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    const prefix = /^cmp_([0-9a-f]{12})_/.exec(s.admin)![1];
    expect(lines[0]).toMatchObject({
      request_id: 'req-42.a',
      method: 'GET',
      path: '/sdk/v1/dsfa',
      status: 200,
      principal: `key:${prefix}`,
      tenant: 'acme',
    });
    expect(typeof lines[0]!.duration_ms).toBe('number');
    expect(Date.parse(lines[0]!.time as string)).not.toBeNaN();
    expect(lines[1]!.request_id).toBe(generated);
    expect(lines[2]).toMatchObject({ status: 401, principal: null, tenant: null });
  });

  it('sends security headers with JSON answers', async () => {
    const res = await fetch(`${s.srv.url}/sdk/v1/health`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('says Vary: Origin on every answer: JSON, errors, preflights, the banner script (also 304 and HEAD), 429', async () => {
    const url = (path: string) => `${s.srv.url}/sdk/v1${path}`;
    const script = await fetch(url('/banner.js'), { headers: { origin: SHOP } });
    const answers: Array<[string, Response]> = [
      ['health', await fetch(url('/health'))],
      ['JSON', await fetch(url('/dsfa?tenant_id=acme'), { headers: { authorization: `Bearer ${s.admin}` } })],
      ['401', await fetch(url('/dsfa'))],
      ['404', await fetch(url('/nothing-here'))],
      ['405', await fetch(url('/einwilligungen/consents/stats'), { method: 'DELETE' })],
      [
        'preflight',
        await fetch(url('/einwilligungen/consents'), {
          method: 'OPTIONS',
          headers: { origin: SHOP, 'access-control-request-method': 'POST' },
        }),
      ],
      [
        'refused preflight',
        await fetch(url('/keys'), {
          method: 'OPTIONS',
          headers: { origin: SHOP, 'access-control-request-method': 'GET' },
        }),
      ],
      ['banner.js', script],
      ['banner.js 304', await fetch(url('/banner.js'), { headers: { 'if-none-match': script.headers.get('etag')! } })],
      ['banner.js HEAD', await fetch(url('/banner.js'), { method: 'HEAD' })],
    ];
    for (const [what, res] of answers) {
      const vary = (res.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());
      expect(vary, `${what} (${res.status})`).toContain('origin');
    }
    // the script is the same for every origin and may be gzipped: it varies by both
    expect(script.headers.get('vary')).toBe('Origin, Accept-Encoding');
  });

  it('answers garbage the HTTP parser refuses with the JSON 400 body and a request id, and logs it', async () => {
    const { port } = new URL(s.srv.url);
    const n = s.srv.logs.length;
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end('\x00\x01 garbage \xff\r\n\r\n'));
      let text = '';
      socket.on('data', (c) => (text += c.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/);
    expect(reply).toMatch(/\r\nx-content-type-options: nosniff\r\n/);
    expect(reply).toMatch(/\r\nvary: Origin\r\n/);
    const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { code: string };
    expect(body).toMatchObject({ code: 'bad_request', details: [] });
    const line = JSON.parse(s.srv.logs.at(-1)!) as Record<string, unknown>;
    expect(s.srv.logs.length).toBe(n + 1);
    expect(line).toMatchObject({ status: 400, request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });
});

describe('upgrade', () => {
  it('keeps a key stored before migration 0020 working as an admin key of every tenant', async () => {
    const file = tmpDb();
    const sqlite = new Database(file);
    const db = new Kysely<{ api_key: Record<string, string> }>({ dialect: new SqliteDialect({ database: sqlite }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0018_consent_stats_by_month')).error).toBeUndefined();
    sqlite.pragma('user_version = 18');
    const key = 'cmp_0123456789ab_oldkeyoldkeyoldkeyoldkeyoldkey';
    await db
      .insertInto('api_key')
      .values({
        id: 'k1',
        name: 'old',
        prefix: '0123456789ab',
        hash: createHash('sha256').update(key).digest('hex'),
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    await db.destroy();
    let local: LocalBackend | undefined;
    try {
      local = await createLocalBackend(file);
      const [listed] = await (await local.keys()).list();
      expect(listed).toMatchObject({
        prefix: '0123456789ab',
        scope: 'admin',
        tenants: null,
        origins: [],
        expires_at: null,
      });
      const srv = await startServer(local);
      try {
        for (const tenant of ['acme', 'globex']) {
          const res = await fetch(`${srv.url}/sdk/v1/dsfa`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'x-tenant-id': tenant, 'content-type': 'application/json' },
            body: JSON.stringify({ title: 'after the upgrade' }),
          });
          expect(res.status).toBe(201);
        }
        const keys = await fetch(`${srv.url}/sdk/v1/keys`, { headers: { authorization: `Bearer ${key}` } });
        expect(keys.status).toBe(200);
      } finally {
        await srv.close();
      }
    } finally {
      await local?.close();
    }
  });
});
