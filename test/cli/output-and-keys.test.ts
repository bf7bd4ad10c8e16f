import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../src/backend/local/local-backend.js';
import { cli, ENGINE_NAMES, freshStore, startServer, tmp, tmpDb, useServer } from '../support/helpers.js';

const oneLine = (stderr: string) => expect(stderr.trim().split('\n')).toHaveLength(1);

describe('output files', () => {
  const srv = useServer();

  it.each(['local', 'remote'])(
    'creates a missing folder, and refuses a folder or an impossible path in one line (%s)',
    async (face) => {
      const db = tmpDb();
      const run = (args: string[]) =>
        cli(face === 'local' ? ['--db', db, ...args] : ['--remote', srv.url, '--tenant', `out-${face}`, ...args]);
      await run(['consents', 'grant', '--user-id', 'u', '--data-point', 'x']);
      const nested = join(tmp(), 'a', 'b', 'export.csv');
      const ok = await run(['consents', 'export', '-o', nested]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(readFileSync(nested, 'utf8')).toMatch(/^user_id,/);
      const dir = tmp();
      const folder = await run(['consents', 'export', '-o', dir]);
      expect(folder.code).toBe(1);
      oneLine(folder.stderr);
      expect(folder.stderr).toBe(`error: cannot write ${dir}: it is a folder\n`);
      const aFile = join(tmp(), 'plain.txt');
      writeFileSync(aFile, 'x');
      const under = await run([
        'consents',
        'import',
        'fixtures/consents/sample.csv',
        '--rejects',
        join(aFile, 'r.csv'),
      ]);
      expect(under.code).toBe(1);
      oneLine(under.stderr);
      expect(under.stderr).toMatch(/cannot write .*plain\.txt\/r\.csv: a part of the path is a file, not a folder/);
      const proc = await run(['consents', 'export', '-o', '/proc/compliance-nope/x.csv']);
      expect(proc.code).toBe(1);
      expect(proc.stderr).toMatch(/^error: cannot write \/proc\/compliance-nope\/x\.csv: /);
      const report = await run(['dsfa', 'create', '--title', 'T', '--json']);
      const id = JSON.parse(report.stdout).id as string;
      const md = join(tmp(), 'new', 'report.md');
      expect((await run(['dsfa', 'report', id, '-o', md])).code).toBe(0);
      expect(readFileSync(md, 'utf8')).toMatch(/T/);
      const intoDir = await run(['dsfa', 'report', id, '-o', dir]);
      expect(intoDir.code).toBe(1);
      expect(intoDir.stderr).toBe(`error: cannot write ${dir}: it is a folder\n`);
    },
  );

  it('ends with one line and exit 1 for --db under /proc instead of spinning', () => {
    const r = spawnSync(
      process.execPath,
      [
        'bin/compliance.js',
        '--db',
        '/proc/compliance-nope/store.db',
        'consents',
        'grant',
        '--user-id',
        'u',
        '--data-point',
        'd',
      ],
      {
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/cannot create the folder of database \/proc\/compliance-nope\/store\.db/);
    const nested = join(tmp(), 'x', 'y', 'store.db');
    expect(spawnSync(process.execPath, ['bin/compliance.js', '--db', nested, 'db', 'init']).status).toBe(0);
  });
});

describe('API keys in remote mode', () => {
  it('says how to pass a key when none was sent, and that the one sent was refused', async () => {
    const l = await createLocalBackend(tmpDb());
    const key = JSON.parse((await cli(['--db', l.location, 'keys', 'create', '--name', 'ci', '--json'])).stdout)
      .key as string;
    const s = await startServer(l);
    try {
      const none = await cli(['--remote', s.url, 'consents', 'list']);
      expect(none.code).toBe(4);
      oneLine(none.stderr);
      expect(none.stderr).toMatch(
        /needs an API key: pass one with --api-key KEY or the environment variable COMPLIANCE_API_KEY/,
      );
      const wrong = await cli(['--remote', s.url, '--api-key', 'cmp_000000000000_nope', 'consents', 'list']);
      expect(wrong.code).toBe(4);
      expect(wrong.stderr).toMatch(/invalid API key for .*check the key given with --api-key or COMPLIANCE_API_KEY/);
      const json = await cli(['--remote', s.url, '--json', 'consents', 'list']);
      expect(JSON.parse(json.stderr)).toMatchObject({
        code: 'unauthorized',
        error: expect.stringMatching(/--api-key/),
      });
      expect((await cli(['--remote', s.url, '--api-key', key, 'consents', 'list'])).code).toBe(0);
    } finally {
      await s.close();
      await l.close();
    }
  });
});

describe.each(ENGINE_NAMES)('an expired API key in remote mode, on %s', (engine) => {
  it("says the server's reason (expired at …), not that the key is wrong or revoked", async () => {
    const l = await createLocalBackend(await freshStore(engine));
    const keys = await l.keys();
    const k = await keys.create({ scope: 'read', tenants: ['acme'], expires: '1d' });
    await l.store.admin
      .updateTable('api_key')
      .set({ expires_at: '2020-01-01T00:00:00.000Z' })
      .where('id', '=', k.id)
      .execute();
    const s = await startServer(l);
    try {
      const r = await cli(['--remote', s.url, '--api-key', k.key, '--tenant', 'acme', 'dsfa', 'list']);
      expect(r.code).toBe(4);
      oneLine(r.stderr);
      expect(r.stderr).toContain(`API key ${k.prefix} expired at 2020-01-01T00:00:00.000Z`);
      expect(r.stderr).toContain('a new key');
      expect(r.stderr).not.toMatch(/wrong or revoked/);
      const json = await cli(['--remote', s.url, '--api-key', k.key, '--tenant', 'acme', '--json', 'dsfa', 'list']);
      expect(JSON.parse(json.stderr)).toMatchObject({
        code: 'unauthorized',
        error: expect.stringMatching(/expired at/),
      });
    } finally {
      await s.close();
      await l.close();
    }
  });
});
