import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import * as outbox from './outbox.js';
import * as settings from './settings.js';
import * as smtp from './smtp.js';
import { createTemplatesCommand } from './templates/index.js';

/** `compliance notifications …`: who hears of escalations, in which words, and what is queued. */
export function createNotificationsCommand(ctx: CliContext): Command {
  const notifications = new Command('notifications').description(
    'escalation e-mail: settings (language, management and compliance-officer addresses, base URL), templates, outbox',
  );
  settings.register(notifications, ctx);
  notifications.addCommand(createTemplatesCommand(ctx));
  smtp.register(notifications, ctx);
  outbox.register(notifications, ctx);
  return notifications;
}
