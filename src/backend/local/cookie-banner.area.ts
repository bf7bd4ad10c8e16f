import type { Kysely } from 'kysely';
import { bindHandlers } from '../../contract/bind.js';
import { cookieBannerContract } from '../../contract/cookie-banner.contract.js';
import { isoZ, type Clock } from '../../domain/clock.js';
import { defaultCookieBanner, type CookieBanner } from '../../domain/cookie-banner/cookie-banner.schema.js';
import type { DB } from '../../store/db-types.js';

/** The cookie-banner routes on SQLite: one row per tenant, replaced whole by PUT. */
export function createCookieBannerArea(db: Kysely<DB>, clock: Clock) {
  const read = async (tenant: string): Promise<CookieBanner> => {
    const r = await db.selectFrom('cookie_banner').selectAll().where('tenant_id', '=', tenant).executeTakeFirst();
    if (!r) return defaultCookieBanner(tenant);
    return {
      tenant_id: tenant,
      categories: JSON.parse(r.categories),
      config: JSON.parse(r.config),
      updated_at: r.updated_at,
    };
  };
  return bindHandlers(cookieBannerContract, {
    get: (r) => read(r.tenant),
    put: async (r) => {
      const row = {
        tenant_id: r.tenant,
        categories: JSON.stringify(r.body.categories),
        config: JSON.stringify(r.body.config),
        updated_at: isoZ(clock.now()),
      };
      await db
        .insertInto('cookie_banner')
        .values(row)
        .onConflict((oc) => oc.column('tenant_id').doUpdateSet(row))
        .execute();
      return read(r.tenant);
    },
  });
}
