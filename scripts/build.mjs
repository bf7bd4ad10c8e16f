// Bundles src/ into dist/ with esbuild: one ESM file per entry plus shared chunks, so commands that need a heavy
// module (pdfkit, the server, prompts) load it only when they run. Native and asset-carrying packages stay external.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// paths below are the project's, wherever the script is started from
process.chdir(fileURLToPath(new URL('..', import.meta.url)));

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// echarts is bundled (into a chunk of its own that only the report commands load): imported from node_modules it
// reads several hundred files, about 2 s here, against about 0.2 s for the bundled chunk
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
const main = await build({
  entryPoints: { main: 'src/main.ts', version: 'src/version.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [zodEnglishOnly, commanderLazyChildProcess],
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // bundled CommonJS packages call require() for Node built-ins
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
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

// virtual modules (the zod locale index above) are named `namespace:path` and have no file
const read = [main, banner].flatMap((b) => Object.keys(b.metafile.inputs)).filter((f) => existsSync(f));
const inputs = [...new Set([...ALWAYS_READ, ...read])];
const outputs = [main, banner].flatMap((b) => Object.keys(b.metafile.outputs));
writeFileSync(
  STAMP,
  JSON.stringify({ inputs: hashAll(inputs.sort()), outputs: hashAll(outputs.sort()) }, null, 1) + '\n',
);
