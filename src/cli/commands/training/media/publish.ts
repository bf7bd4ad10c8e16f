import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { writes } from '../../../store-access.js';
import { setPublished } from './shared.js';

/** `media publish <media-id>`: publish a medium (its URL may then be handed out). */
export interface PublishOptions {
  mediaId: string;
}

export function register(media: Command, ctx: CliContext): Command {
  return writes(media.command('publish'))
    .description('publish a medium (its URL may then be handed out)')
    .argument('<media-id>')
    .action((mediaId: string) => run(ctx, { mediaId }));
}

export async function run(ctx: CliContext, o: PublishOptions): Promise<void> {
  await setPublished(ctx, o.mediaId, true);
}
