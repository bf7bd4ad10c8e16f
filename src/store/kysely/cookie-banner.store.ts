import type { Kysely } from 'kysely';
import type { CookieBanner } from '../../domain/cookie-banner/cookie-banner.schema.js';
import type { CookieBannerStore } from '../../domain/cookie-banner/cookie-banner-store.port.js';
import type { DB } from '../db-types.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';

/** CookieBannerStore on either engine: one row per tenant, categories and config as JSON text. */
export class KyselyCookieBannerStore implements CookieBannerStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly journal: Recorder = readOnly,
  ) {}

  async get(tenant: string): Promise<CookieBanner | undefined> {
    const r = await this.db.selectFrom('cookie_banner').selectAll().where('tenant_id', '=', tenant).executeTakeFirst();
    if (!r) return undefined;
    return {
      tenant_id: r.tenant_id,
      categories: JSON.parse(r.categories),
      config: JSON.parse(r.config),
      updated_at: r.updated_at,
    };
  }

  async put(banner: CookieBanner & { updated_at: string }): Promise<void> {
    const row = {
      tenant_id: banner.tenant_id,
      categories: JSON.stringify(banner.categories),
      config: JSON.stringify(banner.config),
      updated_at: banner.updated_at,
    };
    await this.db
      .insertInto('cookie_banner')
      .values(row)
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet(row))
      .execute();
    this.journal.put('cookie_banner', banner.tenant_id, row);
  }
}
