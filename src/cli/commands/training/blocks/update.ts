import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printRecord } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { req } from '../shared.js';
import { blockBody, blockFlags, type BlockFlags } from './shared.js';

/** `blocks update <id>`: the fields the flags (or the file) give. */
export type UpdateOptions = BlockFlags & { id: string };

export function register(blocks: Command, ctx: CliContext): Command {
  return blockFlags(writes(blocks.command('update')).description('change a block').argument('<id>')).action(
    (id: string, o: BlockFlags) => run(ctx, { ...o, id }),
  );
}

export async function run(ctx: CliContext, o: UpdateOptions): Promise<void> {
  const b = await (
    await ctx.backend()
  ).trainingBlocks.update({ ...req(ctx), params: { id: o.id }, body: await blockBody(ctx, o) });
  await printRecord(ctx, b, Object.entries(b));
}
