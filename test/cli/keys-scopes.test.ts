import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, startServer, tmpDb } from '../support/helpers.js';

describe('keys create with a scope', () => {
  it('creates a publishable key for several tenants with origins and an expiry, and lists it', async () => {
    const db = tmpDb();
    const r = await cli([
      '--db',
      db,
      'keys',
      'create',
      '--name',
      'shop',
      '--tenant',
      'acme',
      '--tenant',
      'globex',
      '--scope',
      'publishable',
      '--origin',
      'https://WWW.Example.com:443/',
      '--origin',
      'http://localhost:8080',
      '--expires',
      '2099-01-31',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const k = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(k).toMatchObject({
      name: 'shop',
      scope: 'publishable',
      tenants: ['acme', 'globex'],
      origins: ['https://www.example.com', 'http://localhost:8080'],
      expires_at: '2099-02-01T00:00:00.000Z',
      last_used_at: null,
    });
    expect(k.key).toMatch(/^pk_[0-9a-f]{12}_/);
    const listed = await cli(['--db', db, 'keys', 'list', '--json']);
    const [row] = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(row).toMatchObject({ prefix: k.prefix, scope: 'publishable', tenants: ['acme', 'globex'] });
    expect(row).not.toHaveProperty('key');
    const text = await cli(['--db', db, 'keys', 'list']);
    expect(text.stdout).toContain('publishable\tacme,globex\thttps://www.example.com,http://localhost:8080');
  });

  it('refuses what a key cannot be, with exit 2 and the flag named', async () => {
    const db = tmpDb();
    for (const [args, message] of [
      [['--scope', 'owner'], /invalid scope "owner": expected one of publishable, read, write, admin/],
      [['--scope', 'publishable', '--tenant', 'acme'], /a publishable key needs at least one origin/],
      [['--scope', 'publishable', '--origin', 'https://a.example'], /a publishable key names its tenants/],
      [['--scope', 'read', '--origin', 'https://a.example'], /origins are for publishable keys only/],
      [['--scope', 'publishable', '--tenant', 'a', '--origin', 'https://a.example/page'], /--origin/],
      [['--scope', 'publishable', '--tenant', 'a', '--origin', 'ftp://a.example'], /expected an origin/],
      [['--expires', 'soon'], /invalid expires "soon": expected a number of days/],
      [['--expires', '2020-01-01'], /lies in the past/],
      [['--expires', '2027-02-30'], /invalid expires/],
    ] as const) {
      const r = await cli(['--db', db, 'keys', 'create', ...args]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(JSON.parse((await cli(['--db', db, 'keys', 'list', '--json'])).stdout)).toEqual([]);
  });

  it('keeps `keys create --name` creating an admin key of every tenant, as before scopes', async () => {
    const r = await cli(['--db', tmpDb(), 'keys', 'create', '--name', 'ci', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ scope: 'admin', tenants: null, origins: [], expires_at: null });
  });
});

describe('keys in remote mode and through the API', () => {
  it('a read key cannot write (exit 4, forbidden), an admin key manages keys within its tenants', async () => {
    const local = await createLocalBackend(tmpDb());
    const store = await local.keys();
    const read = await store.create({ scope: 'read', tenants: ['acme'] });
    const admin = await store.create({ scope: 'admin', tenants: ['acme'] });
    const root = await store.create('root');
    await local.dsfa.create({ tenant: 'acme', body: { title: 'Kamera' } });
    const srv = await startServer(local);
    try {
      const remote = (key: string, ...args: string[]) =>
        cli(['--remote', srv.url, '--api-key', key, '--tenant', 'acme', ...args]);
      expect((await remote(read.key, 'dsfa', 'list')).code).toBe(0);
      const write = await remote(read.key, '--json', 'dsfa', 'create', '--title', 'x');
      expect(write.code).toBe(4);
      expect(JSON.parse(write.stderr)).toMatchObject({
        code: 'forbidden',
        error: expect.stringMatching(/needs write/),
      });
      const other = await cli(['--remote', srv.url, '--api-key', read.key, '--tenant', 'globex', 'dsfa', 'list']);
      expect(other.code).toBe(4);
      expect(other.stderr).toMatch(/not valid for tenant globex/);

      const api = (key: string, method: string, path: string, body?: unknown) =>
        fetch(`${srv.url}/sdk/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const made = await api(admin.key, 'POST', '/keys', { name: 'bi', scope: 'read', tenants: ['acme'] });
      expect(made.status).toBe(201);
      const created = (await made.json()) as { key: string; prefix: string; id: string };
      expect(created.key).toMatch(/^cmp_/);
      // it works at once, and the key is never shown again
      expect((await api(created.key, 'GET', '/dsfa?tenant_id=acme')).status).toBe(200);
      const listed = (await (await api(admin.key, 'GET', '/keys')).json()) as Array<Record<string, unknown>>;
      expect(listed.map((k) => k.prefix).sort()).toEqual([read.prefix, admin.prefix, created.prefix].sort());
      expect(JSON.stringify(listed)).not.toContain(created.key);
      // an admin key of acme cannot make a key for another tenant or for every tenant, nor touch the root key
      expect((await api(admin.key, 'POST', '/keys', { scope: 'read', tenants: ['globex'] })).status).toBe(403);
      expect((await api(admin.key, 'POST', '/keys', { scope: 'read' })).status).toBe(422);
      expect((await api(admin.key, 'DELETE', `/keys/${root.prefix}`)).status).toBe(404);
      expect((await api(read.key, 'GET', '/keys')).status).toBe(403);
      const revoked = await api(admin.key, 'DELETE', `/keys/${created.id}`);
      expect(revoked.status).toBe(200);
      expect(((await revoked.json()) as { revoked_at: string | null }).revoked_at).not.toBeNull();
      expect((await api(created.key, 'GET', '/dsfa?tenant_id=acme')).status).toBe(401);
      // the root key (every tenant) sees them all, over the CLI-less API too
      expect(((await (await api(root.key, 'GET', '/keys')).json()) as unknown[]).length).toBe(4);
    } finally {
      await srv.close();
      await local.close();
    }
  });

  it('manages keys with --remote and an admin key, as on the embedded store', async () => {
    const local = await createLocalBackend(tmpDb());
    const root = await (await local.keys()).create('root');
    const read = await (await local.keys()).create({ scope: 'read', tenants: ['acme'] });
    const srv = await startServer(local);
    try {
      const remote = (key: string, ...args: string[]) =>
        cli(['--remote', srv.url, '--api-key', key, '--json', 'keys', ...args]);
      const made = await remote(
        root.key,
        'create',
        '--name',
        'shop',
        '--tenant',
        'acme',
        '--scope',
        'publishable',
        '--origin',
        'https://shop.example',
      );
      expect(made.code, made.stderr).toBe(0);
      const k = JSON.parse(made.stdout) as { key: string; prefix: string; tenants: string[] };
      expect(k.key).toMatch(/^pk_/);
      expect(k.tenants).toEqual(['acme']);
      const everyTenant = await remote(root.key, 'create', '--name', 'all');
      expect(JSON.parse(everyTenant.stdout)).toMatchObject({ scope: 'admin', tenants: null });
      const listed = JSON.parse((await remote(root.key, 'list')).stdout) as Array<{ prefix: string }>;
      expect(listed.map((x) => x.prefix)).toContain(k.prefix);
      const revoked = await remote(root.key, 'revoke', k.prefix);
      expect(JSON.parse(revoked.stdout)).toMatchObject({ prefix: k.prefix, revoked_at: expect.any(String) });
      const refused = await remote(read.key, 'list');
      expect(refused.code).toBe(4);
      expect(JSON.parse(refused.stderr)).toMatchObject({ code: 'forbidden' });
      const bad = await remote(root.key, 'create', '--scope', 'publishable', '--tenant', 'acme');
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/at least one origin/);
    } finally {
      await srv.close();
      await local.close();
    }
  });

  it('records when a key was last used, at most once a minute', async () => {
    const local = await createLocalBackend(tmpDb());
    const store = await local.keys();
    const k = await store.create({ scope: 'read', tenants: ['acme'] });
    const srv = await startServer(local);
    try {
      for (let i = 0; i < 5; i++)
        await fetch(`${srv.url}/sdk/v1/dsfa?tenant_id=acme`, { headers: { authorization: `Bearer ${k.key}` } });
      await new Promise((r) => setTimeout(r, 100));
      const first = (await store.get(k.id)).last_used_at;
      expect(first).not.toBeNull();
      await fetch(`${srv.url}/sdk/v1/dsfa?tenant_id=acme`, { headers: { authorization: `Bearer ${k.key}` } });
      await new Promise((r) => setTimeout(r, 100));
      expect((await store.get(k.id)).last_used_at).toBe(first);
    } finally {
      await srv.close();
      await local.close();
    }
  });
});
