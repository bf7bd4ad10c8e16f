import { bindHandlers } from '../../contract/bind.js';
import { notificationsContract } from '../../contract/notifications.contract.js';
import type { Clock } from '../../domain/clock.js';
import { NotificationService } from '../../domain/notifications/notification.service.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';

/** The notification routes: settings, templates (journaled through the unit of work) and the outbox. */
export function createNotificationsArea(uow: UnitOfWork, clock: Clock) {
  const svc = new NotificationService(uow, clock);
  return bindHandlers(notificationsContract, {
    settings: (r) => svc.settings(r.tenant),
    updateSettings: (r) => svc.updateSettings(r.tenant, r.body),
    templates: (r) => svc.templates(r.tenant),
    template: (r) => svc.template(r.tenant, r.params.name, r.params.language),
    setTemplate: (r) => svc.setTemplate(r.tenant, r.params.name, r.params.language, r.body),
    resetTemplate: (r) => svc.resetTemplate(r.tenant, r.params.name, r.params.language),
    outbox: (r) => svc.outbox(r.tenant, r.query),
  });
}
