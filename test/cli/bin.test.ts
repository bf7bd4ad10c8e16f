import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { tmpDb } from '../support/helpers.js';
import { BIN, exited, serve } from '../support/serve-process.js';

describe('the compliance binary', () => {
  it('prints its version', async () => {
    const r = await execa(process.execPath, [BIN, '--version']);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('says in one line that a checkout without dist/ is not built (exit 1), for a command and for --version', async () => {
    const checkout = mkdtempSync(join(tmpdir(), 'unbuilt-'));
    try {
      mkdirSync(join(checkout, 'bin'));
      for (const f of ['compliance.js', 'package.json']) copyFileSync(join('bin', f), join(checkout, 'bin', f));
      for (const args of [['dsfa', 'list'], ['--version']]) {
        const r = await execa(process.execPath, [join(checkout, 'bin', 'compliance.js'), ...args], { reject: false });
        const file = join(checkout, 'dist', args[0] === '--version' ? 'version.cjs' : 'compliance.cjs');
        expect([r.exitCode, r.stdout, r.stderr]).toEqual([
          1,
          '',
          `error: the program is not built (${file} is missing): run "npm ci" or "npm run build" in ${checkout}`,
        ]);
      }
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });

  it('prints help and exits 0, exits 2 on an unknown command', async () => {
    expect((await execa(process.execPath, [BIN, '--help'])).stdout).toContain('dsfa');
    const r = await execa(process.execPath, [BIN, 'nope'], { reject: false });
    expect(r.exitCode).toBe(2);
  });

  it('serves the API, logs each request, and shuts down cleanly on SIGTERM', async () => {
    const db = tmpDb();
    const s = await serve(['--db', db]);
    expect(s.stderr()).toMatch(/no API keys configured: listening on 127\.0\.0\.1 only/);
    const res = await fetch(`${s.url}/sdk/v1/dsfa`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'über HTTP' }),
    });
    expect(res.status).toBe(201);
    // a CLI writes to the same file while the server runs
    const cliRun = await execa(process.execPath, [BIN, '--db', db, 'dsfa', 'list', '--json']);
    expect(JSON.parse(cliRun.stdout)[0].title).toBe('über HTTP');
    const code = exited(s.proc);
    s.proc.kill('SIGTERM');
    expect(await code).toBe(0);
    expect(s.stderr()).toMatch(/POST \/sdk\/v1\/dsfa 201/);
    expect(s.stderr()).toMatch(/SIGTERM: shutting down/);
  });

  it('binds to 127.0.0.1 and says so when asked for another host without keys', async () => {
    const s = await serve(['--db', tmpDb(), '--host', '0.0.0.0']);
    expect(s.stderr()).toMatch(/ignoring --host 0\.0\.0\.0/);
    expect(s.url).toContain('127.0.0.1');
    const code = exited(s.proc);
    s.proc.kill('SIGINT');
    expect(await code).toBe(0);
  });

  it('requires the key once one exists, end to end with a remote CLI', async () => {
    const db = tmpDb();
    const key = JSON.parse((await execa(process.execPath, [BIN, '--db', db, 'keys', 'create', '--json'])).stdout).key;
    const s = await serve(['--db', db]);
    try {
      const denied = await execa(process.execPath, [BIN, '--remote', s.url, 'dsfa', 'list'], { reject: false });
      expect(denied.exitCode).toBe(4);
      const ok = await execa(process.execPath, [
        BIN,
        '--remote',
        s.url,
        '--api-key',
        key,
        'dsfa',
        'create',
        '--title',
        'remote',
        '--json',
      ]);
      expect(JSON.parse(ok.stdout).title).toBe('remote');
    } finally {
      s.proc.kill('SIGTERM');
      await exited(s.proc);
    }
  });

  it('says clearly that a read-only store is read-only, without a stack trace', async (t) => {
    // root ignores file modes, so as root the command runs as nobody, which needs to reach the checkout
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const reachable = spawnSync(
      process.execPath,
      ['-e', `require('fs').accessSync(${JSON.stringify(join(process.cwd(), 'dist', 'program.cjs'))})`],
      asUser,
    );
    if (reachable.status !== 0) t.skip();
    const dir = mkdtempSync(join(tmpdir(), 'compliance-ro-'));
    chmodSync(dir, 0o755);
    const db = join(dir, 'store.db');
    await execa(process.execPath, [BIN, '--db', db, 'dsfa', 'create', '--title', 'kept']);
    chmodSync(db, 0o444);
    const before = readFileSync(db);
    const r = spawnSync(process.execPath, [BIN, '--db', db, 'dsfa', 'create', '--title', 'refused'], {
      ...asUser,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: dir },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/is read-only/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(db).equals(before)).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a port that is taken with a clear message', async () => {
    const s = await serve(['--db', tmpDb()]);
    try {
      const port = new URL(s.url).port;
      const r = await execa(process.execPath, [BIN, '--db', tmpDb(), 'serve', '--port', port], {
        reject: false,
        timeout: 10_000,
      });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/already in use/);
    } finally {
      s.proc.kill('SIGTERM');
      await exited(s.proc);
    }
  });
});
