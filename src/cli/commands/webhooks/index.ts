import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addOperationVerb } from '../../operation-verb.js';
import * as add from './add.js';
import * as deliveries from './deliveries.js';
import * as operations from './operations.js';

/** `compliance webhooks …`: endpoints that receive the tenant's events, signed (Standard Webhooks). */
export function createWebhooksCommand(ctx: CliContext): Command {
  const webhooks = new Command('webhooks').description(
    'webhook endpoints: events from the journal, signed per Standard Webhooks and retried for 27 hours',
  );
  add.register(webhooks, ctx);
  addOperationVerb(webhooks, ctx, operations.list);
  addOperationVerb(webhooks, ctx, operations.remove);
  deliveries.register(webhooks, ctx);
  addOperationVerb(webhooks, ctx, operations.redeliver);
  addOperationVerb(webhooks, ctx, operations.test);
  return webhooks;
}
