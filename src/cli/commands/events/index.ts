import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { usesTenant } from '../../store-access.js';
import * as prune from './prune.js';
import * as run from './run.js';

/** `compliance events run --once`: delivers webhooks (and queued e-mail) from the CLI, for a laptop or a cron job. */
export function createEventsCommand(ctx: CliContext): Command {
  // every tenant's deliveries: the tenant plays no part
  const events = usesTenant(
    new Command('events').description('deliver events: webhooks from the journal, queued e-mail'),
    'none',
  );
  run.register(events, ctx);
  prune.register(events, ctx);
  return events;
}
