import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { DomainError } from '../../../../domain/errors.js';
import type { CliContext } from '../../../context.js';
import { printJson, writeOut } from '../../../output.js';
import { usesTenant, writes } from '../../../store-access.js';
import { req } from '../shared.js';

/** `training catalog install`: another catalogue than the shipped one with --file. */
export interface CatalogInstallOptions {
  file?: string;
}

export function register(catalog: Command, ctx: CliContext): Command {
  return usesTenant(writes(catalog.command('install')), 'starts')
    .description('install the shipped modules, questions and role matrix (idempotent)')
    .option('--file <catalog.json>', 'another catalogue of the same shape')
    .action((o: CatalogInstallOptions) => run(ctx, o));
}

/** Creates the modules of the catalogue that are not there yet (by module_code) and sets its matrix entries. */
export async function run(ctx: CliContext, o: CatalogInstallOptions): Promise<void> {
  const { fixturePath } = await import('../../../../backend/local/package-files.js');
  const catalog = JSON.parse(await readFile(o.file ?? fixturePath('training', 'catalog.json'), 'utf8')) as {
    modules: Array<Record<string, unknown> & { module_code: string }>;
    matrix: Array<{ role_code: string; module_code: string; is_mandatory?: boolean; priority?: number }>;
  };
  const api = (await ctx.backend()).training;
  const existing = new Map((await api.listModules(req(ctx))).map((m) => [m.module_code, m.id]));
  let created = 0;
  for (const m of catalog.modules) {
    if (existing.has(m.module_code)) continue;
    existing.set(m.module_code, (await api.createModule({ ...req(ctx), body: m })).id);
    created++;
  }
  for (const e of catalog.matrix) {
    const id = existing.get(e.module_code);
    if (!id) throw new DomainError('validation', `catalogue matrix names unknown module ${e.module_code}`);
    await api.setMatrix({
      ...req(ctx),
      body: {
        role_code: e.role_code,
        module_id: id,
        is_mandatory: e.is_mandatory ?? false,
        priority: e.priority ?? 5,
      },
    });
  }
  const summary = {
    modules: catalog.modules.length,
    created,
    unchanged: catalog.modules.length - created,
    matrix_entries: catalog.matrix.length,
  };
  if (ctx.config().json) printJson(ctx, summary);
  else
    writeOut(
      ctx,
      `catalogue: ${summary.created} module(s) created, ${summary.unchanged} already there, ${summary.matrix_entries} matrix entries set`,
    );
}
