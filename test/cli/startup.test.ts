import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, exited, serve } from '../support/serve-process.js';
import { tmpDb } from '../support/helpers.js';

/**
 * The program is one file (dist/program.cjs). esbuild wraps each module that is imported when first needed in an
 * initialiser that runs it then; the others run as the file loads. These tests run a command of the built program
 * with the initialisers counting (test/support/evaluated-modules.mjs) and check which modules it ran and which
 * packages it required: the files a command reads are few, but what it runs is still what it needs.
 */
function ran(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['test/support/evaluated-modules.mjs', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  expect(r.status, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { code: number; ran: string[]; required: string[] };
  return { ...out, modules: new Set(out.ran) };
}

/** The source of each module the program holds, by esbuild's path comment above it, up to the next such comment. */
function moduleSizes(): Map<string, number> {
  const text = readFileSync('dist/program.cjs', 'latin1');
  const marks = [...text.matchAll(/^\/\/ ((?:src|node_modules|migrations)\/\S+)$/gm)];
  const sizes = new Map<string, number>();
  marks.forEach((m, i) => {
    const end = i + 1 < marks.length ? marks[i + 1]!.index : text.length;
    sizes.set(m[1]!, (sizes.get(m[1]!) ?? 0) + end - m.index);
  });
  return sizes;
}

const PACKAGES = [
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
];

describe('start-up', () => {
  it('runs neither zod, kysely, echarts nor any package before a command needs them', () => {
    // a command's help: the program and the command's definitions, nothing the command would do
    const help = ran(['dsfa', '--help']);
    expect(help.code).toBe(0);
    const all = [...help.modules];
    expect(all.filter((m) => /^node_modules\/(zod|kysely|echarts|zrender)\//.test(m))).toEqual([]);
    for (const pkg of PACKAGES) expect(help.required, pkg).not.toContain(pkg);
    // what it ran is a small part of the program (about 200 KB of 2.5 MB)
    const sizes = moduleSizes();
    const bytes = all.reduce((n, m) => n + (sizes.get(m) ?? 0), 0);
    expect(bytes).toBeGreaterThan(10_000);
    expect(bytes).toBeLessThan(400_000);
  });

  it("keeps the report's charts (ECharts, zrender) out of the program, in a file it requires to draw them", () => {
    // every command reads the program whole: the 1.4 MB of the two packages are read by a report's charts alone
    const packages = [...moduleSizes().keys()].filter((m) => /^node_modules\/(echarts|zrender)\//.test(m));
    expect(packages).toEqual([]);
    const db = tmpDb();
    expect(builtCli(['--db', db, 'consents', 'grant', '--user-id', 'u1', '--data-point', 'newsletter']).code).toBe(0);
    const report = ran(['--db', db, 'report', 'management', '--format', 'html', '-o', `${db}.html`]);
    expect(report.code).toBe(0);
    expect(report.required).toContain('./echarts.cjs');
    // the charts are drawn: an SVG of each, with the series the report names
    const html = readFileSync(`${db}.html`, 'utf8');
    expect(html.match(/<svg[^>]*role="img"/g)?.length).toBeGreaterThan(0);
    expect(html).toContain('newsletter');
  });

  it("opens a store without another area's schemas or the rules of records that travel", () => {
    // every command on the embedded store runs the local backend and its unit of work; an area's schemas (zod, built
    // when their module runs) and sync's row rules (which build every area's) run with the area that uses them
    const db = tmpDb();
    expect(builtCli(['--db', db, 'db', 'init']).code).toBe(0);
    const list = ran(['--db', db, 'dsfa', 'list', '--json']);
    expect(list.code).toBe(0);
    for (const module of [
      'src/domain/sync/row-rules.ts',
      'src/domain/sync/merge-rules.ts',
      'src/domain/consents/consent.schema.ts',
      'src/domain/legal-documents/legal-document.schema.ts',
      'src/domain/cookie-banner/cookie-banner.schema.ts',
      'src/domain/training/training.schema.ts',
      'src/domain/training-blocks/block.schema.ts',
      'src/domain/tenants/tenant.schema.ts',
    ])
      expect(list.modules, module).not.toContain(module);
    // the count sees what runs: the area the command uses, and the store's engine
    expect(list.modules).toContain('src/domain/dsfa/dsfa.schema.ts');
    expect(list.required).toContain('better-sqlite3');
  });

  describe('a sync', () => {
    let srv: Awaited<ReturnType<typeof serve>>;
    const laptop = tmpDb();
    const remote = () => ({ COMPLIANCE_REMOTE: srv.url, COMPLIANCE_TENANT: 'acme' });
    beforeAll(async () => {
      srv = await serve(['--db', tmpDb()]);
      expect(builtCli(['dsfa', 'create', '--title', 'Verfahren'], remote()).code).toBe(0);
      expect(builtCli(['--db', laptop, 'sync'], remote()).code).toBe(0);
    });
    afterAll(async () => {
      srv.proc.kill('SIGTERM');
      await exited(srv.proc);
    });

    it('with nothing to move runs none of the rules that check records', () => {
      // it opens the store and asks the server; the row and merge rules (every area's schemas) run with the first
      // page to apply or push to check, `sync resolve`'s rules with that command
      const idle = ran(['--db', laptop, 'sync', '--json'], remote());
      expect(idle.code).toBe(0);
      for (const module of [
        'src/domain/sync/row-rules.ts',
        'src/domain/sync/merge-rules.ts',
        'src/domain/sync/record-door.ts',
        'src/backend/sync/resolve-conflict.ts',
        'src/backend/sync/settle-decisions.ts',
        'src/domain/consents/consent.rules.ts',
        'src/domain/consents/consent.schema.ts',
        'src/domain/training/training.schema.ts',
      ])
        expect(idle.modules, module).not.toContain(module);
      expect(idle.modules).toContain('src/backend/sync/sync-engine.ts');
    });

    it('that pulls a page runs the rules that check its records', () => {
      expect(builtCli(['dsfa', 'create', '--title', 'Zweites Verfahren'], remote()).code).toBe(0);
      const pull = ran(['--db', laptop, 'sync', '--json'], remote());
      expect(pull.code).toBe(0);
      expect(pull.modules).toContain('src/domain/sync/record-door.ts');
    });
  });
});
