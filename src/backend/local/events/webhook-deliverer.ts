import { hostname } from 'node:os';
import { isoZ, systemClock, type Clock, type IdSource } from '../../../domain/clock.js';
import { consentSubjectsIn, eventsOf, subscribed } from '../../../domain/events/event.map.js';
import type { EventPayload } from '../../../domain/events/event.schema.js';
import { ATTEMPT_SECONDS, CLAIM_SECONDS, nextAttempt } from '../../../domain/events/retry.js';
import type { AttemptOutcome, NewDelivery } from '../../../domain/events/webhook-store.port.js';
import { DeliveryQueue, type ClaimedDelivery } from '../../../store/events/webhook.store.js';
import { uuidv7Source } from '../../../store/ids.js';
import type { Store } from '../../../store/store.js';
import type { SendResult, WebhookSender } from '../../../services/webhooks/sender.js';

export interface DelivererOptions {
  clock?: Clock;
  ids?: IdSource;
  /** How this process names itself in claims (default host:pid:random). */
  worker?: string;
  /** The sender (default: signed HTTP POST, loaded when first needed). */
  send?: WebhookSender;
  /** Deliveries in flight at once to one endpoint (default 8). */
  perEndpoint?: number;
  /** Endpoints this process sends to at once (default 64). */
  endpoints?: number;
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
/** Deliveries one endpoint's lane claims at a time. */
const CHUNK = 64;
const ATTEMPT_MS = ATTEMPT_SECONDS * 1000;
/**
 * A lane starts no attempt later than this after its claim: even an attempt that takes the whole attempt timeout, and
 * recording it, end before the claim does, so no other replica can claim and send the same delivery meanwhile.
 */
const SEND_WINDOW_MS = CLAIM_SECONDS * 1000 - ATTEMPT_MS - 10_000;
/** A sender that has not settled this long after the attempt timeout (a name that never resolves) is given up. */
const GUARD_MS = ATTEMPT_MS + 2_000;
/** Statements of the deliverer at once: lanes wait on receivers, and must not take the pool requests need. */
const DB_AT_ONCE = 2;

const emptyPass = (): WebhookPass => ({ queued: 0, attempted: 0, delivered: 0, retrying: 0, failed: 0 });

/** Runs at most `n` of the functions given at once, the others in arrival order. */
function limiter(n: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((r) => waiting.push(r));
    else running++;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/** A delivery id: the webhook-id header (msg_ and 32 hex digits, time-ordered). */
export const messageId = (ids: IdSource): string => `msg_${ids.next().replace(/-/g, '')}`;

/**
 * Delivers webhooks from the journal: moves each endpoint's cursor over its tenant's new entries, storing a delivery
 * per subscribed event, then sends the due deliveries. Every step is a transaction or a claim in the database, so any
 * number of processes (serve replicas, `events run --once`) can run passes at the same time.
 *
 * Each endpoint is sent to by a lane of its own (`perEndpoint` deliveries in flight), so a receiver that is slow or
 * hangs holds up its own deliveries only: an attempt ends after ATTEMPT_SECONDS, and a lane whose attempt failed
 * stops there (its other claimed deliveries are released, due as they were) instead of waiting on the receiver again.
 */
export class WebhookDeliverer {
  private readonly queue: DeliveryQueue;
  private readonly clock: Clock;
  private readonly ids: IdSource;
  readonly worker: string;
  private send?: WebhookSender;
  private readonly perEndpoint: number;
  private readonly maxLanes: number;
  /** The lanes running in this process, by endpoint id. */
  private readonly lanes = new Map<string, Promise<boolean>>();
  private readonly db = limiter(DB_AT_ONCE);

  constructor(store: Store, opts: DelivererOptions = {}) {
    this.queue = new DeliveryQueue(store.admin);
    this.clock = opts.clock ?? systemClock;
    this.ids = opts.ids ?? uuidv7Source();
    this.worker = opts.worker ?? `${hostname()}:${process.pid}:${this.ids.next().slice(-8)}`;
    this.send = opts.send;
    this.perEndpoint = opts.perEndpoint ?? 8;
    this.maxLanes = opts.endpoints ?? 64;
  }

  /** Turns the journal entries behind every endpoint's cursor into deliveries; answers how many were stored. */
  async collect(): Promise<number> {
    let queued = 0;
    for (const ep of await this.db(() => this.queue.endpoints())) {
      for (let after = ep.cursor_seq; ;) {
        const entries = await this.db(() => this.queue.journalPage(ep.tenant_id, after, PAGE));
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
        const upTo = after;
        await this.db(() => this.queue.enqueue(ep.id, upTo, rows, now));
        queued += rows.length;
        if (entries.length < PAGE) break;
      }
    }
    return queued;
  }

  /** Sends one claimed delivery and answers the outcome to record; a sender that never settles fails the attempt. */
  private async send1(d: ClaimedDelivery): Promise<AttemptOutcome> {
    this.send ??= (await import('../../../services/webhooks/sender.js')).sendWebhook;
    let guard: NodeJS.Timeout | undefined;
    const late = new Promise<SendResult>((resolve) => {
      guard = setTimeout(
        () => resolve({ ok: false, status: null, excerpt: null, error: `no answer within ${ATTEMPT_SECONDS} s` }),
        GUARD_MS,
      );
    });
    const r = await Promise.race([
      this.send({ url: d.url, secret: d.secret, id: d.id, payload: d.payload, allowPrivate: d.allow_private }),
      late,
    ]).finally(() => clearTimeout(guard));
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

  /**
   * Sends claimed deliveries of one endpoint, `perEndpoint` at a time, and records their outcomes in one transaction.
   * After a failed attempt (or once the claim is too old to start another) no more are sent: those are released.
   * Answers whether every claimed delivery was attempted and none failed.
   */
  private async attempt(claimed: ClaimedDelivery[], pass: WebhookPass): Promise<boolean> {
    const outcomes: Array<AttemptOutcome | undefined> = new Array(claimed.length);
    const started = performance.now();
    let next = 0;
    let stop = false;
    const lane = async () => {
      while (!stop && next < claimed.length && performance.now() - started < SEND_WINDOW_MS) {
        const i = next++;
        const o = await this.send1(claimed[i]!);
        outcomes[i] = o;
        if (!o.ok) stop = true;
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.perEndpoint, claimed.length) }, lane));
    const sent = claimed.flatMap((d, i) => (outcomes[i] ? [{ d, o: outcomes[i] }] : []));
    const unsent = claimed.filter((_, i) => !outcomes[i]);
    const kept = await this.db(() => this.queue.finishAll(this.worker, sent, unsent));
    kept.forEach((k, i) => {
      if (!k) return;
      const o = sent[i]!.o;
      pass.attempted++;
      if (o.ok) pass.delivered++;
      else if (o.next_attempt_at) pass.retrying++;
      else pass.failed++;
    });
    return !unsent.length && sent.every((s) => s.o.ok);
  }

  /**
   * Claims and sends one endpoint's due deliveries until none is due (true), or an attempt failed or was not started
   * in time (false: the endpoint still has due deliveries, for a later lane).
   */
  private async lane(endpoint: string, pass: WebhookPass): Promise<boolean> {
    for (;;) {
      const now = this.clock.now();
      const until = new Date(now.getTime() + CLAIM_SECONDS * 1000);
      const claimed = await this.db(() =>
        this.queue.claimDue(this.worker, isoZ(now), isoZ(until), { limit: CHUNK, endpoint }),
      );
      if (!claimed.length) return true;
      if (!(await this.attempt(claimed, pass))) return false;
    }
  }

  /**
   * Starts a lane for each endpoint with due deliveries that has none running in this process (up to `endpoints`
   * lanes at once), except those in `skip`; answers the lanes started. They run on by themselves: the background
   * loop does not wait for them, so it goes on collecting while a receiver takes its time.
   */
  async dispatch(
    pass: WebhookPass,
    skip: ReadonlySet<string> = new Set(),
  ): Promise<Array<{ endpoint: string; lane: Promise<boolean> }>> {
    const free = this.maxLanes - this.lanes.size;
    if (free <= 0) return [];
    const due = await this.db(() =>
      this.queue.dueEndpoints(isoZ(this.clock.now()), this.maxLanes + this.lanes.size + skip.size),
    );
    const started: Array<{ endpoint: string; lane: Promise<boolean> }> = [];
    for (const endpoint of due) {
      if (started.length >= free) break;
      if (this.lanes.has(endpoint) || skip.has(endpoint)) continue;
      const lane = this.lane(endpoint, pass).finally(() => this.lanes.delete(endpoint));
      this.lanes.set(endpoint, lane);
      started.push({ endpoint, lane });
    }
    return started;
  }

  /** Resolves once every lane running now has ended (an attempt ends after ATTEMPT_SECONDS at most). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.lanes.values()]);
  }

  /**
   * Sends what is due, to every endpoint at once, and waits for it. An endpoint whose attempt failed is not tried
   * again in this pass (its other due deliveries wait for the next pass), so a pass takes one attempt timeout for a
   * receiver that hangs, not one per delivery.
   */
  async deliverDue(pass: WebhookPass): Promise<void> {
    const stopped = new Set<string>();
    for (;;) {
      const started = await this.dispatch(pass, stopped);
      if (!started.length) return;
      const ends = await Promise.allSettled(started.map((s) => s.lane));
      ends.forEach((end, i) => {
        if (end.status === 'fulfilled' && !end.value) stopped.add(started[i]!.endpoint);
      });
      const failure = ends.find((end) => end.status === 'rejected');
      if (failure) throw failure.reason;
    }
  }

  /** Sends one due delivery now (`webhooks test`), if no other process holds it. */
  async deliverOne(id: string): Promise<void> {
    const now = this.clock.now();
    const until = new Date(now.getTime() + CLAIM_SECONDS * 1000);
    const claimed = await this.db(() => this.queue.claimDue(this.worker, isoZ(now), isoZ(until), { limit: 1, id }));
    await this.attempt(claimed, emptyPass());
  }

  /** One pass: collect, then deliver what is due, waiting for every lane to end. */
  async pass(): Promise<WebhookPass> {
    const pass = emptyPass();
    pass.queued = await this.collect();
    await this.deliverDue(pass);
    return pass;
  }

  /**
   * The background loop's step: collect, then start lanes for what is due without waiting for them. A lane that fails
   * (the database went away) is logged by `onError`; the next step starts it again.
   */
  async tick(onError: (e: unknown) => void): Promise<void> {
    await this.collect();
    for (const { lane } of await this.dispatch(emptyPass())) lane.catch(onError);
  }
}
