import { isoZ, systemClock, type Clock } from '../../../domain/clock.js';
import { CLAIM_SECONDS, nextAttempt } from '../../../domain/events/retry.js';
import { OutboxQueue } from '../../../store/events/outbox.queue.js';
import type { Store } from '../../../store/store.js';
import type { Mailer, SmtpSettings } from '../../../services/mail/mailer.js';

/** nodemailer's codes for a server that could not be reached or spoken to (not a refused recipient). */
const CONNECTION_ERRORS = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'EAUTH', 'ETLS']);

/** What one pass over the outbox did; `configured` false: no SMTP server is set, the messages wait. */
export interface MailPass {
  configured: boolean;
  sent: number;
  retrying: number;
  failed: number;
  waiting: number;
}

/**
 * Sends the queued e-mail: claims due messages (one process sends each), sends them over SMTP, and on failure
 * queues them again with the webhooks' back-off, for 27.6 hours, before giving up. The escalation that queued them
 * has happened whatever becomes of its mail.
 */
export class MailDeliverer {
  private readonly queue: OutboxQueue;
  private readonly clock: Clock;

  constructor(
    store: Store,
    private readonly worker: string,
    private readonly configured: SmtpSettings | undefined,
    opts: { clock?: Clock; mailer?: Mailer } = {},
  ) {
    this.queue = new OutboxQueue(store.admin);
    this.clock = opts.clock ?? systemClock;
    this.mailer = opts.mailer;
  }

  private mailer?: Mailer;
  private smtp?: SmtpSettings;

  async pass(): Promise<MailPass> {
    // flags and environment first; else the store's own settings (`notifications smtp`), read at every pass
    const smtp = this.configured ?? (this.mailer ? undefined : await this.queue.smtp());
    this.smtp = smtp;
    const pass: MailPass = {
      configured: Boolean(this.smtp || this.mailer),
      sent: 0,
      retrying: 0,
      failed: 0,
      waiting: 0,
    };
    if (!this.smtp && !this.mailer) {
      pass.waiting = await this.queue.queuedCount();
      return pass;
    }
    let opened: (Mailer & { close?: () => void }) | undefined;
    // a server that cannot be reached fails the rest of the batch at once, and the pass ends: no one waits for it
    let unreachable: string | undefined;
    try {
      while (!unreachable) {
        const now = this.clock.now();
        const until = new Date(now.getTime() + CLAIM_SECONDS * 1000);
        const claimed = await this.queue.claimDue(this.worker, isoZ(now), isoZ(until), 20);
        if (!claimed.length) break;
        if (!this.mailer)
          this.mailer = opened = await (await import('../../../services/mail/mailer.js')).smtpMailer(this.smtp!);
        for (const m of claimed) {
          let error: string | null = unreachable ?? null;
          if (!unreachable)
            try {
              await this.mailer({
                from: this.smtp?.from ?? 'compliance@localhost',
                to: m.recipient,
                subject: m.subject,
                text: m.body_text,
                html: m.body_html,
                language: m.language,
              });
            } catch (e) {
              error = (e as Error)?.message ?? String(e);
              if (CONNECTION_ERRORS.has(String((e as { code?: unknown })?.code))) unreachable = error;
            }
          const at = this.clock.now();
          const next = error === null ? null : nextAttempt(m.attempts + 1, at);
          if (!(await this.queue.finish(this.worker, m.id, isoZ(at), error, next && isoZ(next)))) continue;
          if (error === null) pass.sent++;
          else if (next) pass.retrying++;
          else pass.failed++;
        }
      }
    } finally {
      // a transport made for this pass is closed with it; one handed in belongs to the caller
      if (opened) {
        opened.close?.();
        this.mailer = undefined;
      }
    }
    return pass;
  }
}
