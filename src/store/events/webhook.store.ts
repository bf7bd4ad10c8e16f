import type { Kysely, Selectable } from 'kysely';
import type { StoredEntry } from '../../domain/journal/chain.js';
import type { ConsentSubject } from '../../domain/events/event.map.js';
import type { WebhookDelivery, WebhookEndpoint } from '../../domain/events/event.schema.js';
import type {
  AttemptOutcome,
  DeliveryRecord,
  EndpointRecord,
  NewDelivery,
  WebhookStore,
} from '../../domain/events/webhook-store.port.js';
import { KyselyJournalStore } from '../journal/journal.store.js';
import type { DB } from '../db-types.js';
import type { EventTables } from '../db-types-events.js';
import { writeTransaction } from '../transaction.js';

type EndpointRow = Selectable<EventTables['webhook_endpoint']>;
type DeliveryRow = Selectable<EventTables['webhook_delivery']>;

const endpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  tenant_id: r.tenant_id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  allow_private: Boolean(r.allow_private),
  status: r.status as WebhookEndpoint['status'],
  cursor_seq: Number(r.cursor_seq),
  failing_since: r.failing_since,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const delivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  endpoint_id: r.endpoint_id,
  seq: Number(r.seq),
  event_type: r.event_type,
  status: r.status as WebhookDelivery['status'],
  attempts: Number(r.attempts),
  created_at: r.created_at,
  next_attempt_at: r.next_attempt_at,
  last_attempt_at: r.last_attempt_at,
  last_status: r.last_status === null ? null : Number(r.last_status),
  last_error: r.last_error,
  response_excerpt: r.response_excerpt,
  delivered_at: r.delivered_at,
});

const pendingRow = (d: NewDelivery, dueAt: string) => ({
  ...d,
  status: 'pending',
  attempts: 0,
  next_attempt_at: dueAt,
  last_attempt_at: null,
  last_status: null,
  last_error: null,
  response_excerpt: null,
  delivered_at: null,
  claimed_by: null,
  claimed_until: null,
});

/** A tenant's endpoints and deliveries through the application's connection (row-level security on PostgreSQL). */
export class KyselyWebhookStore implements WebhookStore {
  constructor(private readonly db: Kysely<DB>) {}

  async insertEndpoint(e: EndpointRecord): Promise<void> {
    await this.db
      .insertInto('webhook_endpoint')
      .values({ ...e, events: JSON.stringify(e.events), allow_private: e.allow_private ? 1 : 0 })
      .execute();
  }

  async listEndpoints(tenant: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoint')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(endpoint);
  }

  async getEndpoint(tenant: string, id: string): Promise<WebhookEndpoint | undefined> {
    const r = await this.db
      .selectFrom('webhook_endpoint')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    return r && endpoint(r);
  }

  async deleteEndpoint(tenant: string, id: string): Promise<boolean> {
    return writeTransaction(this.db, async (trx) => {
      const r = await trx
        .deleteFrom('webhook_endpoint')
        .where('tenant_id', '=', tenant)
        .where('id', '=', id)
        .executeTakeFirst();
      await trx.deleteFrom('webhook_delivery').where('tenant_id', '=', tenant).where('endpoint_id', '=', id).execute();
      return Number(r.numDeletedRows) > 0;
    });
  }

  async listDeliveries(
    tenant: string,
    q: { endpoint_id?: string; failed: boolean; limit: number },
  ): Promise<WebhookDelivery[]> {
    let s = this.db.selectFrom('webhook_delivery').selectAll().where('tenant_id', '=', tenant);
    if (q.endpoint_id) s = s.where('endpoint_id', '=', q.endpoint_id);
    // --failed: given up, and pending ones whose last attempt failed (still being retried)
    if (q.failed)
      s = s.where((eb) =>
        eb.or([eb('status', '=', 'failed'), eb.and([eb('status', '=', 'pending'), eb('attempts', '>', 0)])]),
      );
    const rows = await s.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
    return rows.map(delivery);
  }

  async getDelivery(tenant: string, id: string): Promise<WebhookDelivery | undefined> {
    const r = await this.db
      .selectFrom('webhook_delivery')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    return r && delivery(r);
  }

