import type { Kysely } from 'kysely';
import { bindHandlers } from '../../contract/bind.js';
import { cookieBannerContract } from '../../contract/cookie-banner.contract.js';
import type { Clock } from '../../domain/clock.js';
import { CookieBannerService } from '../../domain/cookie-banner/cookie-banner.service.js';
import { KyselyCookieBannerStore } from '../../store/kysely/cookie-banner.store.js';
import type { DB } from '../../store/db-types.js';

/** The cookie-banner routes bound to a store. */
export function createCookieBannerArea(db: Kysely<DB>, clock: Clock) {
  const svc = new CookieBannerService(new KyselyCookieBannerStore(db), clock);
  return bindHandlers(cookieBannerContract, {
    get: (r) => svc.get(r.tenant),
    put: (r) => svc.put(r.tenant, r.body),
  });
}
