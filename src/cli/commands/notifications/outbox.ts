import type { Command } from 'commander';
import type { OutboxMessage } from '../../../domain/notifications/notification.schema.js';
import type { CliContext } from '../../context.js';
import { req } from '../../operation-verb.js';
import { printList } from '../../output.js';

/** `notifications outbox`: the e-mail queued and sent. */
export interface OutboxOptions {
  failed?: boolean;
  limit: string;
}

export function register(notifications: Command, ctx: CliContext): Command {
  return notifications
    .command('outbox')
    .description('queued and sent e-mail, newest first')
    .option('--failed', 'only those that gave up or are being retried')
    .option('--limit <n>', '1 to 1000', '100')
    .action((o: OutboxOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: OutboxOptions): Promise<void> {
  const query = { failed: o.failed ? 'true' : undefined, limit: o.limit };
  const rows = await (await ctx.backend()).notifications.outbox({ ...req(ctx), query });
  await printList(
    ctx,
    rows,
    [
      { header: 'ID', value: (m: OutboxMessage) => m.id },
      { header: 'TO', value: (m: OutboxMessage) => m.recipient },
      { header: 'STATUS', value: (m: OutboxMessage) => m.status },
      { header: 'ATTEMPTS', value: (m: OutboxMessage) => m.attempts },
      { header: 'SUBJECT', value: (m: OutboxMessage) => m.subject },
      { header: 'ERROR', value: (m: OutboxMessage) => m.last_error ?? '' },
    ],
    { empty: o.failed ? 'no failed e-mail' : 'the outbox is empty' },
  );
}
