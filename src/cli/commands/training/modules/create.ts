import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printRecord } from '../../../output.js';
import { usesTenant, writes } from '../../../store-access.js';
import { req } from '../shared.js';
import { moduleBody, moduleFlags, modulePairs, type ModuleFlags } from './shared.js';

/** `modules create`: a module from flags, or a JSON body with its questions. */
export type CreateOptions = ModuleFlags;

export function register(modules: Command, ctx: CliContext): Command {
  return moduleFlags(usesTenant(writes(modules.command('create')), 'starts').description('create a module')).action(
    (o: CreateOptions) => run(ctx, o),
  );
}

export async function run(ctx: CliContext, o: CreateOptions): Promise<void> {
  const m = await (await ctx.backend()).training.createModule({ ...req(ctx), body: await moduleBody(ctx, o) });
  await printRecord(ctx, m, modulePairs(m));
}
