// The redaction against the labelled PII corpus (fixtures/pii/corpus.jsonl, written by scripts/pii-corpus.mjs):
// recall and precision per kind of the real src/domain/training/redaction.ts, bundled on the fly with esbuild.
// test/domain/redaction-corpus.test.ts holds these figures so that they cannot fall.
import { build } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, tmp } from './lib.mjs';

const out = join(tmp('compliance-pii-'), 'pii-score.mjs');
await build({
  entryPoints: [join(ROOT, 'test', 'support', 'pii-score.ts')],
  outfile: out,
  bundle: true,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
});
const { formatScore, loadCorpus, scoreCorpus } = await import(pathToFileURL(out).href);
const t = performance.now();
const score = scoreCorpus(loadCorpus(join(ROOT, 'fixtures', 'pii', 'corpus.jsonl')));
const ms = performance.now() - t;
console.log(formatScore(score));
console.log(`(${ms.toFixed(0)} ms for the whole corpus)`);
for (const m of score.misses) console.log(`missed     ${m.id} ${m.kind}: ${JSON.stringify(m.value)}`);
for (const f of score.falseAlarms) console.log(`false alarm ${f.id} ${f.kind}: ${JSON.stringify(f.value)}`);
