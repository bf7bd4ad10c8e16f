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
import type { WebhookStore } from './webhook-store.port.js';

/** Checks a webhook URL before it is stored: scheme, and where its host resolves (the SSRF rule). */
export type UrlCheck = (url: string, allowPrivate: boolean) => Promise<void>;

/** Managing a tenant's webhook endpoints: adding (with its secret), listing, removing, redelivering, testing. */
export class WebhookService {
  constructor(
    private readonly store: WebhookStore,
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
    const record = {
      id: this.ids.next(),
      tenant_id: tenant,
      url: body.url,
      secret: this.newSecret(),
      events,
      allow_private: body.allow_private,
      status: 'active' as const,
      cursor_seq: await this.store.journalHead(tenant),
      failing_since: null,
      created_at: now,
      updated_at: now,
    };
    await this.store.insertEndpoint(record);
    return record;
  }

  list(tenant: string): Promise<WebhookEndpoint[]> {
    return this.store.listEndpoints(tenant);
  }

  async remove(tenant: string, id: string): Promise<{ id: string; removed: true }> {
    if (!(await this.store.deleteEndpoint(tenant, id))) throw notFound('webhook endpoint', id);
    return { id, removed: true };
  }

  async deliveries(tenant: string, q: DeliveryQuery): Promise<WebhookDelivery[]> {
    if (q.endpoint_id && !(await this.store.getEndpoint(tenant, q.endpoint_id)))
      throw notFound('webhook endpoint', q.endpoint_id);
    return this.store.listDeliveries(tenant, q);
  }

  /** The delivery pending again, due now, with the same webhook-id, whatever became of it. */
  async redeliver(tenant: string, id: string): Promise<WebhookDelivery> {
    if (!(await this.store.getDelivery(tenant, id))) throw notFound('webhook delivery', id);
    await this.store.resetDelivery(tenant, id, isoZ(this.clock.now()));
    return (await this.store.getDelivery(tenant, id))!;
  }

  /** Queues a `webhook.test` event for the endpoint, due now; answers its delivery id. */
  async test(tenant: string, endpointId: string): Promise<string> {
    const endpoint = await this.store.getEndpoint(tenant, endpointId);
    if (!endpoint) throw notFound('webhook endpoint', endpointId);
    const now = isoZ(this.clock.now());
    const payload: EventPayload = { type: TEST_EVENT, timestamp: now, data: { endpoint_id: endpoint.id } };
    const id = `msg_${this.ids.next().replace(/-/g, '')}`;
    await this.store.insertDelivery(
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
  }

  async delivery(tenant: string, id: string): Promise<WebhookDelivery> {
    const d = await this.store.getDelivery(tenant, id);
    if (!d) throw new DomainError('not_found', `webhook delivery ${id} not found`);
    return d;
  }
}
