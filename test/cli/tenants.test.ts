import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { forTenant } from '../../src/store/tenant-scope.js';
import { cli, ENGINE_NAMES, freshStore, startServer, tmp } from '../support/helpers.js';

// A store knows its tenants from their first record. A command that names a tenant the store has never seen is
// refused with the nearest known ones, on the embedded store and against a server, so no gate passes on a typo.
const DAY = 86_400_000;
const FACES = ['local', 'remote'] as const;
type Face = (typeof FACES)[number];

const file = (name: string, text: string) => {
  const f = join(tmp(), name);
  writeFileSync(f, text);
  return f;
};

describe.each(ENGINE_NAMES)('tenants of a store on %s', (engine) => {
  let db: string;
  let local: LocalBackend;
  let srv: Awaited<ReturnType<typeof startServer>>;
  const keys = {} as Record<'root' | 'acme' | 'read', string>;
  let asOf: string;

  beforeAll(async () => {
    db = await freshStore(engine);
    local = await createLocalBackend(db);
    const k = await local.keys();
    keys.root = (await k.create('root')).key;
    keys.acme = (await k.create({ scope: 'admin', tenants: ['acme', 'acmx'] })).key;
    keys.read = (await k.create({ scope: 'read', tenants: ['acme'] })).key;
    srv = await startServer(local);
    // acme: the catalogue and two people with their assignments; acmf: one assessment
    const acme = (...a: string[]) => cli(['--db', db, '--tenant', 'acme', ...a]);
    expect((await acme('training', 'catalog', 'install')).code).toBe(0);
    const staff = file(
      'staff.csv',
      'user_id,user_name,user_email,roles\ng1,Gina,g@example.com,R9\ng2,Gerd,d@example.com,R9\n',
    );
    const computed = await acme('training', 'assignments', 'compute', '--users', staff, '--deadline-days', '10');
    expect(computed.code, computed.stderr).toBe(0);
    const list = JSON.parse((await acme('training', 'assignments', 'list', '--json')).stdout) as Array<{
      deadline: string;
    }>;
    asOf = new Date(Date.parse(list[0]!.deadline) + 8 * DAY).toISOString();
    expect((await cli(['--db', db, '--tenant', 'acmf', 'dsfa', 'create', '--title', 'Kamera'])).code).toBe(0);
  });
  afterAll(async () => {
    await srv?.close();
    await local?.close();
  });

  const on =
    (face: Face, key = keys.root) =>
    (...args: string[]) =>
      cli(face === 'local' ? ['--db', db, ...args] : ['--remote', srv.url, '--api-key', key, ...args]);

  it.each(FACES)('%s: a CI gate on a mistyped tenant fails with exit 3 naming the nearest ones', async (face) => {
    const run = on(face);
    const gate = ['training', 'overdue', '--as-of', asOf, '--format', 'junit'];
    const right = await run('--tenant', 'acme', ...gate);
    expect(right.code).toBe(6);
    expect(right.stdout).toMatch(/failures="[1-9]\d*"/);
    const out = join(tmp(), 'overdue.xml');
    const typo = await run('--tenant', 'acmee', ...gate, '-o', out);
    expect(typo.code).toBe(3);
    expect(typo.stderr).toBe('error: unknown tenant acmee; did you mean --tenant acme or --tenant acmf?\n');
    expect(typo.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
    const json = await run('--tenant', 'acmee', '--json', ...gate);
    expect(JSON.parse(json.stderr)).toMatchObject({ code: 'not_found', details: [{ path: '--tenant' }] });
    // a report and an export are not empty by a typo either, and leave no file
    const report = join(tmp(), 'report.json');
    const reported = await run('--tenant', 'acmee', 'report', 'management', '-o', report);
    expect([reported.code, existsSync(report)]).toEqual([3, false]);
    const bundle = join(tmp(), 'acmee.bundle');
    expect((await run('--tenant', 'acmee', 'export', '-o', bundle)).code).toBe(3);
    expect(existsSync(bundle)).toBe(false);
    // COMPLIANCE_TENANT names a tenant as --tenant does
    const env = await cli(face === 'local' ? ['--db', db, ...gate] : ['--remote', srv.url, ...gate], {
      env: { COMPLIANCE_TENANT: 'acmee', COMPLIANCE_API_KEY: keys.root },
    });
    expect(env.code).toBe(3);
  });

  it.each(FACES)('%s: a tenant near no known one is refused without a guess', async (face) => {
    const r = await on(face)('--tenant', 'zzz-unbekannt', 'dsfa', 'list');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: unknown tenant zzz-unbekannt: .* has no record of it/);
  });

  it.each(FACES)('%s: commands that write a first record start a tenant; reads of it work then', async (face) => {
    const run = on(face);
    const t = (what: string) => ['--tenant', `${face}-${engine}-${what}`];
    const csv = file('c.csv', 'user_id,data_point_id,granted\nu1,newsletter,true\nu2,newsletter,false\n');
    for (const args of [
      [...t('dsfa'), 'dsfa', 'create', '--title', 'Kamera'],
      [...t('grant'), 'consents', 'grant', '--user-id', 'u1', '--data-point', 'newsletter'],
      [...t('import'), 'consents', 'import', csv],
      [
        ...t('module'),
        'training',
        'modules',
        'create',
        '--code',
        'X-1',
        '--title',
        'T',
        '--area',
        'nis2',
        '--frequency',
        'micro',
      ],
      [...t('docs'), 'legal-docs', 'create', '--title', 'DSE', '--type', 'privacy_policy'],
      [...t('workflow'), 'dsfa', 'workflow', 'strict'],
    ]) {
      const r = await run(...args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    // a dry run of a first import writes nothing, and a read of it afterwards is still refused
    const dry = await run(...t('dry'), 'consents', 'import', csv, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect((await run(...t('dry'), 'consents', 'stats')).code).toBe(3);
    expect((await run(...t('import'), 'consents', 'stats', '--json')).code).toBe(0);
    const listed = JSON.parse((await run('--json', 'tenants', 'list')).stdout) as Array<{
      tenant_id: string;
      records: Record<string, number>;
    }>;
    const byId = new Map(listed.map((x) => [x.tenant_id, x.records]));
    expect(byId.get(`${face}-${engine}-import`)).toMatchObject({ consents: 2, dsfa: 0 });
    expect(byId.get(`${face}-${engine}-module`)).toMatchObject({ training_modules: 1 });
    expect(byId.has(`${face}-${engine}-dry`)).toBe(false);
  });

  it('tenants list: every tenant with its records per area, the same locally and remotely', async () => {
    const local = JSON.parse((await on('local')('--json', 'tenants', 'list')).stdout) as Array<{ tenant_id: string }>;
    const remote = JSON.parse((await on('remote')('--json', 'tenants', 'list')).stdout);
    expect(remote).toEqual(local);
    const acme = local.find((t) => t.tenant_id === 'acme');
    expect(acme).toMatchObject({
      created_at: expect.stringMatching(/Z$/),
      records: { dsfa: 0, training_assignments: expect.any(Number), training_modules: expect.any(Number) },
    });
    const text = await on('local')('tenants', 'list');
    expect(text.stdout).toMatch(/^acme\t\S+Z\t0\t0\t0\t0\t\d+\t\d+$/m);
  });

  it('a key sees and is offered only the tenants it opens; a read key cannot list them', async () => {
    // the admin key of acme and acmx: acmx is unknown, and only acme is offered, not acmf (another client's)
    const limited = await on('remote', keys.acme)('--tenant', 'acmx', 'dsfa', 'list');
    expect(limited.code).toBe(3);
    expect(limited.stderr).toBe('error: unknown tenant acmx; did you mean --tenant acme?\n');
    const root = await on('remote', keys.root)('--tenant', 'acmx', 'dsfa', 'list');
    expect(root.stderr).toContain('--tenant acmf');
    const listed = JSON.parse((await on('remote', keys.acme)('--json', 'tenants', 'list')).stdout);
    expect(listed.map((t: { tenant_id: string }) => t.tenant_id)).toEqual(['acme']);
    expect((await on('remote', keys.read)('tenants', 'list')).code).toBe(4);
    // through the API: another tenant's name is a 403 before anything is looked up
    const api = (key: string, path: string, tenant?: string) =>
      fetch(`${srv.url}/sdk/v1${path}`, {
        headers: { authorization: `Bearer ${key}`, ...(tenant ? { 'x-tenant-id': tenant } : {}) },
      });
    expect((await api(keys.read, '/tenant', 'acmf')).status).toBe(403);
    expect(await (await api(keys.read, '/tenant', 'acme')).json()).toMatchObject({ tenant_id: 'acme', known: true });
    expect((await api(keys.read, '/tenants')).status).toBe(403);
    // the API's lists still answer [] for a tenant nobody has written, as the specification shows
    const empty = await fetch(`${srv.url}/sdk/v1/dsfa?tenant_id=acmee`, {
      headers: { authorization: `Bearer ${keys.root}` },
    });
    expect([empty.status, await empty.json()]).toEqual([200, []]);
  });

  it.runIf(engine === 'postgres')('row-level security: a request sees its own tenant row only', async () => {
    const rows = await forTenant('acme', () => local.store.db.selectFrom('tenant').select('tenant_id').execute());
    expect(rows).toEqual([{ tenant_id: 'acme' }]);
    const none = await local.store.db.selectFrom('tenant').select('tenant_id').execute();
    expect(none).toEqual([]);
    const forged = forTenant('acme', () =>
      local.store.db
        .insertInto('tenant')
        .values({ tenant_id: 'other', created_at: '2026-01-01T00:00:00.000Z' })
        .execute(),
    );
    await expect(forged).rejects.toThrow(/row-level security/);
  });

  it('the default tenant of a store without any record answers empty, as a first run expects', async () => {
    // the default store of a first run (no --db), or an empty PostgreSQL database
    const where = engine === 'sqlite' ? [] : ['--db', await freshStore(engine)];
    const r = await cli([...where, 'dsfa', 'list', '--json'], { env: { XDG_DATA_HOME: tmp() } });
    expect([r.code, r.stdout.trim()]).toEqual([0, '[]']);
    const fresh = await createLocalBackend(await freshStore(engine));
    const s = await startServer(fresh);
    try {
      const remote = await cli(['--remote', s.url, 'training', 'overdue', '--json']);
      expect([remote.code, remote.stdout.trim()]).toEqual([0, '[]']);
    } finally {
      await s.close();
      await fresh.close();
    }
  });

  it('a store of the schema before tenants registers those its journal holds when it is upgraded', async () => {
    const target = await freshStore(engine);
    const b = await createLocalBackend(target);
    await b.dsfa.create({ tenant: 'alpha', body: { title: 'A' } });
    await b.consents.create({ tenant: 'beta', body: { user_id: 'u', data_point_id: 'd', granted: true } });
    const before = await b.tenants.list({ tenant: '' });
    await b.close();
    expect(before.map((t) => t.tenant_id)).toEqual(['alpha', 'beta']);
    // back to the schema before 0023, as a store of the previous version holds it
    const sqlite = engine === 'sqlite' ? new Database(target) : undefined;
    const owner = new Kysely<unknown>({
      dialect: sqlite
        ? new SqliteDialect({ database: sqlite })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: target }) }),
    });
    const migrator = new Migrator({ db: owner, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateDown()).error).toBeUndefined();
    sqlite?.pragma(`user_version = ${Object.keys(migrations).length - 1}`);
    await owner.destroy();
    const upgraded = await createLocalBackend(target);
    try {
      expect(await upgraded.tenants.list({ tenant: '' })).toEqual(before);
      const typo = await cli(['--db', target, '--tenant', 'alpah', 'dsfa', 'list']);
      expect([typo.code, typo.stderr]).toEqual([3, 'error: unknown tenant alpah; did you mean --tenant alpha?\n']);
    } finally {
      await upgraded.close();
    }
  });
});
