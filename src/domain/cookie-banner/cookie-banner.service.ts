import { isoZ, type Clock } from '../clock.js';
import { defaultCookieBanner, type CookieBanner, type CookieBannerInput } from './cookie-banner.schema.js';
import type { UnitOfWork } from '../unit-of-work.js';

/** One cookie banner per tenant: the default until one is saved; PUT replaces it whole. */
export class CookieBannerService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async get(tenant: string): Promise<CookieBanner> {
    return (await this.uow.read.cookieBanner.get(tenant)) ?? defaultCookieBanner(tenant);
  }

  async put(tenant: string, input: CookieBannerInput): Promise<CookieBanner> {
    const banner = {
      tenant_id: tenant,
      categories: input.categories,
      config: input.config,
      updated_at: isoZ(this.clock.now()),
    };
    await this.uow.write(tenant, (tx) => tx.cookieBanner.put(banner));
    return this.get(tenant);
  }
}
