import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { note, printJson, printRecord } from '../../output.js';
import { writes } from '../../store-access.js';

/** `events run --once`: one delivery pass, for a laptop or a cron job. */
export interface RunOptions {
  once?: boolean;
  smtp?: string;
  smtpFrom?: string;
}

export function register(events: Command, ctx: CliContext): Command {
  return writes(events.command('run'))
    .description('one delivery pass over every tenant (compliance serve does this in the background)')
    .option('--once', 'run one pass and exit (the only mode; for cron)')
    .option('--smtp <url>', 'SMTP server for queued e-mail, smtp://user:password@host:port (env COMPLIANCE_SMTP_URL)')
    .option('--smtp-from <address>', 'sender of the e-mail (env COMPLIANCE_SMTP_FROM; default compliance@localhost)')
    .action((o: RunOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: RunOptions): Promise<void> {
  const { checkSmtpFlags } = await import('../smtp-flags.js');
  const smtp = checkSmtpFlags(ctx, o);
  const backend = await ctx.localBackend('events run');
  const { runEventsPass } = await import('../../../backend/local/events/events-runner.js');
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
}
