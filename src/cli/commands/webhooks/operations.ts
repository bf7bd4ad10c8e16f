import type { WebhookEndpoint } from '../../../domain/events/event.schema.js';
import { operationVerb } from '../../operation-verb.js';
import { printList, printRecord } from '../../output.js';
import { deliveryPairs } from './shared.js';

/** The verbs of `webhooks` that call one operation and print its answer; `index.ts` places them among the others. */
export const list = operationVerb({
  area: 'webhooks',
  operation: 'list',
  name: 'list',
  description: 'the endpoints (without secrets), with their status and cursor',
  print: (ctx, rows) =>
    printList(
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
    ),
});

export const remove = operationVerb({
  area: 'webhooks',
  operation: 'remove',
  name: 'remove',
  description: 'remove an endpoint and its deliveries',
  args: [['<id>', 'id']],
  writes: true,
  print: (ctx, r) => printRecord(ctx, r, [['removed', r.id]]),
});

export const redeliver = operationVerb({
  area: 'webhooks',
  operation: 'redeliver',
  name: 'redeliver',
  description: 'send a delivery again (same webhook-id), due now',
  args: [['<delivery-id>', 'id']],
  writes: true,
  print: (ctx, d) => printRecord(ctx, d, deliveryPairs(d)),
});

export const test = operationVerb({
  area: 'webhooks',
  operation: 'test',
  name: 'test',
  description: 'send a webhook.test event to an endpoint now and show the answer',
  args: [['<endpoint-id>', 'id']],
  writes: true,
  print: async (ctx, d) => {
    await printRecord(ctx, d, deliveryPairs(d));
    if (d.status !== 'delivered') ctx.exitCode = 6;
  },
});
