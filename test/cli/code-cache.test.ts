import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The loader compiles the program (dist/program.cjs) with V8's code cache of it (src/loader.ts): the build makes one,
// a command writes it where it is missing or V8 refuses it (a cache of another Node version), and leaves a good one be.
const ROOT = resolve(import.meta.dirname, '../..');

describe("the program's code cache", () => {
  // a copy of the built program inside the project (its packages resolve from the project's node_modules)
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  const copy = mkdtempSync(join(ROOT, 'tmp', 'cache-'));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  for (const part of ['bin', 'dist', 'package.json', 'fixtures'])
    cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  const cache = join(copy, 'dist', 'program.cjs.v8-cache');
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [join(copy, 'bin/compliance.js'), ...args], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  };

  it('is made by the build, and a command that V8 takes it for leaves it as it is', () => {
    const built = readFileSync(cache);
    expect(built.length).toBeGreaterThan(100_000);
    expect(run('dsfa', '--help')).toContain('Usage: compliance dsfa');
    expect(readFileSync(cache).equals(built)).toBe(true);
  });

  it('is written anew where V8 refuses it, and where it is missing', () => {
    // what V8 refuses: not a cache it made (a cache of another Node version is refused the same way)
    writeFileSync(cache, Buffer.alloc(4096, 7));
    expect(run('dsfa', '--help')).toContain('Usage: compliance dsfa');
    const written = readFileSync(cache);
    expect(written.length).toBeGreaterThan(100_000);
    // the next command takes it: it stays as it is
    const at = statSync(cache).mtimeMs;
    run('dsfa', '--help');
    expect(statSync(cache).mtimeMs).toBe(at);
    rmSync(cache);
    run('dsfa', '--help');
    expect(statSync(cache).size).toBeGreaterThan(100_000);
  });
});
