import { hostname } from 'node:os';
import { isoZ, systemClock, type Clock, type IdSource } from '../../../domain/clock.js';
import { consentSubjectsIn, eventsOf, subscribed } from '../../../domain/events/event.map.js';
import type { EventPayload } from '../../../domain/events/event.schema.js';
import { CLAIM_SECONDS, nextAttempt } from '../../../domain/events/retry.js';
import type { AttemptOutcome, NewDelivery } from '../../../domain/events/webhook.store.js';
import { DeliveryQueue, type ClaimedDelivery } from '../../../store/events/webhook.store.js';
import { uuidv7Source } from '../../../store/ids.js';
import type { Store } from '../../../store/store.js';
import type { WebhookSender } from '../../../services/webhooks/sender.js';

export interface DelivererOptions {
  clock?: Clock;
  ids?: IdSource;
  /** How this process names itself in claims (default host:pid:random). */
  worker?: string;
  /** The sender (default: signed HTTP POST, loaded when first needed). */
  send?: WebhookSender;
  /** Deliveries in flight at once. */
  concurrency?: number;
}

/** What one pass did. */
export interface WebhookPass {
  queued: number;
  attempted: number;
  delivered: number;
  retrying: number;
  failed: number;
}

const PAGE = 1000;

/** A delivery id: the webhook-id header (msg_ and 32 hex digits, time-ordered). */
export const messageId = (ids: IdSource): string => `msg_${ids.next().replace(/-/g, '')}`;

/**
 * Delivers webhooks from the journal: moves each endpoint's cursor over its tenant's new entries, storing a delivery
 * per subscribed event, then claims and sends the due deliveries. Every step is a transaction or a claim in the
 * database, so any number of processes (serve replicas, `events run --once`) can run passes at the same time.
 */
export class WebhookDeliverer {
  private readonly queue: DeliveryQueue;
  private readonly clock: Clock;
  private readonly ids: IdSource;
  readonly worker: string;
  private send?: WebhookSender;

  constructor(
    store: Store,
    private readonly opts: DelivererOptions = {},
  ) {
    this.queue = new DeliveryQueue(store.admin);
    this.clock = opts.clock ?? systemClock;
    this.ids = opts.ids ?? uuidv7Source();
    this.worker = opts.worker ?? `${hostname()}:${process.pid}:${this.ids.next().slice(-8)}`;
    this.send = opts.send;
  }

  /** Turns the journal entries behind every endpoint's cursor into deliveries; answers how many were stored. */
  async collect(): Promise<number> {
    let queued = 0;
    for (const ep of await this.queue.endpoints()) {
      for (let after = ep.cursor_seq; ;) {
        const entries = await this.queue.journalPage(ep.tenant_id, after, PAGE);
        if (!entries.length) break;
        const rows: NewDelivery[] = [];
        const now = isoZ(this.clock.now());
        const { known: subjects, wanted } = consentSubjectsIn(entries);
        if (wanted.length)
          for (const [id, c] of await this.queue.consentSubjects(ep.tenant_id, wanted)) subjects.set(id, c);
        for (const e of entries)
          for (const ev of eventsOf(e, subjects)) {
            if (!subscribed(ep.events, ev.type)) continue;
            const payload: EventPayload = {
              type: ev.type,
              timestamp: e.time,
              data: { ...ev.data, journal_seq: e.seq },
            };
            rows.push({
              id: messageId(this.ids),
              tenant_id: ep.tenant_id,
              endpoint_id: ep.id,
              seq: e.seq,
              event_type: ev.type,
              payload: JSON.stringify(payload),
              created_at: now,
            });
          }
        after = entries[entries.length - 1]!.seq;
        await this.queue.enqueue(ep.id, after, rows, now);
        queued += rows.length;
        if (entries.length < PAGE) break;
      }
    }
    return queued;
  }

  /** Sends one claimed delivery and answers the outcome to record. */
  private async send1(d: ClaimedDelivery): Promise<AttemptOutcome> {
    this.send ??= (await import('../../../services/webhooks/sender.js')).sendWebhook;
    const r = await this.send({
      url: d.url,
      secret: d.secret,
      id: d.id,
      payload: d.payload,
      allowPrivate: d.allow_private,
    });
    const at = this.clock.now();
    const next = r.ok ? null : nextAttempt(d.attempts + 1, at);
    return {
      at: isoZ(at),
      ok: r.ok,
      status: r.status,
      error: r.error,
      excerpt: r.excerpt,
      next_attempt_at: next && isoZ(next),
    };
  }

  /** Sends claimed deliveries, `concurrency` at a time, and records their outcomes in one transaction. */
  private async attempt(claimed: ClaimedDelivery[], pass: WebhookPass): Promise<void> {
    const outcomes: AttemptOutcome[] = new Array(claimed.length);
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < claimed.length; i = next++) outcomes[i] = await this.send1(claimed[i]!);
    };
    await Promise.all(Array.from({ length: Math.min(this.opts.concurrency ?? 8, claimed.length) }, lane));
    const kept = await this.queue.finishAll(
      this.worker,
      claimed.map((d, i) => ({ d, o: outcomes[i]! })),
    );
    kept.forEach((k, i) => {
      if (!k) return;
      const o = outcomes[i]!;
      pass.attempted++;
      if (o.ok) pass.delivered++;
      else if (o.next_attempt_at) pass.retrying++;
      else pass.failed++;
    });
  }

  /** Claims and sends due deliveries until none is due; a failed attempt is due again only later. */
  async deliverDue(pass: WebhookPass): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const until = new Date(now.getTime() + CLAIM_SECONDS * 1000);
      const claimed = await this.queue.claimDue(this.worker, isoZ(now), isoZ(until), 64);
      if (!claimed.length) return;
      await this.attempt(claimed, pass);
    }
  }

  /** Sends one due delivery now (`webhooks test`), if no other process holds it. */
  async deliverOne(id: string): Promise<void> {
    const now = this.clock.now();
    const until = new Date(now.getTime() + CLAIM_SECONDS * 1000);
    const pass: WebhookPass = { queued: 0, attempted: 0, delivered: 0, retrying: 0, failed: 0 };
    await this.attempt(await this.queue.claimDue(this.worker, isoZ(now), isoZ(until), 1, id), pass);
  }

  /** One pass: collect, then deliver what is due. */
  async pass(): Promise<WebhookPass> {
    const pass: WebhookPass = { queued: 0, attempted: 0, delivered: 0, retrying: 0, failed: 0 };
    pass.queued = await this.collect();
    await this.deliverDue(pass);
    return pass;
  }
}
