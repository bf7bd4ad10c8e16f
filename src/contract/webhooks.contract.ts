import * as z from 'zod';
import {
  DeliveryQuery,
  WebhookCreate,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreated,
} from '../domain/events/event.schema.js';
import { NoBody, op } from './operation.js';

const Id = z.object({ id: z.string().min(1) });

/** Webhook endpoints and their deliveries (issue 26; our addition): admin keys only. */
export const webhooksContract = {
  list: op({
    method: 'GET',
    path: '/webhooks',
    summary: 'The tenant’s webhook endpoints (without their secrets)',
    tenant: 'header',
    output: z.array(WebhookEndpoint),
    status: 200,
    scope: 'admin',
  }),
  add: op({
    method: 'POST',
    path: '/webhooks',
    summary: 'Add an endpoint; the answer holds its signing secret, shown this once',
    tenant: 'header',
    body: WebhookCreate,
    // a tenant's admin could otherwise point the server at the network it runs in (SSRF)
    operatorFields: { allow_private: '--allow-private-webhooks' },
    output: WebhookEndpointCreated,
    status: 201,
    scope: 'admin',
  }),
  remove: op({
    method: 'DELETE',
    path: '/webhooks/{id}',
    ids: { params: { id: 'webhook_endpoint' } },
    summary: 'Remove an endpoint and its deliveries',
    tenant: 'header',
    params: Id,
    output: z.object({ id: z.string(), removed: z.literal(true) }),
    status: 200,
    scope: 'admin',
  }),
  test: op({
    method: 'POST',
    path: '/webhooks/{id}/test',
    ids: { params: { id: 'webhook_endpoint' } },
    summary: 'Send a webhook.test event to the endpoint now; answers its delivery',
    tenant: 'header',
    params: Id,
    body: NoBody,
    output: WebhookDelivery,
    status: 200,
    scope: 'admin',
  }),
  deliveries: op({
    method: 'GET',
    path: '/webhook-deliveries',
    ids: { query: { endpoint_id: 'webhook_endpoint' } },
    summary: 'Deliveries, newest first (failed=true: given up or being retried)',
    tenant: 'header',
    query: DeliveryQuery,
    // endpoint_id names an endpoint: unknown or another tenant's is not found
    raises: ['not_found'],
    output: z.array(WebhookDelivery),
    status: 200,
    scope: 'admin',
  }),
  redeliver: op({
    method: 'POST',
    path: '/webhook-deliveries/{id}/redeliver',
    ids: { params: { id: 'webhook_delivery' } },
    summary: 'Send a delivery again (same webhook-id), due now',
    tenant: 'header',
    params: Id,
    body: NoBody,
    output: WebhookDelivery,
    status: 200,
    scope: 'admin',
  }),
};
