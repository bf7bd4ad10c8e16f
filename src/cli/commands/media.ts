import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { note, printJson, printRecord } from '../output.js';
import { unlessDryRun, writes } from '../store-access.js';

/** `compliance media gc|move`: the media store of the embedded store, across every tenant (an operator's commands). */
export function createMediaCommand(ctx: CliContext): Command {
  const media = new Command('media').description('where the store keeps media files: collect garbage, move them');
  writes(media.command('gc'), unlessDryRun)
    .description('remove objects of the media store that no record names, older than an hour')
    .option('--dry-run', 'list them, remove nothing')
    .action(async (o: { dryRun?: boolean }) => {
      const { store } = await ctx.localBackend('media gc');
      const { collectMedia } = await import('../../backend/local/media-maintenance.js');
      const r = await collectMedia(store, { dryRun: Boolean(o.dryRun), now: ctx.clock.now() });
      if (ctx.config().json) return printJson(ctx, r);
      for (const x of r.orphans) ctx.io.stdout.write(`${x.key}\t${x.size_bytes}\t${x.modified}\n`);
      note(
        ctx,
        `${r.location}: ${r.orphans.length} objects without a record${r.dry_run ? ' (dry run: none removed)' : `, ${r.removed} removed`}; ${r.young} younger than an hour kept`,
      );
    });
  writes(media.command('move'))
    .description('move every medium into (or out of) an object store, verified by size and SHA-256; resumable')
    .requiredOption(
      '--to <url>',
      "s3://BUCKET[/PREFIX]?endpoint=URL&region=R&path_style=true, or default (the store's own place)",
    )
    .action(async (o: { to: string }) => {
      const { store } = await ctx.localBackend('media move');
      const { moveMedia } = await import('../../backend/local/media-maintenance.js');
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
    });
  return media;
}
