import { isoZ, type Clock } from '../clock.js';
import { defaultCookieBanner, type CookieBanner, type CookieBannerInput } from './cookie-banner.schema.js';
import type { CookieBannerStore } from './cookie-banner.store.js';

/** One cookie banner per tenant: the default until one is saved; PUT replaces it whole. */
export class CookieBannerService {
  constructor(
    private readonly store: CookieBannerStore,
    private readonly clock: Clock,
  ) {}

  async get(tenant: string): Promise<CookieBanner> {
    return (await this.store.get(tenant)) ?? defaultCookieBanner(tenant);
  }

  async put(tenant: string, input: CookieBannerInput): Promise<CookieBanner> {
    await this.store.put({
      tenant_id: tenant,
      categories: input.categories,
      config: input.config,
      updated_at: isoZ(this.clock.now()),
    });
    return this.get(tenant);
  }
}
