import type { Clock, IdSource } from '../../../domain/clock.js';
import type { Store } from '../../../store/store.js';
import type { WebhookSender } from '../../../services/webhooks/sender.js';
import { WebhookDeliverer, type WebhookPass } from './webhook-deliverer.js';
import { MailDeliverer, type MailPass } from './mail-deliverer.js';
import { OutboxQueue } from '../../../store/events/outbox.queue.js';
import type { Mailer, SmtpSettings } from '../../../services/mail/mailer.js';

export interface EventsOptions {
  clock?: Clock;
  ids?: IdSource;
  env?: NodeJS.ProcessEnv;
  worker?: string;
  sendWebhook?: WebhookSender;
  /** Where queued e-mail goes (--smtp, COMPLIANCE_SMTP_URL); absent: the messages wait in the outbox. */
  smtp?: SmtpSettings;
  /** A mailer in place of SMTP (tests). */
  mailer?: Mailer;
}

/** The SMTP settings of the environment: COMPLIANCE_SMTP_URL and COMPLIANCE_SMTP_FROM, flags winning. */
export function smtpFromEnv(
  env: NodeJS.ProcessEnv,
  flags: { smtp?: string; smtpFrom?: string } = {},
): SmtpSettings | undefined {
  const url = flags.smtp ?? env.COMPLIANCE_SMTP_URL;
  if (!url) return undefined;
  return { url, from: flags.smtpFrom ?? env.COMPLIANCE_SMTP_FROM ?? 'compliance@localhost' };
}

/** The store's own SMTP settings (for every tenant), or undefined. */
export const storedSmtp = (store: Store): Promise<SmtpSettings | undefined> => new OutboxQueue(store.admin).smtp();

/** Sets (or with undefined, clears) the store's own SMTP settings. */
export const storeSmtp = (store: Store, s: SmtpSettings | undefined): Promise<void> =>
  new OutboxQueue(store.admin).setSmtp(s);

/** What one pass of `events run --once` (or of serve's background loop) did. */
export interface EventsPass {
  webhooks: WebhookPass;
  mail: MailPass;
}

/** The deliverers of one process, made once so a background loop keeps its worker name across passes. */
export function createEventsRunner(store: Store, opts: EventsOptions = {}) {
  const webhooks = new WebhookDeliverer(store, {
    clock: opts.clock,
    ids: opts.ids,
    worker: opts.worker,
    send: opts.sendWebhook,
  });
  const mail = new MailDeliverer(store, webhooks.worker, opts.smtp ?? smtpFromEnv(opts.env ?? {}), {
    clock: opts.clock,
    mailer: opts.mailer,
  });
  return {
    worker: webhooks.worker,
    async pass(): Promise<EventsPass> {
      // each kind fails on its own: a receiver or an SMTP server that is down holds up neither the other nor the change
      const [w, m] = await Promise.all([webhooks.pass(), mail.pass()]);
      return { webhooks: w, mail: m };
    },
  };
}

/** One delivery pass over every tenant. */
export const runEventsPass = (store: Store, opts: EventsOptions = {}): Promise<EventsPass> =>
  createEventsRunner(store, opts).pass();

/**
 * Passes every `intervalMs` in the background of `compliance serve` until stopped; a failing pass (the database gone
 * for a moment) is logged and the next one tries again. Each replica runs its own loop; claims keep them apart.
 */
export function startEventLoop(
  store: Store,
  opts: EventsOptions & { intervalMs?: number; log?: (line: string) => void } = {},
): { stop(): Promise<void> } {
  const runner = createEventsRunner(store, opts);
  const interval = opts.intervalMs ?? 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = runner
      .pass()
      .then(
        () => undefined,
        (e: unknown) => opts.log?.(`events: delivery pass failed: ${(e as Error)?.message ?? String(e)}`),
      )
      .then(() => {
        if (!stopped) timer = setTimeout(tick, interval);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
