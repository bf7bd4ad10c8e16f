// `npm run test:without-programs`: proves that a machine without the optional programs (espeak-ng, ffmpeg, poppler,
// zbar, chromium) passes `npm test` with notices, and that CI=true turns the same gaps into failures.
// The programs are hidden by running with a PATH of symlink folders that mirror the real ones minus those programs.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const HIDDEN = ['espeak-ng', 'ffmpeg', 'ffprobe', 'pdftotext', 'pdftoppm', 'zbarimg', 'chromium'];

function pathWithout(names) {
  const root = mkdtempSync(join(tmpdir(), 'compliance-path-'));
  const dirs = [];
  for (const [i, dir] of (process.env.PATH ?? '').split(delimiter).entries()) {
    let entries;
    try {
      if (!statSync(dir).isDirectory()) continue;
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    const mirror = join(root, String(i));
    mkdirSync(mirror);
    for (const e of entries) if (!names.includes(e)) symlinkSync(join(dir, e), join(mirror, e));
    dirs.push(mirror);
  }
  return { path: dirs.join(delimiter), root };
}

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status ?? 1, out: `${r.stdout}\n${r.stderr}` };
}

// the test files that ask for a program: the strict run needs no more than these
const needing = readdirSync('test', { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.ts') && readFileSync(join('test', f), 'utf8').includes('requirePrograms('))
  .map((f) => join('test', f));

const { path, root } = pathWithout(HIDDEN);
const env = { ...process.env, PATH: path };
delete env.CI;
delete env.COMPLIANCE_TEST_STRICT;
let failed = 0;
try {
  const lenient = run('npm', ['test'], env);
  const notices = /NOTICE: \d+ test\(s\) skipped because these programs are not installed: (.*)/.exec(lenient.out);
  if (lenient.code !== 0 || !notices) {
    failed++;
    process.stdout.write(lenient.out.slice(-6000));
    console.log(
      `FAIL: npm test without ${HIDDEN.join(', ')} exited ${lenient.code}${notices ? '' : ' without the notice'}`,
    );
  } else console.log(`ok: npm test without the programs passes and names them: ${notices[1]}`);

  const strict = run('npx', ['vitest', 'run', ...needing], { ...env, CI: 'true' });
  if (strict.code === 0 || !/missing program .*apt-get install/.test(strict.out)) {
    failed++;
    process.stdout.write(strict.out.slice(-6000));
    console.log(`FAIL: with CI=true the tests that need those programs (${needing.join(', ')}) did not fail`);
  } else console.log(`ok: with CI=true the tests that need the programs fail (${needing.length} files)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(`${2 - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
