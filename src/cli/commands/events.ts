import { Command } from 'commander';
import { MAX_KEEP_DAYS } from '../../domain/events/retention.js';
import type { CliContext } from '../context.js';
import { note, printJson, printRecord } from '../output.js';
import { wholeNumber } from '../input.js';
import { unlessDryRun, usesTenant, writes } from '../store-access.js';

/** `compliance events run --once`: delivers webhooks (and queued e-mail) from the CLI, for a laptop or a cron job. */
export function createEventsCommand(ctx: CliContext): Command {
  // every tenant's deliveries: the tenant plays no part
  const events = usesTenant(
    new Command('events').description('deliver events: webhooks from the journal, queued e-mail'),
    'none',
  );
  writes(events.command('run'))
    .description('one delivery pass over every tenant (compliance serve does this in the background)')
    .option('--once', 'run one pass and exit (the only mode; for cron)')
    .option('--smtp <url>', 'SMTP server for queued e-mail, smtp://user:password@host:port (env COMPLIANCE_SMTP_URL)')
    .option('--smtp-from <address>', 'sender of the e-mail (env COMPLIANCE_SMTP_FROM; default compliance@localhost)')
    .action(async (o: { smtp?: string; smtpFrom?: string }) => {
      const { checkSmtpFlags } = await import('./smtp-flags.js');
      const smtp = checkSmtpFlags(ctx, o);
      const backend = await ctx.localBackend('events run');
      const { runEventsPass } = await import('../../backend/local/events/events-runner.js');
      const r = await runEventsPass(backend.store, { clock: ctx.clock, env: ctx.env, smtp });
      if (ctx.config().json) return printJson(ctx, r);
      await printRecord(ctx, r, [
        ['webhooks queued', r.webhooks.queued],
        ['webhooks delivered', r.webhooks.delivered],
        ['webhooks retrying', r.webhooks.retrying],
        ['webhooks failed', r.webhooks.failed],
        ['mail sent', r.mail.sent],
        ['mail retrying', r.mail.retrying],
        ['mail failed', r.mail.failed],
        ['finished deliveries pruned', r.pruned.webhook_deliveries],
        ['finished e-mail pruned', r.pruned.emails],
      ]);
      if (r.webhooks.retrying || r.webhooks.failed) note(ctx, 'see `compliance webhooks deliveries --failed`');
      if (r.mail.retrying || r.mail.failed) note(ctx, 'see `compliance notifications outbox --failed`');
      if (!r.mail.configured && r.mail.waiting)
        note(ctx, `${r.mail.waiting} e-mail queued: set COMPLIANCE_SMTP_URL or --smtp to send them`);
    });
  writes(events.command('prune'), unlessDryRun)
    .description('delete finished webhook deliveries and sent e-mail of every tenant older than the retention')
    .option(
      '--older-than <days>',
      'days since the last attempt (default COMPLIANCE_EVENTS_KEEP_DAYS, else 90)',
      wholeNumber('--older-than', 1, MAX_KEEP_DAYS),
    )
    .option('--dry-run', 'count what would go, delete nothing')
    .action(async (o: { olderThan?: number; dryRun?: boolean }) => {
      const { keepDaysFromEnv, pruneEvents } = await import('../../backend/local/events/events-runner.js');
      const days = o.olderThan ?? keepDaysFromEnv(ctx.env);
      if (days === 0) {
        note(
          ctx,
          'COMPLIANCE_EVENTS_KEEP_DAYS is 0: finished events are kept for ever; --older-than DAYS prunes anyway',
        );
        return;
      }
      const backend = await ctx.localBackend('events prune');
      const r = await pruneEvents(backend.store, days, { clock: ctx.clock, dryRun: o.dryRun });
      if (ctx.config().json) return printJson(ctx, { older_than_days: days, dry_run: o.dryRun === true, ...r });
      await printRecord(ctx, r, [
        [o.dryRun ? 'webhook deliveries to delete' : 'webhook deliveries deleted', r.webhook_deliveries],
        [o.dryRun ? 'e-mail to delete' : 'e-mail deleted', r.emails],
      ]);
    });
  return events;
}