  async resetDelivery(tenant: string, id: string, at: string): Promise<void> {
    await this.db
      .updateTable('webhook_delivery')
      .set({ status: 'pending', attempts: 0, next_attempt_at: at, claimed_by: null, claimed_until: null })
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .execute();
  }

  async insertDelivery(d: NewDelivery, dueAt: string): Promise<void> {
    await this.db.insertInto('webhook_delivery').values(pendingRow(d, dueAt)).execute();
  }
}

/** A claimed delivery with what sending it needs from its endpoint. */
export interface ClaimedDelivery extends DeliveryRecord {
  url: string;
  secret: string;
  allow_private: boolean;
}

/**
 * The deliverer's side, across every tenant (the owner's connection): turning journal entries into delivery rows
 * behind each endpoint's cursor, claiming due deliveries so that one replica sends each, and recording attempts.
 */
export class DeliveryQueue {
  constructor(private readonly db: Kysely<DB>) {}

  async endpoints(): Promise<EndpointRecord[]> {
    const rows = await this.db.selectFrom('webhook_endpoint').selectAll().orderBy('id').execute();
    return rows.map((r) => ({ ...endpoint(r), secret: r.secret }));
  }

  journalPage(tenant: string, after: number, limit: number): Promise<StoredEntry[]> {
    return new KyselyJournalStore(this.db).page(tenant, after, limit);
  }

