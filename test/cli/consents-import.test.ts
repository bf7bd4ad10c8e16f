import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend, type LocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, useServer, startServer, tmp, tmpDb } from '../support/helpers.js';

const HEADER = 'user_id,data_point_id,granted,granted_at,consent_version,ip_address';
const file = (name: string, content: string | Buffer) => {
  const f = join(tmp(), name);
  writeFileSync(f, content);
  return f;
};
const stats = async (db: string) => JSON.parse((await cli(['--db', db, 'consents', 'stats', '--json'])).stdout);
const summaryOf = (stdout: string) => JSON.parse(stdout) as { read: number; created: number; unchanged: number; rejected: number; seconds: number };

describe('consents import from files', () => {
  it('imports the sample, then creates nothing the second time', async () => {
    const db = tmpDb();
    const r = await cli(['--db', db, 'consents', 'import', 'fixtures/consents/sample.csv', '--json']);
    expect(r.code).toBe(0);
    expect(summaryOf(r.stdout)).toMatchObject({ read: 4, created: 4, unchanged: 0, rejected: 0 });
    expect(Object.keys(summaryOf(r.stdout)).sort()).toEqual(['created', 'read', 'rejected', 'seconds', 'unchanged']);
    const again = await cli(['--db', db, 'consents', 'import', 'fixtures/consents/sample.csv', '--json']);
    expect(summaryOf(again.stdout)).toMatchObject({ created: 0, unchanged: 4 });
    expect(await stats(db)).toMatchObject({ total_consents: 4, active_consents: 2, revoked_consents: 1, unique_users: 3 });
  });

  it('exits 2 before writing anything when a required column is missing, or the delimiter is wrong', async () => {
    const db = tmpDb();
    const missing = await cli(['--db', db, 'consents', 'import', file('m.csv', 'user_id,granted\nu,true\n')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required column\(s\) data_point_id/);
    const semi = file('semi.csv', 'user_id;data_point_id;granted\nu;x;true\n');
    const wrong = await cli(['--db', db, 'consents', 'import', semi, '--delimiter', ',']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/delimiter/);
    expect((await stats(db)).total_consents).toBe(0);
    const right = await cli(['--db', db, 'consents', 'import', semi, '--delimiter', ';', '--json']);
    expect(summaryOf(right.stdout).created).toBe(1);
  });

  it('exits 2 when the file cannot be read', async () => {
    const r = await cli(['--db', tmpDb(), 'consents', 'import', join(tmp(), 'nope.csv')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read/);
  });

  it('handles BOM, quoted newlines, a 10,000-character field, invalid UTF-8 and bad rows, reporting line numbers', async () => {
    const db = tmpDb();
    const long = 'x'.repeat(10_000);
    const parts: Buffer[] = [
      Buffer.from('\uFEFF' + HEADER + ',user_agent\n'),
      Buffer.from('ok1,newsletter,true,2026-01-01T00:00:00Z,1.0,,"line one\nline two"\n'), // lines 2-3
      Buffer.from(`ok2,newsletter,true,2026-01-01T00:00:00Z,1.0,,${long}\n`), // line 4: too long for user_agent (max 1000)
      Buffer.concat([Buffer.from('bad'), Buffer.from([0xff, 0xfe]), Buffer.from(',newsletter,true,2026-01-01T00:00:00Z,1.0,,\n')]), // line 5
      Buffer.from('ok3,newsletter,true,2026-01-01T00:00:00Z,1.0,999.1.1.1,\n'), // line 6: bad IP
      Buffer.from('ok4,newsletter,true,2026-01-01T00:00:00Z,1.0,::1,\n'), // line 7
      Buffer.from('ok5,newsletter\n'), // line 8: too few fields
    ];
    const rejects = join(tmp(), 'rejects.csv');
    const r = await cli(['--db', db, 'consents', 'import', file('mixed.csv', Buffer.concat(parts)), '--rejects', rejects, '--json']);
    expect(r.code).toBe(6);
    expect(summaryOf(r.stdout)).toMatchObject({ read: 6, created: 2, rejected: 4 });
    const lines = readFileSync(rejects, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('line,reason');
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual([4, 5, 6, 8]);
    expect(lines[1]).toMatch(/user_agent/);
    expect(lines[2]).toMatch(/invalid UTF-8/);
    expect(lines[3]).toMatch(/ip_address/);
    const list = JSON.parse((await cli(['--db', db, 'consents', 'list', '--json'])).stdout);
    expect(list.consents.map((c: { user_id: string }) => c.user_id).sort()).toEqual(['ok1', 'ok4']);
    expect(list.consents.find((c: { user_id: string }) => c.user_id === 'ok1').user_agent).toBe('line one\nline two');
  });

  it('maps other column names with --map, validates without writing on --dry-run, reads NDJSON', async () => {
    const db = tmpDb();
    const f = file('crm.csv', 'Email,Zweck,Zustimmung\nm@example.com,newsletter,ja\nn@example.com,newsletter,no\n');
    const dry = await cli(['--db', db, 'consents', 'import', f, '--map', 'email=user_id', '--map', 'zweck=data_point_id,zustimmung=granted', '--dry-run', '--json']);
    expect(dry.code).toBe(6); // "ja" is not a boolean
    expect(summaryOf(dry.stdout)).toMatchObject({ read: 2, created: 1, rejected: 1 });
    expect((await stats(db)).total_consents).toBe(0);
    const nd = file('c.ndjson', '{"user_id":"p","data_point_id":"x","granted":true}\nnot json\n{"user_id":"q","data_point_id":"x","granted":"no"}\n');
    const r = await cli(['--db', db, 'consents', 'import', nd, '--json']);
    expect(summaryOf(r.stdout)).toMatchObject({ read: 3, created: 2, rejected: 1 });
    expect((await cli(['--db', db, 'consents', 'import', f, '--map', 'email=nonsense'])).code).toBe(2);
  });

  it('exports CSV that imports into an empty store with the same statistics', async () => {
    const db = tmpDb();
    await cli(['--db', db, 'consents', 'import', 'fixtures/consents/sample.csv']);
    const out = join(tmp(), 'export.csv');
    expect((await cli(['--db', db, 'consents', 'export', '--format', 'csv', '-o', out])).code).toBe(0);
    const copy = tmpDb();
    expect(summaryOf((await cli(['--db', copy, 'consents', 'import', out, '--json'])).stdout).created).toBe(4);
    expect(await stats(copy)).toEqual(await stats(db));
    const piped = await cli(['--db', db, 'consents', 'export', '--format', 'ndjson', '--data-point', 'newsletter']);
    expect(piped.stdout.trim().split('\n')).toHaveLength(2);
  });
});

describe('consents import in remote mode', () => {
  const srv = useServer();

  it('streams the file to one bulk route and prints the same summary', async () => {
    const n = srv.logs.length;
    const r = await cli(['--remote', srv.url, '--tenant', 'r', 'consents', 'import', 'fixtures/consents/sample.csv', '--json']);
    expect(r.code).toBe(0);
    expect(summaryOf(r.stdout)).toMatchObject({ read: 4, created: 4 });
    expect(srv.logs.slice(n).filter((l) => l.includes('/consents/import'))).toHaveLength(1);
    expect(srv.logs.length - n).toBe(1);
    const localRun = await cli(['--db', tmpDb(), 'consents', 'import', 'fixtures/consents/sample.csv', '--json']);
    const { seconds: _a, ...remote } = summaryOf(r.stdout);
    const { seconds: _b, ...here } = summaryOf(localRun.stdout);
    expect(remote).toEqual(here);
    const missing = await cli(['--remote', srv.url, 'consents', 'import', file('m.csv', 'user_id\nu\n')]);
    expect(missing.code).toBe(2);
    const exported = await cli(['--remote', srv.url, '--tenant', 'r', 'consents', 'export', '--format', 'csv']);
    expect(exported.stdout.trim().split('\n')).toHaveLength(5);
  });

  it('requires X-Tenant-ID on consent routes (400)', async () => {
    const res = await fetch(`${srv.url}/sdk/v1/einwilligungen/consents`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'bad_request', error: expect.stringContaining('X-Tenant-ID') });
  });
});

describe('an import killed halfway', () => {
  it('leaves a consistent store and completes without duplicates when run again', async () => {
    const rows = 150_000;
    const lines = [HEADER];
    for (let i = 0; i < rows; i++) lines.push(`user${i}@example.com,dp${i % 7},${i % 3 ? 'true' : 'false'},2026-02-01T00:00:00Z,1.0,10.0.${(i >> 8) & 255}.${i & 255}`);
    const f = file('big.csv', lines.join('\n') + '\n');
    const db = tmpDb();
    await cli(['--db', db, 'db', 'status']);
    const p = spawn(process.execPath, ['bin/compliance.js', '--db', db, 'consents', 'import', f], { stdio: 'ignore' });
    const count = () => {
      const s = new Database(db, { readonly: true });
      try {
        return (s.prepare('select count(*) as n from consent').get() as { n: number }).n;
      } finally {
        s.close();
      }
    };
    for (let waited = 0; count() === 0; waited += 20) {
      if (waited > 20_000) throw new Error('import did not start');
      await new Promise((r) => setTimeout(r, 20));
    }
    p.kill('SIGKILL');
    await new Promise((r) => p.on('exit', r));
    const s = new Database(db, { readonly: true });
    const partial = (s.prepare('select count(*) as n from consent').get() as { n: number }).n;
    const orphans = (s.prepare("select count(*) as n from consent c where not exists (select 1 from consent_history h where h.consent_id = c.id and h.action = 'granted')").get() as { n: number }).n;
    s.close();
    expect(partial).toBeGreaterThan(0);
    expect(partial % 50_000 === 0 || partial === rows).toBe(true); // whole batches only
    expect(orphans).toBe(0);
    const r = await cli(['--db', db, 'consents', 'import', f, '--json']);
    expect(summaryOf(r.stdout)).toMatchObject({ read: rows, created: rows - partial, unchanged: partial, rejected: 0 });
    expect((await stats(db)).total_consents).toBe(rows);
  }, 120_000);
});
