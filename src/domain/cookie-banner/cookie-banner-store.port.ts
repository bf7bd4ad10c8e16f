import type { CookieBanner } from './cookie-banner.schema.js';

/** Persistence of the one cookie-banner configuration per tenant. */
export interface CookieBannerStore {
  /** The stored configuration, or undefined when the tenant has never saved one. */
  get(tenant: string): Promise<CookieBanner | undefined>;
  /** Replaces the tenant's configuration whole (inserted the first time). */
  put(banner: CookieBanner & { updated_at: string }): Promise<void>;
}
