import type { Command } from 'commander';
import { MAX_KEEP_DAYS } from '../../../domain/events/retention.js';
import type { CliContext } from '../../context.js';
import { wholeNumber } from '../../input.js';
import { note, printJson, printRecord } from '../../output.js';
import { unlessDryRun, writes } from '../../store-access.js';

/** `events prune`: finished deliveries and sent e-mail past the retention. */
export interface PruneOptions {
  olderThan?: number;
  dryRun?: boolean;
}

export function register(events: Command, ctx: CliContext): Command {
  return writes(events.command('prune'), unlessDryRun)
    .description('delete finished webhook deliveries and sent e-mail of every tenant older than the retention')
    .option(
      '--older-than <days>',
      'days since the last attempt (default COMPLIANCE_EVENTS_KEEP_DAYS, else 90)',
      wholeNumber('--older-than', 1, MAX_KEEP_DAYS),
    )
    .option('--dry-run', 'count what would go, delete nothing')
    .action((o: PruneOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: PruneOptions): Promise<void> {
  const { keepDaysFromEnv, pruneEvents } = await import('../../../backend/local/events/events-runner.js');
  const days = o.olderThan ?? keepDaysFromEnv(ctx.env);
  if (days === 0) {
    note(ctx, 'COMPLIANCE_EVENTS_KEEP_DAYS is 0: finished events are kept for ever; --older-than DAYS prunes anyway');
    return;
  }
  const backend = await ctx.localBackend('events prune');
  const r = await pruneEvents(backend.store, days, { clock: ctx.clock, dryRun: o.dryRun });
  if (ctx.config().json) return printJson(ctx, { older_than_days: days, dry_run: o.dryRun === true, ...r });
  await printRecord(ctx, r, [
    [o.dryRun ? 'webhook deliveries to delete' : 'webhook deliveries deleted', r.webhook_deliveries],
    [o.dryRun ? 'e-mail to delete' : 'e-mail deleted', r.emails],
  ]);
}
