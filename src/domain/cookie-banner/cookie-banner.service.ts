import { isoZ, type Clock } from '../clock.js';
import { canonicalJson, sha256Hex } from '../canonical-json.js';
import {
  defaultCookieBanner,
  type CookieBanner,
  type CookieBannerInput,
  type CookieBannerView,
} from './cookie-banner.schema.js';

/** The revision of a configuration: a hash of its content (cookie-banner.schema.ts, CookieBannerView). */
export const bannerRevision = (b: Pick<CookieBanner, 'categories' | 'config'>): string =>
  sha256Hex(canonicalJson({ categories: b.categories, config: b.config })).slice(0, 16);
import type { UnitOfWork } from '../unit-of-work.js';

/** One cookie banner per tenant: the default until one is saved; PUT replaces it whole. */
export class CookieBannerService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async get(tenant: string): Promise<CookieBannerView> {
    const banner = (await this.uow.read.cookieBanner.get(tenant)) ?? defaultCookieBanner(tenant);
    return { ...banner, revision: bannerRevision(banner) };
  }

  async put(tenant: string, input: CookieBannerInput): Promise<CookieBannerView> {
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
