// `npm test`: the lint (scripts/lint.mjs) beside vitest, not before it. Vitest waits on PostgreSQL, servers, browsers
// and programs for much of its run and leaves a core idle then; the lint, about 85 CPU seconds, fills that time at a
// lower priority, so the tests that measure time get the cores first. The lint prints what it found when vitest ends
// (vitest's output stays whole); the exit code is 1 when either failed. Arguments go to vitest
// (`npm test -- test/cli`).
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

const LINT_NICENESS = 10;

/** Runs a command; resolves with its exit code (1 for a signal or a failure to start). */
function run(cmd, args, stdio, started = () => {}) {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { stdio });
    started(p);
    p.on('error', (e) => {
      process.stderr.write(`${cmd}: ${e.message}\n`);
      resolve(1);
    });
    p.on('close', (code) => resolve(code ?? 1));
  });
}

let lintOutput = '';
const lint = run(process.execPath, ['scripts/lint.mjs'], ['ignore', 'pipe', 'pipe'], (p) => {
  try {
    setPriority(p.pid, LINT_NICENESS);
  } catch {
    /* a system that refuses a lower priority runs it at the same one */
  }
  p.stdout.on('data', (c) => (lintOutput += c));
  p.stderr.on('data', (c) => (lintOutput += c));
});
const vitest = run('node_modules/.bin/vitest', ['run', ...process.argv.slice(2)], 'inherit');

const [lintCode, vitestCode] = await Promise.all([lint, vitest]);
process.stdout.write(`\n== lint (tsc, ESLint, layer rules, Prettier): ${lintCode === 0 ? 'clean' : 'FAILED'}\n`);
if (lintOutput.trim()) process.stdout.write(lintOutput.endsWith('\n') ? lintOutput : `${lintOutput}\n`);
process.exitCode = lintCode !== 0 || vitestCode !== 0 ? 1 : 0;
