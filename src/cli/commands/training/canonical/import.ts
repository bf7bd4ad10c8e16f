import type { Command } from 'commander';
import { DomainError } from '../../../../domain/errors.js';
import type { CanonicalImportResult } from '../../../../domain/training-blocks/canonical.schema.js';
import type { CliContext } from '../../../context.js';
import { note, printJson, writeOut } from '../../../output.js';
import { usesTenant, writes } from '../../../store-access.js';
import { req } from '../shared.js';
import { readControls } from './controls-file.js';

/** `canonical import <file>`: your own controls, row by row; rows it rejects are named (exit 6). */
export interface ImportOptions {
  file: string;
  dryRun?: boolean;
}

export function register(canonical: Command, ctx: CliContext): Command {
  return usesTenant(writes(canonical.command('import')), 'starts')
    .description("load your organisation's own controls from JSON or CSV (validated per row, idempotent)")
    .argument(
      '<file>',
      'JSON array or CSV with id,title,objective,domain,category,severity,target_audience[,iso27001,nis2,bsi,nist]; - reads stdin',
    )
    .option('--dry-run', 'validate and count without writing')
    .action((file: string, o: { dryRun?: boolean }) => run(ctx, { ...o, file }));
}

export async function run(ctx: CliContext, o: ImportOptions): Promise<void> {
  const { controls, lines } = await readControls(ctx, o.file);
  if (controls.length === 0) throw new DomainError('bad_request', `${o.file}: no controls found`);
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
}
