import type { TenantArea } from './tenant.values.js';

/** A tenant's row: the tenant and the time of its first record. */
export interface TenantRow {
  tenant_id: string;
  created_at: string;
}

/** The tenants of a store, read across every tenant (the store's own view, outside any one tenant's scope). */
export interface TenantStore {
  /** Every tenant the store knows, by id; `only` narrows to those (an API key's tenants). */
  list(only?: readonly string[] | null): Promise<TenantRow[]>;
  get(tenant: string): Promise<TenantRow | undefined>;
  /** Records of each area per tenant, for the tenants given. */
  records(tenants: readonly string[]): Promise<Map<string, Record<TenantArea, number>>>;
  /** Whether a tenant other than `tenant` holds a record of `table` with one of `keys` (keys every tenant shares). */
  heldByOthers(table: string, tenant: string, keys: readonly string[]): Promise<boolean>;
}
