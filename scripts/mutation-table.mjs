// Prints the per-file scores of a StrykerJS JSON report (`npm run mutation` writes reports/mutation/mutation.json) as
// the Markdown table of the "Mutation testing" section of docs/development.md, lowest score first, then each surviving mutant with its
// line, so a reader can judge whether it changes what a user sees. Several reports (runs of parts of the files) are
// merged: `node scripts/mutation-table.mjs reports/mutation/*.json`.
import { readFileSync } from 'node:fs';

const paths = process.argv.slice(2);
if (paths.length === 0) paths.push('reports/mutation/mutation.json');

const files = new Map();
for (const path of paths) {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  for (const [file, entry] of Object.entries(report.files)) files.set(file, entry);
}

const count = (mutants, status) => mutants.filter((m) => m.status === status).length;
const rows = [...files].map(([file, { mutants }]) => {
  const killed = count(mutants, 'Killed');
  const timeout = count(mutants, 'Timeout');
  const survived = count(mutants, 'Survived');
  const uncovered = count(mutants, 'NoCoverage');
  const measured = killed + timeout + survived + uncovered;
  const score = measured === 0 ? 100 : (100 * (killed + timeout)) / measured;
  return { file: file.replace(/^src\/domain\//, ''), mutants, measured, killed, timeout, survived, uncovered, score };
});
rows.sort((a, b) => a.score - b.score || a.file.localeCompare(b.file));

const total = (key) => rows.reduce((sum, row) => sum + row[key], 0);
const percent = (score) => `${score.toFixed(1)} %`;
console.log('| file | mutants | killed | timed out | survived | no coverage | score |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| \`${r.file}\` | ${r.measured} | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.uncovered} | ${percent(r.score)} |`,
  );
}
const caught = total('killed') + total('timeout');
const measured = total('measured');
console.log(
  `| **all ${rows.length} files** | ${measured} | ${total('killed')} | ${total('timeout')} | ${total('survived')} ` +
    `| ${total('uncovered')} | ${percent((100 * caught) / measured)} |`,
);

if (process.env.SURVIVORS !== '0') {
  console.log('\nSurvivors (file:line:column, mutator, the code and what it became):');
  for (const r of rows) {
    const lines = files.get(`src/domain/${r.file}`)?.source.split('\n') ?? [];
    for (const m of r.mutants.filter((x) => x.status === 'Survived' || x.status === 'NoCoverage')) {
      const { start, end } = m.location;
      const code = start.line === end.line ? lines[start.line - 1]?.slice(start.column - 1, end.column - 1) : '…';
      const status = m.status === 'NoCoverage' ? ' (no coverage)' : '';
      console.log(`${r.file}:${start.line}:${start.column}\t${m.mutatorName}${status}\t${code} → ${m.replacement}`);
    }
  }
}
