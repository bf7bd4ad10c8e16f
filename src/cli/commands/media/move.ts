import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { note, printJson, printRecord } from '../../output.js';
import { writes } from '../../store-access.js';

/** `media move --to URL|default`: resumable, each medium verified by size and SHA-256. */
export interface MoveOptions {
  to: string;
}

export function register(media: Command, ctx: CliContext): Command {
  return writes(media.command('move'))
    .description('move every medium into (or out of) an object store, verified by size and SHA-256; resumable')
    .requiredOption(
      '--to <url>',
      "s3://BUCKET[/PREFIX]?endpoint=URL&region=R&path_style=true, or default (the store's own place)",
    )
    .action((o: MoveOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: MoveOptions): Promise<void> {
  const { store } = await ctx.localBackend('media move');
  const { moveMedia } = await import('../../../backend/local/media-maintenance.js');
  const r = await moveMedia(store, o.to, (line) => note(ctx, line));
  if (r.missing.length) ctx.exitCode = 6;
  if (ctx.config().json) return printJson(ctx, r);
  await printRecord(ctx, r, [
    ['from', r.from],
    ['to', r.to],
    ['media', r.media],
    ['copied', `${r.copied} (${r.bytes} bytes)`],
    ['already there', r.already_there],
    ['old copies removed', r.removed],
    ['missing in both', r.missing.join(', ') || 'none'],
  ]);
  note(
    ctx,
    o.to === 'default'
      ? 'the store keeps its media in its own place again: drop --media / COMPLIANCE_MEDIA_URL'
      : `the store records ${o.to} as the home of its media: commands and replicas without --media find them there`,
  );
}