  /** Whom the tenant's consents `ids` concern (consent events name them); a consent that is gone is left out. */
  async consentSubjects(tenant: string, ids: string[]): Promise<Map<string, ConsentSubject>> {
    const out = new Map<string, ConsentSubject>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('consent')
        .select(['id', 'user_id', 'data_point_id', 'granted'])
        .where('tenant_id', '=', tenant)
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows)
        out.set(r.id, { user_id: r.user_id, data_point_id: r.data_point_id, granted: r.granted === 1 });
    }
    return out;
  }

  /**
   * The deliveries of the entries up to `toSeq`, and the endpoint's cursor moved there, in one transaction: a crash
   * before the commit leaves the cursor where it was (the entries are read again), after it every delivery is stored.
   * A replica that got there first leaves nothing to insert (the key is unique) and the cursor never moves back.
   */
  async enqueue(endpointId: string, toSeq: number, rows: NewDelivery[], dueAt: string): Promise<void> {
    await writeTransaction(this.db, async (trx) => {
      for (let i = 0; i < rows.length; i += 200)
        await trx
          .insertInto('webhook_delivery')
          .values(rows.slice(i, i + 200).map((d) => pendingRow(d, dueAt)))
          .onConflict((oc) => oc.doNothing())
          .execute();
      await trx
        .updateTable('webhook_endpoint')
        .set({ cursor_seq: toSeq })
        .where('id', '=', endpointId)
        .where('cursor_seq', '<', toSeq)
        .execute();
    });
  }

  /**
   * Endpoints with a delivery due and unclaimed at `now`, the longest due first: those a deliverer has work for. Each
   * endpoint is one probe of the (endpoint_id, status, next_attempt_at) index, so a long backlog of one is not read
   * through to find another's.
   */
  async dueEndpoints(now: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoint as e')
      .select((eb) => [
        'e.id',
        eb
          .selectFrom('webhook_delivery as d')
          .select('d.next_attempt_at')
          .whereRef('d.endpoint_id', '=', 'e.id')
          .where('d.status', '=', 'pending')
          .where('d.next_attempt_at', '<=', now)
          .where((w) => w.or([w('d.claimed_until', 'is', null), w('d.claimed_until', '<', now)]))
          .orderBy('d.next_attempt_at')
          .limit(1)
          .as('due_at'),
      ])
      .execute();
    return rows
      .filter((r): r is { id: string; due_at: string } => r.due_at !== null)
      .sort((a, b) => (a.due_at < b.due_at ? -1 : a.due_at > b.due_at ? 1 : a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((r) => r.id);
  }

  /**
   * Claims up to `limit` due deliveries (of one endpoint, or the one with `id`) for `worker` until `until`: each with
   * a conditional UPDATE that succeeds for one replica only (the row must still be pending, due, and unclaimed or its
   * claim expired).
   */
  async claimDue(
    worker: string,
    now: string,
    until: string,
    which: { limit: number; endpoint?: string; id?: string },
  ): Promise<ClaimedDelivery[]> {
    let candidates = this.db.selectFrom('webhook_delivery').select('id');
    if (which.id !== undefined) candidates = candidates.where('id', '=', which.id);
    if (which.endpoint !== undefined) candidates = candidates.where('endpoint_id', '=', which.endpoint);
    const due = await candidates
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(which.limit)
      .execute();
    if (!due.length) return [];
    // one conditional UPDATE for the batch: a row another replica claimed meanwhile fails the condition (PostgreSQL
    // re-reads a row updated concurrently before it updates it), so it is not among those returned
    const won = await this.db
      .updateTable('webhook_delivery')
      .set({ claimed_by: worker, claimed_until: until })
      .where(
        'id',
        'in',
        due.map((d) => d.id),
      )
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .returning('id')
      .execute();
    if (!won.length) return [];
    const rows = await this.db
      .selectFrom('webhook_delivery as d')
      .innerJoin('webhook_endpoint as e', 'e.id', 'd.endpoint_id')
      .selectAll('d')
      .select(['e.url', 'e.secret', 'e.allow_private'])
      .where(
        'd.id',
        'in',
        won.map((w) => w.id),
      )
      .where('d.claimed_by', '=', worker)
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .execute();
    return rows.map((row) => ({
      ...delivery(row),
      tenant_id: row.tenant_id,
      payload: row.payload,
      url: row.url,
      secret: row.secret,
      allow_private: Boolean(row.allow_private),
    }));
  }

  /**
   * Records an attempt on a delivery this worker still holds; a success marks the endpoint active again, a delivery
   * that gives up marks it failing. False when the claim was lost (another replica holds it now).
   */
  async finish(worker: string, d: ClaimedDelivery, o: AttemptOutcome): Promise<boolean> {
    return (await this.finishAll(worker, [{ d, o }]))[0]!;
  }

  /**
   * `finish` for a batch of attempts, in one transaction (one commit for many deliveries); claims in `unsent` (not
   * attempted) are given up in the same transaction, as they were: due, for whoever claims them next.
   */
  async finishAll(
    worker: string,
    done: Array<{ d: ClaimedDelivery; o: AttemptOutcome }>,
    unsent: ClaimedDelivery[] = [],
  ): Promise<boolean[]> {
    if (!done.length && !unsent.length) return [];
    return writeTransaction(this.db, async (trx) => {
      const kept: boolean[] = [];
      for (const { d, o } of done) kept.push(await this.finishIn(trx, worker, d, o));
      if (unsent.length)
        await trx
          .updateTable('webhook_delivery')
          .set({ claimed_by: null, claimed_until: null })
          .where(
            'id',
            'in',
            unsent.map((d) => d.id),
          )
          .where('claimed_by', '=', worker)
          .execute();
      return kept;
    });
  }

  private async finishIn(trx: Kysely<DB>, worker: string, d: ClaimedDelivery, o: AttemptOutcome): Promise<boolean> {
    const status = o.ok ? 'delivered' : o.next_attempt_at ? 'pending' : 'failed';
    const r = await trx
      .updateTable('webhook_delivery')
      .set((eb) => ({
        status,
        attempts: eb('attempts', '+', 1),
        last_attempt_at: o.at,
        last_status: o.status,
        last_error: o.error,
        response_excerpt: o.excerpt,
        delivered_at: o.ok ? o.at : null,
        next_attempt_at: o.next_attempt_at ?? o.at,
        claimed_by: null,
        claimed_until: null,
      }))
      .where('id', '=', d.id)
      .where('claimed_by', '=', worker)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    if (o.ok)
      await trx
        .updateTable('webhook_endpoint')
        .set({ status: 'active', failing_since: null, updated_at: o.at })
        .where('id', '=', d.endpoint_id)
        .where('status', '!=', 'active')
        .execute();
    else if (status === 'failed')
      await trx
        .updateTable('webhook_endpoint')
        .set({ status: 'failing', failing_since: o.at, updated_at: o.at })
        .where('id', '=', d.endpoint_id)
        .where('status', '=', 'active')
        .execute();
    return true;
  }
}
