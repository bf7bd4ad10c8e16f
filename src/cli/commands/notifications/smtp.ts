import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printRecord } from '../../output.js';
import { usesTenant, writes } from '../../store-access.js';

/** `notifications smtp`: the store's own SMTP server, shown, set or cleared. */
export interface SmtpOptions {
  url?: string;
  from: string;
  clear?: boolean;
}

export function register(notifications: Command, ctx: CliContext): Command {
  return usesTenant(
    writes(notifications.command('smtp'), (o) => (o.url !== undefined || o.clear ? 'write' : 'read')),
    'none',
  )
    .description(
      "the store's own SMTP server, used when neither --smtp nor COMPLIANCE_SMTP_URL names one (embedded store only)",
    )
    .option('--url <url>', 'smtp://user:password@host:port or smtps://…')
    .option('--from <address>', 'sender of the e-mail', 'compliance@localhost')
    .option('--clear', 'remove the setting')
    .action((o: SmtpOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: SmtpOptions): Promise<void> {
  const backend = await ctx.localBackend('notifications smtp');
  const events = await import('../../../backend/local/events/events-runner.js');
  if (o.url !== undefined) {
    const { checkSmtpFlags } = await import('../smtp-flags.js');
    await events.storeSmtp(
      backend.store,
      checkSmtpFlags({ env: {} }, { smtp: o.url, smtpFrom: o.from }, { url: '--url', from: '--from' }),
    );
  } else if (o.clear) await events.storeSmtp(backend.store, undefined);
  const s = await events.storedSmtp(backend.store);
  const { redactUrl } = await import('../../../store/store.js');
  const shown = { url: s ? redactUrl(s.url) : null, from: s?.from ?? null };
  await printRecord(ctx, shown, [
    ['url', shown.url],
    ['from', shown.from],
  ]);
}
