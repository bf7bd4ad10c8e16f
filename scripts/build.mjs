// Bundles src/ into dist/ with esbuild: one ESM file per entry plus shared chunks, so commands that need a heavy
// module (pdfkit, the server, prompts) load it only when they run. Native and asset-carrying packages stay external.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

// paths below are the project's, wherever the script is started from
process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// echarts is bundled into a file of its own (echartsFile below): imported from node_modules it reads several hundred
// files, about 2 s here, against about 0.2 s for the bundled file
const bundled = new Set(['commander', 'kysely', 'zod', 'chalk', 'cli-table3', 'echarts']);
const external = Object.keys(pkg.dependencies).filter((d) => !bundled.has(d));

/**
 * zod's namespace object re-exports all of its ~60 message locales, which no bundler can drop once `z` is used as an
 * object: two thirds of the zod chunk that every command loads. Messages here are English (the default zod registers
 * itself), so the locale index resolves to English alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: 'en', namespace: 'zod-locales', pluginData: args.resolveDir }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};

/**
 * commander requires node:child_process when it loads, for subcommands that are programs of their own (none here):
 * loading it (with net, dgram and the rest) costs every command some 5 to 10 ms. It is required when first used.
 */
const commanderLazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error(`${args.path}: no longer requires child_process as expected`);
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

/**
 * ECharts and zrender, which only a report's charts use, are 1.5 MB of the program's 4 MB, and every command reads
 * the program whole (1.9 MB of code cache besides, 2026-11-29): they go into a file of their own, dist/echarts.cjs
 * (src/services/report/echarts.ts, an entry of the build), which the program requires when a report first draws a
 * chart. Measured on `dsfa list`: 0.90x the time in 30 pairs (271 -> 244 ms), the program 2.5 MB.
 */
const ECHARTS = 'src/services/report/echarts.ts';
const echartsFile = {
  name: 'echarts-file',
  setup(b) {
    b.onResolve({ filter: /[\\/]echarts\.js$/ }, (args) =>
      args.kind !== 'entry-point' && join(args.resolveDir, args.path.replace(/\.js$/, '.ts')).endsWith(ECHARTS)
        ? { path: './echarts.cjs', external: true }
        : undefined,
    );
  },
};

/**
 * A build is skipped when dist/ is what this script would make again: the stamp it leaves (dist/.build-stamp.json)
 * names every file the last build read (esbuild's metafile: sources, migrations, bundled packages, plus this script,
 * package.json and tsconfig.json) and every file it wrote, each with its SHA-256. One changed byte or missing file
 * among them, and dist/ is built afresh (a new file counts once a file that was read imports it, which changes that
 * file). The test run's global set-up, CI's second and third vitest runs and the
 * private-clone test build through here, so a run builds dist/ once (after `npm ci` has built it) instead of five
 * times. `--force` builds anyway.
 */
const STAMP = 'dist/.build-stamp.json';
const ALWAYS_READ = ['scripts/build.mjs', 'package.json', 'tsconfig.json'];
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
const hashAll = (files) => Object.fromEntries(files.map((f) => [f, sha256(f)]));

function upToDate() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
    for (const side of [stamp.inputs, stamp.outputs])
      for (const [file, hash] of Object.entries(side)) if (sha256(file) !== hash) return false;
  } catch {
    return false; // no stamp, or a file it names is gone
  }
  return Object.keys(stamp.outputs).length > 0;
}

if (!process.argv.includes('--force') && upToDate()) {
  console.log('dist/ is up to date (dist/.build-stamp.json): not built again');
  process.exit(0);
}

const { build } = await import('esbuild');
rmSync('dist', { recursive: true, force: true });
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
};
/**
 * The program, one CommonJS file: its loader compiles it with V8's code cache (src/loader.ts), which Node 20 keeps for
 * no ES module. A module that is imported when first needed is still run only then (esbuild wraps it); `import()` of a
 * package becomes `require()`, as a script compiled that way cannot import. Worker threads start from the loader, so
 * `import.meta.url` is the loader's file (beside the program in dist/).
 */
const main = await build({
  ...common,
  entryPoints: { program: 'src/bundle.ts', version: 'src/version.ts', echarts: ECHARTS },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  external,
  supported: { 'dynamic-import': false },
  plugins: [zodEnglishOnly, commanderLazyChildProcess, echartsFile],
  define: { __VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__loaderUrl' },
  banner: {
    js: "const __loaderUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, 'compliance.cjs')).href;",
  },
  metafile: true,
});
asciiOnly('dist/program.cjs');
const loader = await build({
  ...common,
  entryPoints: { compliance: 'src/loader.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  metafile: true,
});

// the website banner (src/banner/banner.js): a browser script, minified on its own, served at /sdk/v1/banner.js
const banner = await build({
  entryPoints: ['src/banner/banner.js'],
  outfile: 'dist/sdk-banner.js',
  bundle: false,
  minify: true,
  target: ['es2019'],
  format: 'iife',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});

await warmCodeCache();

// virtual modules (the zod locale index above) are named `namespace:path` and have no file
const read = [main, loader, banner].flatMap((b) => Object.keys(b.metafile.inputs)).filter((f) => existsSync(f));
const inputs = [...new Set([...ALWAYS_READ, ...read])];
const outputs = [main, loader, banner].flatMap((b) => Object.keys(b.metafile.outputs));
writeFileSync(
  STAMP,
  JSON.stringify({ inputs: hashAll(inputs.sort()), outputs: hashAll(outputs.sort()) }, null, 1) + '\n',
);

/**
 * esbuild escapes what is not ASCII in strings, but keeps comments (and a regular expression's class) as written. The
 * loader reads the program as Latin-1, three times as fast as decoding UTF-8, so the file is made ASCII: each other
 * character written as its `\\u` escape, which means the same in a string, a regular expression, an identifier or a
 * comment.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  // a character beyond the first plane is two UTF-16 units, each written as its escape
  const unit = (c, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  const escape = (c) => [...Array(c.length).keys()].map((i) => unit(c, i)).join('');
  writeFileSync(file, text.replace(/[^\p{ASCII}]/gu, escape));
}

/**
 * V8's code cache of the program (src/loader.ts), made here after a few everyday commands on a store of their own, so
 * that the first command after an install starts as fast as the next. It is no output the stamp names: the loader
 * writes it anew where V8 refuses it (another Node version), and a command after a skipped build writes a missing one.
 */
async function warmCodeCache() {
  const { program, keepCache } = createRequire(import.meta.url)('../dist/compliance.cjs');
  const dir = mkdtempSync(join(tmpdir(), 'compliance-build-'));
  const silent = () => Object.assign(new PassThrough(), { isTTY: false }).resume();
  const io = { stdin: silent(), stdout: silent(), stderr: silent(), stdinIsTTY: false, stdoutIsTTY: false };
  const env = { PATH: process.env.PATH, HOME: dir, COMPLIANCE_DB: join(dir, 'warm.db'), COMPLIANCE_USER: 'build' };
  try {
    for (const line of [
      ['db', 'init'],
      ['dsfa', 'create', '--title', 'Warm-up'],
      ['dsfa', 'list', '--json'],
      ['consents', 'list', '--json'],
      ['training', 'modules', 'list', '--json'],
      ['legal-docs', 'list', '--json'],
    ]) {
      const code = await program.main(['node', 'compliance', ...line], {
        io: { ...io, stderrIsTTY: false, color: false },
        env,
      });
      if (code !== 0) throw new Error(`the code cache's warm-up: compliance ${line.join(' ')} exited ${code}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  keepCache(true);
}
