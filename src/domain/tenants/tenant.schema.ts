import * as z from 'zod';
import { TENANT_AREAS, type TenantArea } from './tenant.values.js';

const count = z.number().int().min(0);

/** A tenant the store knows: since when (its first record) and how many records of each area it holds now. */
export const Tenant = z.object({
  tenant_id: z.string(),
  created_at: z.string(),
  records: z.object(Object.fromEntries(TENANT_AREAS.map((a) => [a, count])) as Record<TenantArea, typeof count>),
});
export type Tenant = z.infer<typeof Tenant>;

export const TenantList = z.array(Tenant);

/**
 * Whether the store knows the tenant of a request; when it does not, the known tenants nearest its name (at most
 * three, of those the caller may see), so a typo can be told from a tenant that does not exist.
 */
export const TenantCheck = z.object({
  tenant_id: z.string(),
  known: z.boolean(),
  created_at: z.string().nullable(),
  nearest: z.array(z.string()),
});
export type TenantCheck = z.infer<typeof TenantCheck>;
