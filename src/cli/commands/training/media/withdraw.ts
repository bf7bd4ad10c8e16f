import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { writes } from '../../../store-access.js';
import { setPublished } from './shared.js';

/** `media withdraw <media-id>`: withdraw a published medium. */
export interface WithdrawOptions {
  mediaId: string;
}

export function register(media: Command, ctx: CliContext): Command {
  return writes(media.command('withdraw'))
    .description('withdraw a published medium')
    .argument('<media-id>')
    .action((mediaId: string) => run(ctx, { mediaId }));
}

export async function run(ctx: CliContext, o: WithdrawOptions): Promise<void> {
  await setPublished(ctx, o.mediaId, false);
}
