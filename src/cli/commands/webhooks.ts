import { Command } from 'commander';
import type { WebhookDelivery, WebhookEndpoint } from '../../domain/events/event.schema.js';
import type { CliContext } from '../context.js';
import { note, printJson, printList, printRecord, writeOut } from '../output.js';
import { writes } from '../store-access.js';

const DELIVERY_COLUMNS = [
  { header: 'ID', value: (d: WebhookDelivery) => d.id, id: true },
  { header: 'EVENT', value: (d: WebhookDelivery) => d.event_type },
  { header: 'SEQ', value: (d: WebhookDelivery) => d.seq },
  { header: 'STATUS', value: (d: WebhookDelivery) => d.status },
  { header: 'ATTEMPTS', value: (d: WebhookDelivery) => d.attempts },
  { header: 'LAST', value: (d: WebhookDelivery) => d.last_status ?? d.last_error ?? '' },
  { header: 'NEXT', value: (d: WebhookDelivery) => (d.status === 'pending' ? d.next_attempt_at : '') },
];

const deliveryPairs = (d: WebhookDelivery): Array<[string, unknown]> => [
  ['id', d.id],
  ['event_type', d.event_type],
  ['status', d.status],
  ['attempts', d.attempts],
  ['last_status', d.last_status],
  ['last_error', d.last_error],
  ['response_excerpt', d.response_excerpt],
  ['next_attempt_at', d.next_attempt_at],
];

/** `compliance webhooks …`: endpoints that receive the tenant's events, signed (Standard Webhooks). */
export function createWebhooksCommand(ctx: CliContext): Command {
  const webhooks = new Command('webhooks').description(
    'webhook endpoints: events from the journal, signed per Standard Webhooks and retried for 27 hours',
  );
  const api = async () => (await ctx.backend()).webhooks;
  const req = () => ({ tenant: ctx.config().tenant, actor: ctx.config().user });

  writes(webhooks.command('add'))
    .description('add an endpoint; prints it with its signing secret (whsec_…), shown only now')
    .argument('<url>', 'https:// (or http://) URL that receives POST requests')
    .requiredOption('--events <list>', 'comma-separated event types, or * for every one')
    .option('--allow-private', 'permit a URL that resolves to a loopback, link-local or private address')
    .action(async (url: string, o: { events: string; allowPrivate?: boolean }) => {
      const events = o.events
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
      const e = await (await api()).add({ ...req(), body: { url, events, allow_private: Boolean(o.allowPrivate) } });
      if (ctx.config().json) return printJson(ctx, e);
      writeOut(ctx, `${e.id}\t${e.url}\t${e.secret}`);
      note(ctx, `added webhook ${e.id} for ${e.events.join(', ')}; its secret is shown only now`);
    });

  webhooks
    .command('list')
    .description('the endpoints (without secrets), with their status and cursor')
    .action(async () => {
      const rows = await (await api()).list(req());
      await printList(
        ctx,
        rows,
        [
          { header: 'ID', value: (e: WebhookEndpoint) => e.id, id: true },
          { header: 'URL', value: (e: WebhookEndpoint) => e.url },
          { header: 'EVENTS', value: (e: WebhookEndpoint) => e.events.join(',') },
          { header: 'STATUS', value: (e: WebhookEndpoint) => e.status },
          { header: 'CURSOR', value: (e: WebhookEndpoint) => e.cursor_seq },
        ],
        { empty: 'no webhook endpoints (add one with `compliance webhooks add URL --events …`)' },
      );
    });

  writes(webhooks.command('remove'))
    .description('remove an endpoint and its deliveries')
    .argument('<id>')
    .action(async (id: string) => {
      const r = await (await api()).remove({ ...req(), params: { id } });
      await printRecord(ctx, r, [['removed', r.id]]);
    });

  webhooks
    .command('deliveries')
    .description('deliveries, newest first')
    .option('--failed', 'only those that gave up or are being retried')
    .option('--endpoint <id>', 'of one endpoint')
    .option('--limit <n>', '1 to 1000', '100')
    .action(async (o: { failed?: boolean; endpoint?: string; limit: string }) => {
      const rows = await (
        await api()
      ).deliveries({
        ...req(),
        query: { failed: o.failed ? 'true' : undefined, endpoint_id: o.endpoint, limit: o.limit },
      });
      await printList(ctx, rows, DELIVERY_COLUMNS, { empty: o.failed ? 'no failed deliveries' : 'no deliveries' });
    });

  writes(webhooks.command('redeliver'))
    .description('send a delivery again (same webhook-id), due now')
    .argument('<delivery-id>')
    .action(async (id: string) => {
      const d = await (await api()).redeliver({ ...req(), params: { id } });
      await printRecord(ctx, d, deliveryPairs(d));
    });

  writes(webhooks.command('test'))
    .description('send a webhook.test event to an endpoint now and show the answer')
    .argument('<endpoint-id>')
    .action(async (id: string) => {
      const d = await (await api()).test({ ...req(), params: { id } });
      await printRecord(ctx, d, deliveryPairs(d));
      if (d.status !== 'delivered') ctx.exitCode = 6;
    });
  return webhooks;
}
