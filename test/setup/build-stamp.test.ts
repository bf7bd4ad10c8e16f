import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * scripts/build.mjs skips a build when dist/ is what it would make again (dist/.build-stamp.json), so a CI run builds
 * once instead of five times. A stale dist/ must never pass for a fresh one: tried on a copy of what the build reads,
 * starting from the dist/ the test run's global set-up built.
 */
describe('the build of dist/', () => {
  const root = mkdtempSync(join(tmpdir(), 'compliance-build-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  for (const f of ['src', 'migrations', 'scripts', 'dist', 'package.json', 'tsconfig.json'])
    cpSync(f, join(root, f), { recursive: true });
  symlinkSync(resolve('node_modules'), join(root, 'node_modules'));
  // started from another folder: the script finds the project from its own path
  const build = () => {
    const r = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: tmpdir(), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.includes('dist/ is up to date');
  };
  const main = () => readFileSync(join(root, 'dist/program.cjs'), 'utf8');
  const built = () =>
    readdirSync(join(root, 'dist'))
      .map((f) => readFileSync(join(root, 'dist', f), 'utf8'))
      .join('\n');

  it('is skipped when nothing it read or wrote changed, and done again after any change to either', () => {
    expect(build()).toBe(true);
    // a source file: built again, with the change
    appendFileSync(join(root, 'src/version.ts'), "\nexport const stampProbe = 'probe-1';\n");
    expect(build()).toBe(false);
    expect(built()).toContain('probe-1');
    expect(build()).toBe(true);
    // an output changed by hand, or gone
    appendFileSync(join(root, 'dist/program.cjs'), '\n// edited\n');
    expect(build()).toBe(false);
    expect(main()).not.toContain('// edited');
    rmSync(join(root, 'dist/sdk-banner.js'));
    expect(build()).toBe(false);
    expect(build()).toBe(true);
  }, 240_000);
});
