// `npm run test:durations`: records how long each test file took in the last full run (vitest keeps that in
// node_modules/.vite), in test/durations.json, so that a fresh clone starts the slowest files first as well
// (test/support/sequencer.ts). Run it after a full `npm test` when files were added or got much slower or faster.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const cacheDir = 'node_modules/.vite/vitest';
const caches = (() => {
  try {
    return readdirSync(cacheDir).map((d) => join(cacheDir, d, 'results.json'));
  } catch {
    return [];
  }
})();
const results = caches.flatMap((f) => {
  try {
    return JSON.parse(readFileSync(f, 'utf8')).results;
  } catch {
    return [];
  }
});
const files = readdirSync('test', { recursive: true })
  .map((f) => join('test', String(f)).split('\\').join('/'))
  .filter((f) => f.endsWith('.test.ts'));
const seconds = new Map(results.map(([key, r]) => [key.slice(key.indexOf(':') + 1), r.duration / 1000]));
const missing = files.filter((f) => !seconds.has(f));
if (missing.length) {
  console.error(`no duration for ${missing.length} test file(s), run \`npm test\` first: ${missing.join(', ')}`);
  process.exit(1);
}
const durations = Object.fromEntries(files.sort().map((f) => [f, Math.round(seconds.get(f) * 10) / 10]));
writeFileSync('test/durations.json', JSON.stringify(durations, null, 2) + '\n');
console.log(
  `test/durations.json: ${files.length} files, ${Object.values(durations)
    .reduce((a, b) => a + b, 0)
    .toFixed(0)} s in all`,
);
