import { readdirSync, readFileSync } from 'node:fs';
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

  it("opens a store without another area's schemas or the rules of records that travel", () => {
    // every command on the embedded store loads the local backend and its unit of work; an area's schemas (zod,
    // built when their module loads) and sync's row rules (which build every area's) load with the area that uses them
    const entry = readdirSync('dist').find((f) => /^local-backend-[\w-]+\.js$/.test(f))!;
    const sources = [...staticGraph(entry).values()].join('\n');
    for (const module of [
      'domain/sync/row-rules.ts',
      'domain/sync/merge-rules.ts',
      'domain/consents/consent.schema.ts',
      'domain/legal-documents/legal-document.schema.ts',
      'domain/cookie-banner/cookie-banner.schema.ts',
      'domain/training/training.schema.ts',
      'domain/training-blocks/block.schema.ts',
      'domain/tenants/tenant.schema.ts',
    ])
      expect(sources, module).not.toContain(`// src/${module}\n`);
    // the check reads esbuild's markers of each bundled source: one the local backend loads must be found
    expect(sources).toContain('// src/domain/dsfa/dsfa.schema.ts\n');
  });

  it('syncs without the rules that check records until a page brings some', () => {
    // a sync with nothing to move opens the store and asks the server; the row and merge rules (every area's schemas)
    // load with the first page to apply or push to check, `sync resolve`'s rules with that command
    const entry = readdirSync('dist').find((f) => /^sync-session-[\w-]+\.js$/.test(f))!;
    const sources = [...staticGraph(entry).values()].join('\n');
    for (const module of [
      'domain/sync/row-rules.ts',
      'domain/sync/merge-rules.ts',
      'domain/sync/record-door.ts',
      'backend/sync/resolve-conflict.ts',
      'domain/consents/consent.schema.ts',
      'domain/training/training.schema.ts',
    ])
      expect(sources, module).not.toContain(`// src/${module}\n`);
    expect(sources).toContain('// src/backend/sync/sync-engine.ts\n');
  });
});
