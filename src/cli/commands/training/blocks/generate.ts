import { Option, type Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printJson, writeOut } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { req } from '../shared.js';

/** `blocks generate <id>`: the block's modules, control links and matrix entries; errors are named (exit 6). */
export interface GenerateOptions {
  id: string;
  language: 'de' | 'en';
  autoMatrix: boolean;
  skipContent?: boolean;
}

export function register(blocks: Command, ctx: CliContext): Command {
  return writes(blocks.command('generate'))
    .description("create or update the block's modules, control links and matrix entries")
    .argument('<id>')
    .addOption(new Option('--language <l>', 'de or en').choices(['de', 'en']).default('de'))
    .option('--no-auto-matrix', 'do not add matrix entries')
    .option('--skip-content', 'create modules and links without asking the language model')
    .action((id: string, o: Omit<GenerateOptions, 'id'>) => run(ctx, { ...o, id }));
}

export async function run(ctx: CliContext, o: GenerateOptions): Promise<void> {
  const r = await (
    await ctx.backend()
  ).trainingBlocks.generate({
    ...req(ctx),
    params: { id: o.id },
    body: { language: o.language, auto_matrix: o.autoMatrix, skip_content: Boolean(o.skipContent) },
  });
  if (ctx.config().json) printJson(ctx, r);
  else {
    for (const e of r.errors) ctx.io.stderr.write(`${e.module_code ?? 'block'}: ${e.message}\n`);
    writeOut(
      ctx,
      `modules created ${r.modules_created}, updated ${r.modules_updated}; controls linked ${r.controls_linked}; matrix entries created ${r.matrix_entries_created}; content generated ${r.content_generated}`,
    );
  }
  if (r.errors.length) ctx.exitCode = 6;
}
