import type { Kysely } from 'kysely';
import type { DB } from '../db-types.js';

const SMTP_URL_KEY = 'smtp_url';
const SMTP_FROM_KEY = 'smtp_from';

/** A claimed message with everything sending it needs. */
export interface ClaimedMail {
  id: string;
  tenant_id: string;
  recipient: string;
  language: string;
  subject: string;
  body_text: string;
  body_html: string;
  attempts: number;
}

/**
 * The e-mail outbox from the sender's side, across every tenant (the owner's connection): claims due messages so that
 * one process sends each, and records each attempt. The messages themselves were queued in the transaction of the
 * escalation that caused them.
 */
export class OutboxQueue {
  constructor(private readonly db: Kysely<DB>) {}

  async claimDue(worker: string, now: string, until: string, limit: number): Promise<ClaimedMail[]> {
    const due = await this.db
      .selectFrom('notification_outbox')
      .select('id')
      .where('status', '=', 'queued')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    const claimed: ClaimedMail[] = [];
    for (const { id } of due) {
      const r = await this.db
        .updateTable('notification_outbox')
        .set({ claimed_by: worker, claimed_until: until })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) continue;
      const row = await this.db
        .selectFrom('notification_outbox')
        .select(['id', 'tenant_id', 'recipient', 'language', 'subject', 'body_text', 'body_html', 'attempts'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (row) claimed.push({ ...row, attempts: Number(row.attempts) });
    }
    return claimed;
  }

  /** Records an attempt of a message this worker holds: sent, queued again for `next`, or failed for good. */
  async finish(worker: string, id: string, at: string, error: string | null, next: string | null): Promise<boolean> {
    const r = await this.db
      .updateTable('notification_outbox')
      .set((eb) => ({
        status: error === null ? 'sent' : next ? 'queued' : 'failed',
        attempts: eb('attempts', '+', 1),
        sent_at: error === null ? at : null,
        last_error: error === null ? null : error.slice(0, 500),
        next_attempt_at: next ?? at,
        claimed_by: null,
        claimed_until: null,
      }))
      .where('id', '=', id)
      .where('claimed_by', '=', worker)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** The store's own SMTP settings (`notifications smtp`), used when neither flags nor environment name a server. */
  async smtp(): Promise<{ url: string; from: string } | undefined> {
    const rows = await this.db
      .selectFrom('setting')
      .select(['key', 'value'])
      .where('key', 'in', [SMTP_URL_KEY, SMTP_FROM_KEY])
      .execute();
    const url = rows.find((r) => r.key === SMTP_URL_KEY)?.value;
    if (!url) return undefined;
    return { url, from: rows.find((r) => r.key === SMTP_FROM_KEY)?.value ?? 'compliance@localhost' };
  }

  /** Stores (or with undefined, removes) the store's SMTP settings. */
  async setSmtp(s: { url: string; from: string } | undefined): Promise<void> {
    await this.db.deleteFrom('setting').where('key', 'in', [SMTP_URL_KEY, SMTP_FROM_KEY]).execute();
    if (s)
      await this.db
        .insertInto('setting')
        .values([
          { key: SMTP_URL_KEY, value: s.url },
          { key: SMTP_FROM_KEY, value: s.from },
        ])
        .execute();
  }

  async queuedCount(): Promise<number> {
    const r = await this.db
      .selectFrom('notification_outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }
}
