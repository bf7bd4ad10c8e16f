import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

// Files that share a module graph (vitest.config.ts) evaluate test/support/helpers.ts once per worker. Two probe files
// run in one worker that way, each making a temp folder and a store in it: both folders must be gone after the run
// (before, they stayed), and each only after the file's own hooks have run.
it('removes every file’s temp folders when it ends, after its own hooks, also where files share modules', async () => {
  const probe = resolve(`test/.file-end-probe-${process.pid}`);
  mkdirSync(probe, { recursive: true });
  try {
    const log = join(probe, 'log.jsonl');
    const file = (name: string) =>
      writeFileSync(
        join(probe, `${name}.test.ts`),
        [
          "import { appendFileSync, existsSync } from 'node:fs';",
          "import { join } from 'node:path';",
          "import { afterAll, it } from 'vitest';",
          "import { tmp } from '../support/helpers.js';",
          "import { sqliteUnitOfWork } from '../support/unit-of-work.js';",
          'let dir = "";',
          `it('${name}', async () => {`,
          '  dir = tmp();',
          "  const { store } = await sqliteUnitOfWork({ now: () => new Date() }, { next: () => 'x' });",
          `  appendFileSync(${JSON.stringify(log)}, JSON.stringify({ file: '${name}', pid: process.pid, dir }) + '\\n');`,
          '  void store;',
          '});',
          // the file's own hook runs before its clean-up: the folder is still there
          `afterAll(() => appendFileSync(${JSON.stringify(log)}, JSON.stringify({ file: '${name}', after: existsSync(dir) }) + '\\n'));`,
        ].join('\n'),
      );
    file('first');
    file('second');
    writeFileSync(
      join(probe, 'vitest.config.ts'),
      [
        'export default {',
        `  test: { root: ${JSON.stringify(resolve('.'))}, include: [${JSON.stringify(`${probe}/*.test.ts`)}],`,
        "    isolate: false, pool: 'forks', maxWorkers: 1, fileParallelism: false,",
        "    setupFiles: ['test/support/setup-file.ts'] },",
        '};',
      ].join('\n'),
    );
    const run = await execa('npx', ['vitest', 'run', '--config', join(probe, 'vitest.config.ts')], { reject: false });
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; pid?: number; dir?: string; after?: boolean });
    const made = lines.filter((l) => l.dir);
    expect(made.map((l) => l.file).sort()).toEqual(['first', 'second']);
    expect(new Set(made.map((l) => l.pid)).size).toBe(1); // one worker: the files shared helpers.ts
    expect(lines.filter((l) => l.after !== undefined).map((l) => l.after)).toEqual([true, true]);
    for (const l of made) expect(existsSync(l.dir!), `${l.file}: ${l.dir}`).toBe(false);
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}, 60_000);
