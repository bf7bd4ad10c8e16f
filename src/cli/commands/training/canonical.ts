import { Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { CanonicalImportResult, ListedControl } from '../../../domain/training-blocks/canonical.schema.js';
import type { CliContext } from '../../context.js';
import { readText } from '../../input.js';
import { note, printJson, printList, printRecord, writeOut } from '../../output.js';
import { parseCsv } from './shared.js';
import { usesTenant, writes } from '../../store-access.js';

const req = (ctx: CliContext) => ({ tenant: ctx.config().tenant, actor: ctx.config().user });
const REF_COLUMNS = ['iso27001', 'nis2', 'bsi', 'nist'] as const;

/** Reads controls from JSON (an array, or {controls: [...]}) or CSV (one row per control, references split by ; or |). */
export async function readControls(ctx: CliContext, file: string): Promise<{ controls: unknown[]; lines: number[] }> {
  const text = (await readText(ctx, file)).replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new DomainError('bad_request', `${file}: malformed JSON: ${(e as Error).message}`);
    }
    const controls = Array.isArray(json) ? json : (json as { controls?: unknown }).controls;
    if (!Array.isArray(controls))
      throw new DomainError('bad_request', `${file}: expected a JSON array of controls or {"controls": [...]}`);
    return { controls, lines: controls.map((_, i) => i + 1) };
  }
  const { fields, rows } = await parseCsv(text);
  const missing = ['id', 'title', 'objective', 'domain', 'category', 'severity', 'target_audience'].filter(
    (f) => !fields.includes(f),
  );
  if (missing.length)
    throw new DomainError(
      'bad_request',
      `${file}: missing column(s) ${missing.join(', ')}; found ${fields.join(', ') || 'none'}`,
    );
  const controls = rows.map(({ row }) => {
    const refs = Object.fromEntries(
      REF_COLUMNS.map((k) => [
        k,
        (row[k] ?? '')
          .split(/[;|]/)
          .map((x) => x.trim())
          .filter(Boolean),
      ]),
    );
    const { iso27001: _a, nis2: _b, bsi: _c, nist: _d, ...rest } = row;
    return { ...rest, references: refs };
  });
  return { controls, lines: rows.map((r) => r.line) };
}

const columns = [
  { header: 'ID', value: (c: ListedControl) => c.id },
  { header: 'TITLE', value: (c: ListedControl) => c.title },
  { header: 'DOMAIN', value: (c: ListedControl) => c.domain },
  { header: 'CATEGORY', value: (c: ListedControl) => c.category },
  { header: 'SEVERITY', value: (c: ListedControl) => c.severity },
  { header: 'AUDIENCE', value: (c: ListedControl) => c.target_audience },
];

export function createCanonicalCommand(ctx: CliContext): Command {
  const cmd = new Command('canonical').description('canonical security controls (shipped catalogue plus your own)');

  cmd
    .command('list')
    .description('list controls; filters take one value or a comma-separated list')
    .option('--domain <d>', 'e.g. AUTH, CRYP, NET')
    .option('--category <c>', 'category within a domain')
    .option('--severity <s>', 'low, medium, high, critical')
    .option('--target-audience <a>', 'enterprise, authority, provider, all (controls for all always match)')
    .action(async (o: { domain?: string; category?: string; severity?: string; targetAudience?: string }) => {
      const rows = await (
        await ctx.backend()
      ).canonical.controls({
        ...req(ctx),
        query: { domain: o.domain, category: o.category, severity: o.severity, target_audience: o.targetAudience },
      });
      await printList(ctx, rows, columns, { empty: 'no control matches these filters' });
    });

  cmd
    .command('meta')
    .description('domains, categories and audiences with counts')
    .action(async () => {
      const m = await (await ctx.backend()).canonical.meta(req(ctx));
      await printRecord(ctx, m, [
        ['total', m.total],
        ['domains', m.domains.map((d) => `${d.domain} ${d.count}`)],
        ['audiences', m.audiences.map((a) => `${a.audience} ${a.count}`)],
        ['categories', m.categories.map((c) => `${c.category} ${c.count}`)],
      ]);
    });

  usesTenant(writes(cmd.command('import')), 'starts')
    .description("load your organisation's own controls from JSON or CSV (validated per row, idempotent)")
    .argument(
      '<file>',
      'JSON array or CSV with id,title,objective,domain,category,severity,target_audience[,iso27001,nis2,bsi,nist]; - reads stdin',
    )
    .option('--dry-run', 'validate and count without writing')
    .action(async (file: string, o: { dryRun?: boolean }) => {
      const { controls, lines } = await readControls(ctx, file);
      if (controls.length === 0) throw new DomainError('bad_request', `${file}: no controls found`);
      const r: CanonicalImportResult = await (
        await ctx.backend()
      ).canonical.import({ ...req(ctx), body: { controls, lines, dry_run: Boolean(o.dryRun) } });
      if (ctx.config().json) printJson(ctx, r);
      else {
        for (const x of r.rejections) note(ctx, `line ${x.line}${x.id ? ` (${x.id})` : ''}: ${x.reason}`);
        writeOut(
          ctx,
          `read ${r.read}, created ${r.created}, updated ${r.updated}, unchanged ${r.unchanged}, rejected ${r.rejected}${r.dry_run ? ' (dry run, nothing written)' : ''}`,
        );
      }
      if (r.rejected > 0) ctx.exitCode = 6;
    });
  return cmd;
}
