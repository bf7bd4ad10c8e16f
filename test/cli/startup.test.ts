import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Files that dist/main.js loads before any command runs: its static imports, followed recursively. */
function staticGraph(entry: string): Map<string, string> {
  const seen = new Map<string, string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const text = readFileSync(join('dist', file), 'utf8');
    seen.set(file, text);
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"\.\/([^"]+)"/gms)) visit(m[1]!);
    for (const m of text.matchAll(/^import\s+"\.\/([^"]+)"/gm)) visit(m[1]!);
  };
  visit(entry);
  return seen;
}

describe('start-up', () => {
  it('loads neither zod, kysely, better-sqlite3 nor any engine before a command needs them', () => {
    const graph = staticGraph('main.js');
    const all = [...graph.values()].join('\n');
    expect(all).not.toMatch(/\$ZodType|ZodError/); // zod
    expect(all).not.toMatch(/SqliteDialect|class Kysely/); // kysely
    expect(all).not.toMatch(/renderToSVGString|zrender/i); // echarts, bundled into a chunk the report commands load
    for (const pkg of [
      'better-sqlite3',
      'pdfkit',
      'ollama',
      'papaparse',
      'qrcode',
      'execa',
      '@inquirer/prompts',
      'cli-progress',
      'docx',
      'marked',
      'svg-to-pdfkit',
      '@resvg/resvg-js',
    ]) {
      expect(all, pkg).not.toMatch(new RegExp(`from ["']${pkg.replace('/', '\\/')}["']`));
    }
    const bytes = [...graph.values()].reduce((n, t) => n + t.length, 0);
    expect(bytes).toBeLessThan(400_000);
  });
});
