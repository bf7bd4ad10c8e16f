import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printRecord } from '../../../output.js';
import { usesTenant, writes } from '../../../store-access.js';
import { req } from '../shared.js';
import { blockBody, blockFlags, type BlockFlags } from './shared.js';

/** `blocks create`: which canonical controls make which modules. */
export type CreateOptions = BlockFlags;

export function register(blocks: Command, ctx: CliContext): Command {
  return blockFlags(
    usesTenant(writes(blocks.command('create')), 'starts').description(
      'create a block: which canonical controls make which modules',
    ),
  ).action((o: CreateOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: CreateOptions): Promise<void> {
  const b = await (await ctx.backend()).trainingBlocks.create({ ...req(ctx), body: await blockBody(ctx, o) });
  await printRecord(ctx, b, Object.entries(b));
}
