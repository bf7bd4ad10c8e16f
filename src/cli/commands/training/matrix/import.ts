import type { Command } from 'commander';
import { DomainError } from '../../../../domain/errors.js';
import type { CliContext } from '../../../context.js';
import { defined, readText } from '../../../input.js';
import { note, printJson, writeOut } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { num, parseCsv, req } from '../shared.js';

/** `matrix import <file>`: entries from a CSV as `matrix export` writes it; rows it refuses are named (exit 6). */
export interface ImportOptions {
  file: string;
}

export function register(matrix: Command, ctx: CliContext): Command {
  return writes(matrix.command('import'))
    .description('replace matrix entries from a CSV file as written by matrix export')
    .argument('<file>', 'CSV with role_code,module_code[,is_mandatory,priority]')
    .action((file: string) => run(ctx, { file }));
}

export async function run(ctx: CliContext, o: ImportOptions): Promise<void> {
  const backend = await ctx.backend();
  const { fields, rows } = await parseCsv(await readText(ctx, o.file));
  const missing = ['role_code', 'module_code'].filter((f) => !fields.includes(f));
  if (missing.length) throw new DomainError('bad_request', `${o.file}: missing column(s) ${missing.join(', ')}`);
  const codes = new Map((await backend.training.listModules(req(ctx))).map((m) => [m.module_code.toLowerCase(), m.id]));
  let set = 0;
  const refused: string[] = [];
  for (const { line, row } of rows) {
    const id = codes.get((row.module_code ?? '').trim().toLowerCase());
    if (!id) {
      refused.push(`line ${line}: unknown module_code ${row.module_code}`);
      continue;
    }
    try {
      await backend.training.setMatrix({
        ...req(ctx),
        body: defined({
          role_code: row.role_code?.trim(),
          module_id: id,
          is_mandatory: /^(true|1|yes|ja)$/i.test(row.is_mandatory ?? ''),
          priority: num(row.priority?.trim() || undefined),
        }),
      });
      set++;
    } catch (e) {
      if (!(e instanceof DomainError) || e.code !== 'validation') throw e;
      refused.push(`line ${line}: ${e.message}`);
    }
  }
  for (const r of refused) note(ctx, r);
  if (ctx.config().json) printJson(ctx, { set, refused: refused.length });
  else writeOut(ctx, `${set} entries set, ${refused.length} refused`);
  if (refused.length) ctx.exitCode = 6;
}
