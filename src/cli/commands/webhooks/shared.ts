import type { WebhookDelivery } from '../../../domain/events/event.schema.js';

export const DELIVERY_COLUMNS = [
  { header: 'ID', value: (d: WebhookDelivery) => d.id, id: true },
  { header: 'EVENT', value: (d: WebhookDelivery) => d.event_type },
  { header: 'SEQ', value: (d: WebhookDelivery) => d.seq },
  { header: 'STATUS', value: (d: WebhookDelivery) => d.status },
  { header: 'ATTEMPTS', value: (d: WebhookDelivery) => d.attempts },
  { header: 'LAST', value: (d: WebhookDelivery) => d.last_status ?? d.last_error ?? '' },
  { header: 'NEXT', value: (d: WebhookDelivery) => (d.status === 'pending' ? d.next_attempt_at : '') },
];

export const deliveryPairs = (d: WebhookDelivery): Array<[string, unknown]> => [
  ['id', d.id],
  ['event_type', d.event_type],
  ['status', d.status],
  ['attempts', d.attempts],
  ['last_status', d.last_status],
  ['last_error', d.last_error],
  ['response_excerpt', d.response_excerpt],
  ['next_attempt_at', d.next_attempt_at],
];
