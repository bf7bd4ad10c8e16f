import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { note, printJson } from '../../output.js';
import { unlessDryRun, writes } from '../../store-access.js';

/** `media gc`: objects no record names, older than an hour. */
export interface GcOptions {
  dryRun?: boolean;
}

export function register(media: Command, ctx: CliContext): Command {
  return writes(media.command('gc'), unlessDryRun)
    .description('remove objects of the media store that no record names, older than an hour')
    .option('--dry-run', 'list them, remove nothing')
    .action((o: GcOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: GcOptions): Promise<void> {
  const { store } = await ctx.localBackend('media gc');
  const { collectMedia } = await import('../../../backend/local/media-maintenance.js');
  const r = await collectMedia(store, { dryRun: Boolean(o.dryRun), now: ctx.clock.now() });
  if (ctx.config().json) return printJson(ctx, r);
  for (const x of r.orphans) ctx.io.stdout.write(`${x.key}\t${x.size_bytes}\t${x.modified}\n`);
  note(
    ctx,
    `${r.location}: ${r.orphans.length} objects without a record${r.dry_run ? ' (dry run: none removed)' : `, ${r.removed} removed`}; ${r.young} younger than an hour kept`,
  );
}
