import type { WebhookDelivery, WebhookEndpoint } from './event.schema.js';

/** An endpoint as the deliverer needs it: with its secret. */
export interface EndpointRecord extends WebhookEndpoint {
  secret: string;
}

/** A delivery as the deliverer sends it: with its payload. */
export interface DeliveryRecord extends WebhookDelivery {
  tenant_id: string;
  payload: string;
}

/** A new delivery row, made from a journal entry's event (or a test). */
export interface NewDelivery {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  seq: number;
  event_type: string;
  payload: string;
  created_at: string;
}

/** The outcome of one attempt, written back on the delivery that was claimed for it. */
export interface AttemptOutcome {
  at: string;
  ok: boolean;
  status: number | null;
  error: string | null;
  excerpt: string | null;
  /** When to try again; null: gave up (or delivered). */
  next_attempt_at: string | null;
}

/** A tenant's webhook endpoints and their deliveries, as the API manages them (one tenant's scope). */
export interface WebhookStore {
  insertEndpoint(e: EndpointRecord): Promise<void>;
  listEndpoints(tenant: string): Promise<WebhookEndpoint[]>;
  getEndpoint(tenant: string, id: string): Promise<WebhookEndpoint | undefined>;
  deleteEndpoint(tenant: string, id: string): Promise<boolean>;
  listDeliveries(
    tenant: string,
    q: { endpoint_id?: string; failed: boolean; limit: number },
  ): Promise<WebhookDelivery[]>;
  getDelivery(tenant: string, id: string): Promise<WebhookDelivery | undefined>;
  /** Sets a delivery pending again, due at `at`, with its attempts counted from zero (same id: receivers dedupe). */
  resetDelivery(tenant: string, id: string, at: string): Promise<void>;
  insertDelivery(d: NewDelivery, dueAt: string): Promise<void>;
}
