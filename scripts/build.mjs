// Bundles src/ into dist/ with esbuild: one ESM file per entry plus shared chunks, so commands that need a heavy
// module (pdfkit, the server, prompts) load it only when they run. Native and asset-carrying packages stay external.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

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

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
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
});

// the website banner (src/banner/banner.js): a browser script, minified on its own, served at /sdk/v1/banner.js
await build({
  entryPoints: ['src/banner/banner.js'],
  outfile: 'dist/sdk-banner.js',
  bundle: false,
  minify: true,
  target: ['es2019'],
  format: 'iife',
  legalComments: 'none',
  logLevel: 'warning',
});
