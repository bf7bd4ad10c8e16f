import type { Kysely } from 'kysely';
import { TENANT_AREAS, type TenantArea } from '../../domain/tenants/tenant.values.js';
import type { TenantRow, TenantStore } from '../../domain/tenants/tenant-store.port.js';
import type { DB } from '../db-types.js';

/** The table of each area's main record, which `tenants list` counts. */
const AREA_TABLES: Record<TenantArea, string> = {
  dsfa: 'dsfa',
  consents: 'consent',
  legal_documents: 'legal_document',
  cookie_banner: 'cookie_banner',
  training_modules: 'training_module',
  training_assignments: 'training_assignment',
};

/**
 * Tables whose unique key leaves the tenant out, by the leading column of that key: a record one tenant holds there
 * keeps every other tenant from holding one with the same key (a copy of a tenant's records under another name).
 */
export const SHARED_KEYS: Readonly<Record<string, string>> = {
  dsfa: 'id',
  dsfa_audit: 'id',
  consent_history: 'consent_id',
  legal_document: 'id',
  legal_document_version: 'id',
  training_module: 'id',
  training_question: 'id',
  training_content: 'id',
  training_assignment: 'id',
  training_quiz_attempt: 'id',
  training_certificate: 'id',
  training_audit: 'id',
  training_media: 'id',
  training_block: 'id',
};

/** Tables by name, for queries across tables (their names come from the lists above only). */
type Counted = Record<string, { tenant_id: string } & Record<string, string>>;

const CHUNK = 500;

/**
 * Registers a tenant in the transaction of its first journal entry (JournalWriter; the bulk writers run the same
 * statement, REGISTER_TENANT). Registering one already known changes nothing.
 */
export async function registerTenant(db: Kysely<DB>, tenant: string, time: string): Promise<void> {
  await db
    .insertInto('tenant')
    .values({ tenant_id: tenant, created_at: time })
    .onConflict((oc) => oc.column('tenant_id').doNothing())
    .execute();
}

/**
 * The tenants of a store, read with the store's own connection (outside row-level security: every tenant), for the
 * local commands and for the routes that answer only what the caller's key opens.
 */
export class KyselyTenantStore implements TenantStore {
  constructor(private readonly admin: Kysely<DB>) {}

  async list(only?: readonly string[] | null): Promise<TenantRow[]> {
    if (only && only.length === 0) return [];
    let q = this.admin.selectFrom('tenant').select(['tenant_id', 'created_at']).orderBy('tenant_id');
    if (only) q = q.where('tenant_id', 'in', [...only]);
    return q.execute();
  }

  get(tenant: string): Promise<TenantRow | undefined> {
    return this.admin
      .selectFrom('tenant')
      .select(['tenant_id', 'created_at'])
      .where('tenant_id', '=', tenant)
      .executeTakeFirst();
  }

  /** Whether a tenant other than `tenant` holds a record of `table` (one of SHARED_KEYS) with one of `keys`. */
  async heldByOthers(table: string, tenant: string, keys: readonly string[]): Promise<boolean> {
    const column = SHARED_KEYS[table];
    if (!column) return false;
    const db = this.admin as unknown as Kysely<Counted>;
    for (let i = 0; i < keys.length; i += CHUNK) {
      const found = await db
        .selectFrom(table)
        .select('tenant_id')
        .where(column, 'in', keys.slice(i, i + CHUNK))
        .where('tenant_id', '<>', tenant)
        .limit(1)
        .executeTakeFirst();
      if (found) return true;
    }
    return false;
  }

  async records(tenants: readonly string[]): Promise<Map<string, Record<TenantArea, number>>> {
    const zero = () => Object.fromEntries(TENANT_AREAS.map((a) => [a, 0])) as Record<TenantArea, number>;
    const out = new Map(tenants.map((t) => [t, zero()]));
    if (!tenants.length) return out;
    const db = this.admin as unknown as Kysely<Counted>;
    for (const area of TENANT_AREAS) {
      const rows = await db
        .selectFrom(AREA_TABLES[area])
        .select((eb) => ['tenant_id', eb.fn.countAll<number | string>().as('n')])
        .where('tenant_id', 'in', [...tenants])
        .groupBy('tenant_id')
        .execute();
      for (const r of rows) out.get(r.tenant_id)![area] = Number(r.n);
    }
    return out;
  }
}
