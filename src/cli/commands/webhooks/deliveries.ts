import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { req } from '../../operation-verb.js';
import { printList } from '../../output.js';
import { DELIVERY_COLUMNS } from './shared.js';

/** `webhooks deliveries`: newest first, of every endpoint or one. */
export interface DeliveriesOptions {
  failed?: boolean;
  endpoint?: string;
  limit: string;
}

export function register(webhooks: Command, ctx: CliContext): Command {
  return webhooks
    .command('deliveries')
    .description('deliveries, newest first')
    .option('--failed', 'only those that gave up or are being retried')
    .option('--endpoint <id>', 'of one endpoint')
    .option('--limit <n>', '1 to 1000', '100')
    .action((o: DeliveriesOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: DeliveriesOptions): Promise<void> {
  const query = { failed: o.failed ? 'true' : undefined, endpoint_id: o.endpoint, limit: o.limit };
  const rows = await (await ctx.backend()).webhooks.deliveries({ ...req(ctx), query });
  await printList(ctx, rows, DELIVERY_COLUMNS, { empty: o.failed ? 'no failed deliveries' : 'no deliveries' });
}
