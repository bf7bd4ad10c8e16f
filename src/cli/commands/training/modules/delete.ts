import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printJson, writeOut } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { moduleId, req } from '../shared.js';

/** `modules delete <id-or-code>`: only a module nobody is assigned. */
export interface DeleteOptions {
  idOrCode: string;
}

export function register(modules: Command, ctx: CliContext): Command {
  return writes(modules.command('delete'))
    .argument('<id-or-code>')
    .description('delete a module without assignments')
    .action((idOrCode: string) => run(ctx, { idOrCode }));
}

export async function run(ctx: CliContext, o: DeleteOptions): Promise<void> {
  const backend = await ctx.backend();
  const r = await backend.training.deleteModule({
    ...req(ctx),
    params: { id: await moduleId(ctx, backend, o.idOrCode) },
  });
  if (ctx.config().json) printJson(ctx, r);
  else writeOut(ctx, r.message);
}
