// Bundles src/ into dist/ with esbuild: one ESM file per entry plus shared chunks, so commands that need a heavy
// module (pdfkit, the server, prompts) load it only when they run. Native and asset-carrying packages stay external.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const bundled = new Set(['commander', 'kysely', 'zod', 'chalk', 'cli-table3']);
const external = Object.keys(pkg.dependencies).filter((d) => !bundled.has(d));

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
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // bundled CommonJS packages call require() for Node built-ins
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
