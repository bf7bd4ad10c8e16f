// `npm run bench`: the aims of the journal's cost (aims.bench.mjs: a table, and test/bench/results/aims.json);
// `npm run bench -- all` runs every test/bench/*.bench.mjs in turn, `npm run bench -- sync report` the ones named.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const wanted = args.length ? args : ['aims'];
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs') && (wanted.includes('all') || wanted.some((w) => f.includes(w))))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, [join(here, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exitCode = failed ? 1 : 0;
