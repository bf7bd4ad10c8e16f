import { isoZ, systemClock, type Clock, type IdSource } from '../../../domain/clock.js';
import { DomainError } from '../../../domain/errors.js';
import { KEEP_DAYS, MAX_KEEP_DAYS } from '../../../domain/events/retention.js';
import { EventsRetention, type Pruned } from '../../../store/events/retention.js';
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
  /** Days finished deliveries and e-mail are kept (0: for ever); COMPLIANCE_EVENTS_KEEP_DAYS, else KEEP_DAYS. */
  keepDays?: number;
}

/** A process prunes at most this often (its first pass always does). */
const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The retention the environment sets (COMPLIANCE_EVENTS_KEEP_DAYS), checked: whole days, 0 for ever. */
export function keepDaysFromEnv(env: NodeJS.ProcessEnv): number {
  const text = env.COMPLIANCE_EVENTS_KEEP_DAYS?.trim();
  if (text === undefined || text === '') return KEEP_DAYS;
  if (!/^\d+$/.test(text) || Number(text) > MAX_KEEP_DAYS)
    throw new DomainError('bad_request', `invalid COMPLIANCE_EVENTS_KEEP_DAYS: "${text}" (days, 0 keeps for ever)`, [
      { path: 'COMPLIANCE_EVENTS_KEEP_DAYS', message: 'a whole number of days; 0 keeps finished events for ever' },
    ]);
  return Number(text);
}

/** Deletes the finished deliveries and e-mail of every tenant whose last attempt is more than `days` days old. */
export function pruneEvents(
  store: Store,
  days: number,
  opts: { clock?: Clock; dryRun?: boolean } = {},
): Promise<Pruned> {
  const cutoff = isoZ(new Date((opts.clock ?? systemClock).now().getTime() - days * DAY_MS));
  return new EventsRetention(store.admin).prune(cutoff, opts.dryRun);
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
  /** Finished deliveries and e-mail past the retention, deleted by this pass (it prunes once an hour). */
  pruned: Pruned;
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
  const keepDays = opts.keepDays ?? keepDaysFromEnv(opts.env ?? {});
  const clock = opts.clock ?? systemClock;
  let prunedAt: number | undefined;
  const prune = async (): Promise<Pruned> => {
    const now = clock.now().getTime();
    if (keepDays === 0 || (prunedAt !== undefined && now - prunedAt < PRUNE_EVERY_MS))
      return { webhook_deliveries: 0, emails: 0 };
    prunedAt = now;
    return pruneEvents(store, keepDays, { clock });
  };
  return {
    worker: webhooks.worker,
    async pass(): Promise<EventsPass> {
      // each kind fails on its own: a receiver or an SMTP server that is down holds up neither the other nor the change
      const [w, m] = await Promise.all([webhooks.pass(), mail.pass()]);
      return { webhooks: w, mail: m, pruned: await prune() };
    },
    /** The background loop's webhook step: collects and starts sending, without waiting for the receivers. */
    webhooks: (onError: (e: unknown) => void) => webhooks.tick(onError),
    /** The background loop's e-mail step, and the pruning (once an hour). */
    async mail(): Promise<void> {
      await mail.pass();
      await prune();
    },
    /** Waits for the webhook attempts still running (each ends after the attempt timeout at most). */
    settle: () => webhooks.settle(),
  };
}

/** One delivery pass over every tenant. */
export const runEventsPass = (store: Store, opts: EventsOptions = {}): Promise<EventsPass> =>
  createEventsRunner(store, opts).pass();

/**
 * Delivers every `intervalMs` in the background of `compliance serve` until stopped, webhooks and e-mail in loops of
 * their own: a receiver or an SMTP server that takes its time holds up neither the other kind nor other receivers
 * (each endpoint is sent to on its own, see WebhookDeliverer). A failing step (the database gone for a moment) is
 * logged and the next one tries again. Each replica runs its own loops; claims keep them apart.
 */
export function startEventLoop(
  store: Store,
  opts: EventsOptions & { intervalMs?: number; log?: (line: string) => void } = {},
): { stop(): Promise<void> } {
  const runner = createEventsRunner(store, opts);
  const interval = opts.intervalMs ?? 1000;
  let stopped = false;
  const failed = (e: unknown) => opts.log?.(`events: delivery pass failed: ${(e as Error)?.message ?? String(e)}`);
  const loop = (step: () => Promise<void>) => {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    const tick = () => {
      running = step()
        .catch(failed)
        .then(() => {
          if (!stopped) timer = setTimeout(tick, interval);
        });
    };
    timer = setTimeout(tick, 0);
    return async () => {
      if (timer) clearTimeout(timer);
      await running;
    };
  };
  const stops = [loop(() => runner.webhooks(failed)), loop(() => runner.mail())];
  return {
    async stop() {
      stopped = true;
      await Promise.all(stops.map((s) => s()));
      await runner.settle();
    },
  };
}
