import { randomBytes } from 'node:crypto';
import { webhooksContract } from '../../contract/webhooks.contract.js';
import type { Clock, IdSource } from '../../domain/clock.js';
import { WebhookService } from '../../domain/events/webhook.service.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';
import type { Store } from '../../store/store.js';
import { resolveWebhookHost } from '../../services/webhooks/ssrf.js';
import { WebhookDeliverer } from './events/webhook-deliverer.js';
import { bindWith, storeIdResolver } from './short-ids.js';

/** A signing secret in the Standard Webhooks form: whsec_ and 32 random bytes in base64. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The webhook routes of one store: endpoints (checked against the SSRF rule when added) and their deliveries. */
export function createWebhooksArea(store: Store, uow: UnitOfWork, clock: Clock, ids: IdSource) {
  const svc = new WebhookService(
    uow,
    clock,
    ids,
    async (url, allowPrivate) => void (await resolveWebhookHost(url, allowPrivate)),
    newWebhookSecret,
  );
  let deliverer: WebhookDeliverer | undefined;
  return bindWith(storeIdResolver(store.admin))(webhooksContract, {
    list: (r) => svc.list(r.tenant),
    add: (r) => svc.add(r.tenant, r.body),
    remove: (r) => svc.remove(r.tenant, r.params.id),
    deliveries: (r) => svc.deliveries(r.tenant, r.query),
    redeliver: (r) => svc.redeliver(r.tenant, r.params.id),
    test: async (r) => {
      const id = await svc.test(r.tenant, r.params.id);
      deliverer ??= new WebhookDeliverer(store, { clock, ids });
      await deliverer.deliverOne(id);
      return svc.delivery(r.tenant, id);
    },
  });
}
