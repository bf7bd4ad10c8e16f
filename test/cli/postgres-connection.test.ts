import { describe, expect, it } from 'vitest';
import { requireServerVersion } from '../../src/store/postgres/postgres-store.js';
import { cli, freePort } from '../support/helpers.js';
import { asAdmin, freshPostgresDatabase, postgresUrl } from '../support/postgres.js';

/** Each failure to use the server is one line naming the problem, exit 1, well within the connect timeout. */
async function failsWith(db: string, pattern: RegExp) {
  const started = Date.now();
  const r = await cli(['--db', db, 'dsfa', 'list']);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\bat .*\.(js|ts):\d+/);
  expect(Date.now() - started).toBeLessThan(7000);
  return r.stderr;
}

describe('a PostgreSQL store that cannot be used', () => {
  it('works when everything is right', async () => {
    const url = await freshPostgresDatabase();
    const r = await cli(['--db', url, 'dsfa', 'create', '--title', 'auf dem Server', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse((await cli(['--db', url, 'dsfa', 'list', '--json'])).stdout)).toHaveLength(1);
    // the environment variable and postgresql:// work too
    const viaEnv = await cli(['dsfa', 'list', '--json'], {
      env: { COMPLIANCE_DB: url.replace(/^postgres:/, 'postgresql:') },
    });
    expect(JSON.parse(viaEnv.stdout)).toHaveLength(1);
  });

  it('names an unreachable server, a wrong password, a missing database, a URL with a typo', async () => {
    const port = await freePort();
    const stderr = await failsWith(`postgres://u:secret@127.0.0.1:${port}/x`, /PostgreSQL at .*: connection refused/);
    expect(stderr).not.toContain('secret'); // passwords never appear in messages
    await asAdmin(
      `do $$ begin create role wrongpass login password 'right'; exception when duplicate_object then null; end $$`,
    );
    await failsWith(
      postgresUrl('postgres', { user: 'wrongpass', password: 'wrong' }),
      /password authentication failed/,
    );
    await failsWith(postgresUrl('no_such_database'), /the database does not exist/);
    await failsWith('postgres://u:p@no-such-host.invalid:5432/x', /unknown host|cannot be resolved/);
    const typo = await cli(['--db', 'postgress://localhost/x', 'dsfa', 'list']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unsupported database URL scheme "postgress:\/\/": use postgres:\/\//);
    const port2 = await cli(['--db', 'postgres://localhost:54x/x', 'dsfa', 'list']);
    expect(port2.code).toBe(2);
    expect(port2.stderr).toMatch(/invalid PostgreSQL URL/);
    const ssl = await cli(['--db', 'postgres://localhost/x?sslmode=sometimes', 'dsfa', 'list']);
    expect(ssl.code).toBe(2);
    expect(ssl.stderr).toMatch(/sslmode "sometimes" is not one of disable, prefer, require/);
  }, 30_000);

  it('refuses a server older than PostgreSQL 14', () => {
    expect(() => requireServerVersion(130011, '13.11', 'postgres://h/db')).toThrow(
      'PostgreSQL at postgres://h/db is version 13.11; compliance needs PostgreSQL 14 or newer',
    );
    expect(() => requireServerVersion(140000, '14.0', 'postgres://h/db')).not.toThrow();
  });
});
