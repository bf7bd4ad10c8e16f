import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { note, printJson, printRecord } from '../output.js';
import { writes } from '../store-access.js';

/** `compliance events run --once`: delivers webhooks (and queued e-mail) from the CLI, for a laptop or a cron job. */
export function createEventsCommand(ctx: CliContext): Command {
  const events = new Command('events').description('deliver events: webhooks from the journal, queued e-mail');
  writes(events.command('run'))
    .description('one delivery pass over every tenant (compliance serve does this in the background)')
    .option('--once', 'run one pass and exit (the only mode; for cron)')
    .action(async () => {
      const backend = await ctx.localBackend('events run');
      const { runEventsPass } = await import('../../backend/local/events/events-runner.js');
      const r = await runEventsPass(backend.store, { clock: ctx.clock, env: ctx.env });
      if (ctx.config().json) return printJson(ctx, r);
      await printRecord(ctx, r, [
        ['webhooks queued', r.webhooks.queued],
        ['webhooks delivered', r.webhooks.delivered],
        ['webhooks retrying', r.webhooks.retrying],
        ['webhooks failed', r.webhooks.failed],
      ]);
      if (r.webhooks.retrying || r.webhooks.failed) note(ctx, 'see `compliance webhooks deliveries --failed`');
    });
  return events;
}
