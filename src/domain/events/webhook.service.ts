import type { Clock, IdSource } from '../clock.js';
import { isoZ } from '../clock.js';
import { DomainError, notFound } from '../errors.js';
import { parseOrThrow } from '../validation.js';
import {
  TEST_EVENT,
  WebhookCreate,
  type DeliveryQuery,
  type EventPayload,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointCreated,
} from './event.schema.js';
import type { UnitOfWork } from '../unit-of-work.js';

/** Checks a webhook URL before it is stored: scheme, and where its host resolves (the SSRF rule). */
export type UrlCheck = (url: string, allowPrivate: boolean) => Promise<void>;

/**
 * Managing a tenant's webhook endpoints: adding (with its secret), listing, removing, redelivering, testing. Each
 * change is written through the unit of work, so inside another write it commits or rolls back with it.
 */
export class WebhookService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly ids: IdSource,
    private readonly checkUrl: UrlCheck,
    private readonly newSecret: () => string,
  ) {}

  async add(tenant: string, input: unknown): Promise<WebhookEndpointCreated> {
    const body = parseOrThrow(WebhookCreate, input);
    await this.checkUrl(body.url, body.allow_private);
    const now = isoZ(this.clock.now());
    const events = [...new Set(body.events)];
    const id = this.ids.next();
    const secret = this.newSecret();
    return this.uow.write(tenant, async (tx) => {
      const record = {
        id,
        tenant_id: tenant,
        url: body.url,
        secret,
        events,
        allow_private: body.allow_private,
        status: 'active' as const,
        // it receives what happens after it was added
        cursor_seq: (await tx.journal.head(tenant))?.seq ?? 0,
        failing_since: null,
        created_at: now,
        updated_at: now,
      };
      await tx.webhooks.insertEndpoint(record);
      return record;
    });
  }

  list(tenant: string): Promise<WebhookEndpoint[]> {
    return this.uow.read.webhooks.listEndpoints(tenant);
  }

  async remove(tenant: string, id: string): Promise<{ id: string; removed: true }> {
    if (!(await this.uow.write(tenant, (tx) => tx.webhooks.deleteEndpoint(tenant, id))))
      throw notFound('webhook endpoint', id);
    return { id, removed: true };
  }

  async deliveries(tenant: string, q: DeliveryQuery): Promise<WebhookDelivery[]> {
    const webhooks = this.uow.read.webhooks;
    if (q.endpoint_id && !(await webhooks.getEndpoint(tenant, q.endpoint_id)))
      throw notFound('webhook endpoint', q.endpoint_id);
    return webhooks.listDeliveries(tenant, q);
  }

  /** The delivery pending again, due now, with the same webhook-id, whatever became of it. */
  redeliver(tenant: string, id: string): Promise<WebhookDelivery> {
    return this.uow.write(tenant, async (tx) => {
      if (!(await tx.webhooks.getDelivery(tenant, id))) throw notFound('webhook delivery', id);
      await tx.webhooks.resetDelivery(tenant, id, isoZ(this.clock.now()));
      return (await tx.webhooks.getDelivery(tenant, id))!;
    });
  }

  /** Queues a `webhook.test` event for the endpoint, due now; answers its delivery id. */
  async test(tenant: string, endpointId: string): Promise<string> {
    const now = isoZ(this.clock.now());
    const id = `msg_${this.ids.next().replace(/-/g, '')}`;
    return this.uow.write(tenant, async (tx) => {
      const endpoint = await tx.webhooks.getEndpoint(tenant, endpointId);
      if (!endpoint) throw notFound('webhook endpoint', endpointId);
      const payload: EventPayload = { type: TEST_EVENT, timestamp: now, data: { endpoint_id: endpoint.id } };
      await tx.webhooks.insertDelivery(
        {
          id,
          tenant_id: tenant,
          endpoint_id: endpoint.id,
          seq: 0,
          event_type: TEST_EVENT,
          payload: JSON.stringify(payload),
          created_at: now,
        },
        now,
      );
      return id;
    });
  }

  async delivery(tenant: string, id: string): Promise<WebhookDelivery> {
    const d = await this.uow.read.webhooks.getDelivery(tenant, id);
    if (!d) throw new DomainError('not_found', `webhook delivery ${id} not found`);
    return d;
  }
}
