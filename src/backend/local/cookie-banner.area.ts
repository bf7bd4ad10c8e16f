import { bindHandlers } from '../../contract/bind.js';
import { cookieBannerContract } from '../../contract/cookie-banner.contract.js';
import type { Clock } from '../../domain/clock.js';
import { CookieBannerService } from '../../domain/cookie-banner/cookie-banner.service.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';

/** The cookie-banner routes bound to a store. */
export function createCookieBannerArea(uow: UnitOfWork, clock: Clock) {
  const svc = new CookieBannerService(uow, clock);
  return bindHandlers(cookieBannerContract, {
    get: (r) => svc.get(r.tenant),
    put: (r) => svc.put(r.tenant, r.body),
  });
}
