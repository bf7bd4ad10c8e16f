import * as z from 'zod';
import { looseBoolean, queryInt } from '../schema-helpers.js';

/**
 * The events a webhook endpoint can subscribe to, each read from journal entries (event.map.ts). `*` subscribes to
 * every one, including those added later.
 */
export const EVENT_TYPES = [
  'dsfa.created',
  'dsfa.status_changed',
  'dsfa.deleted',
  'consent.granted',
  'consent.refused',
  'consent.revoked',
  'consent.renewed',
  'consents.imported',
  'legal_document.published',
  'training.assigned',
  'training.completed',
  'training.escalated',
  'training.certificate_issued',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The event `webhooks test` sends; never produced by a change. */
export const TEST_EVENT = 'webhook.test';

/** A delivery's payload, as the Standard Webhooks specification shapes it. */
export interface EventPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

const EventName = z.enum([...EVENT_TYPES, '*'] as [string, ...string[]], {
  error: () => `expected one of ${EVENT_TYPES.join(', ')} or *`,
});

export const WebhookCreate = z.object({
  url: z.string().max(2000),
  events: z.array(EventName).min(1, 'name at least one event (or *)'),
  allow_private: z
    .boolean()
    .default(false)
    .describe('may reach private addresses; through the API a 403 unless serve --allow-private-webhooks'),
});
export type WebhookCreate = z.infer<typeof WebhookCreate>;

export const ENDPOINT_STATUSES = ['active', 'failing'] as const;

export const WebhookEndpoint = z.object({
  id: z.string(),
  tenant_id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  allow_private: z.boolean(),
  status: z.enum(ENDPOINT_STATUSES).describe('failing: a delivery gave up after 24 hours of retries'),
  cursor_seq: z.number().int().describe('the last journal entry of the tenant this endpoint has taken events from'),
  failing_since: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** An endpoint as created: the only time its signing secret is shown. */
export const WebhookEndpointCreated = WebhookEndpoint.extend({
  secret: z.string().describe('whsec_… : verify the webhook-signature header with it'),
});
export type WebhookEndpointCreated = z.infer<typeof WebhookEndpointCreated>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const WebhookDelivery = z.object({
  id: z.string().describe('the webhook-id header: the same on every attempt of this delivery'),
  endpoint_id: z.string(),
  seq: z.number().int().describe('the journal entry the event comes from (0 for a test)'),
  event_type: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  created_at: z.string(),
  next_attempt_at: z.string(),
  last_attempt_at: z.string().nullable(),
  last_status: z.number().int().nullable().describe('the receiver’s HTTP status of the last attempt'),
  last_error: z.string().nullable(),
  response_excerpt: z.string().nullable().describe('at most 256 bytes of the receiver’s last answer'),
  delivered_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const DeliveryQuery = z.object({
  endpoint_id: z.string().optional(),
  failed: looseBoolean().default(false),
  limit: queryInt({ min: 1, max: 1000, default: 100 }),
});
export type DeliveryQuery = z.infer<typeof DeliveryQuery>;
