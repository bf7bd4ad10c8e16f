import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { programCopy } from '../support/program-copy.js';

// The loader compiles the program (dist/program.cjs) with V8's code cache of it (src/loader.ts): the build makes one,
// a command writes it where it is missing or V8 refuses it (a cache of another Node version), and leaves a good one be.

describe("the program's code cache", () => {
  const copy = programCopy('cache-');
  const cache = join(copy, 'dist', 'program.cjs.v8-cache');
  const run = (args: string[], as: SpawnSyncOptions = {}) => {
    const r = spawnSync(process.execPath, [join(copy, 'bin/compliance.js'), ...args], { ...as, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  };

  it('is made by the build, and a command that V8 takes it for leaves it as it is', () => {
    const built = readFileSync(cache);
    expect(built.length).toBeGreaterThan(100_000);
    expect(run(['dsfa', '--help'])).toContain('Usage: compliance dsfa');
    expect(readFileSync(cache).equals(built)).toBe(true);
  });

  it('is written anew where V8 refuses it, and where it is missing', () => {
    // what V8 refuses: not a cache it made (a cache of another Node version is refused the same way)
    writeFileSync(cache, Buffer.alloc(4096, 7));
    expect(run(['dsfa', '--help'])).toContain('Usage: compliance dsfa');
    const written = readFileSync(cache);
    expect(written.length).toBeGreaterThan(100_000);
    // the next command takes it: it stays as it is
    const at = statSync(cache).mtimeMs;
    run(['dsfa', '--help']);
    expect(statSync(cache).mtimeMs).toBe(at);
    rmSync(cache);
    run(['dsfa', '--help']);
    expect(statSync(cache).size).toBeGreaterThan(100_000);
  });

  it("is this user's own where the program's folder is another's, and taken from there next time", (t) => {
    // root ignores file modes, so as root the commands run as nobody, which needs to reach the copy (not to write it)
    chmodSync(copy, 0o755);
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const reachable = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(cache)})`], asUser);
    if (reachable.status !== 0) t.skip();
    writeFileSync(cache, Buffer.alloc(4096, 7));
    const home = mkdtempSync(join(tmpdir(), 'compliance-cache-home-'));
    chmodSync(home, 0o777);
    try {
      const as = { ...asUser, env: { PATH: process.env.PATH, HOME: home, XDG_CACHE_HOME: join(home, 'cache') } };
      // a cache of another program version, left by an earlier install: replaced
      mkdirSync(join(home, 'cache', 'compliance'), { recursive: true });
      chmodSync(join(home, 'cache'), 0o777);
      chmodSync(join(home, 'cache', 'compliance'), 0o777);
      writeFileSync(join(home, 'cache', 'compliance', 'program-1-1-v0.0.0.v8-cache'), 'old');
      expect(run(['dsfa', '--help'], as)).toContain('Usage: compliance dsfa');
      const mine = readdirSync(join(home, 'cache', 'compliance'));
      expect(mine).toEqual([expect.stringMatching(new RegExp(`^program-\\d+-\\d+-${process.version}\\.v8-cache$`))]);
      const file = join(home, 'cache', 'compliance', mine[0]!);
      expect(statSync(file).size).toBeGreaterThan(100_000);
      // the program's folder is as it was, and the next command takes this user's cache without writing it again
      expect(readFileSync(cache).equals(Buffer.alloc(4096, 7))).toBe(true);
      const at = statSync(file).mtimeMs;
      run(['dsfa', '--help'], as);
      expect(statSync(file).mtimeMs).toBe(at);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
