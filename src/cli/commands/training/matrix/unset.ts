import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printJson, writeOut } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { moduleId, req } from '../shared.js';

/** `matrix unset <role> <module>`: the role no longer needs the module. */
export interface UnsetOptions {
  role: string;
  module: string;
}

export function register(matrix: Command, ctx: CliContext): Command {
  return writes(matrix.command('unset'))
    .description('remove a module from a role')
    .argument('<role>')
    .argument('<module>')
    .action((role: string, module: string) => run(ctx, { role, module }));
}

export async function run(ctx: CliContext, o: UnsetOptions): Promise<void> {
  const backend = await ctx.backend();
  const r = await backend.training.unsetMatrix({
    ...req(ctx),
    params: { role: o.role, moduleId: await moduleId(ctx, backend, o.module) },
  });
  if (ctx.config().json) printJson(ctx, r);
  else writeOut(ctx, r.message);
}
