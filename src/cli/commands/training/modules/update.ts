import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printRecord } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { moduleId, req } from '../shared.js';
import { moduleBody, moduleFlags, modulePairs, type ModuleFlags } from './shared.js';

/** `modules update <id-or-code>`: the fields the flags (or the file) give. */
export type UpdateOptions = ModuleFlags & { idOrCode: string };

export function register(modules: Command, ctx: CliContext): Command {
  return moduleFlags(
    writes(modules.command('update')).description('change fields of a module').argument('<id-or-code>'),
  ).action((idOrCode: string, o: ModuleFlags) => run(ctx, { ...o, idOrCode }));
}

export async function run(ctx: CliContext, o: UpdateOptions): Promise<void> {
  const backend = await ctx.backend();
  const m = await backend.training.updateModule({
    ...req(ctx),
    params: { id: await moduleId(ctx, backend, o.idOrCode) },
    body: await moduleBody(ctx, o),
  });
  await printRecord(ctx, m, modulePairs(m));
}
