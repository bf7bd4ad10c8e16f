import { strFromU8 } from 'fflate';
import { DomainError } from '../../domain/errors.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';
import { SHARED_KEYS } from '../../store/kysely/tenant.store.js';

/**
 * Whether a bundle may go into `t.tenant`, checked before anything is written: into its own tenant, or into another
 * when asked to rename it (exit 2 / 422 otherwise, naming both); and never where another tenant of the store holds
 * its records, whose keys would collide (a renamed copy beside its original, or the original beside a copy): exit
 * 5 / 409, without naming that tenant.
 */
export async function checkBundleTarget(
  t: { uow: UnitOfWork; tenant: string; rename?: boolean },
  manifest: { tenant: string },
  files: Record<string, Uint8Array>,
  label: string,
): Promise<void> {
  if (manifest.tenant !== t.tenant && !t.rename)
    throw new DomainError(
      'validation',
      `${label} holds tenant ${manifest.tenant}, not ${t.tenant}: import it into tenant ${manifest.tenant}, or ask to rename its records to ${t.tenant}`,
      [{ path: 'rename_tenant', message: `the bundle holds tenant ${manifest.tenant}, the request names ${t.tenant}` }],
    );
  const tenants = t.uow.read.tenants;
  for (const [table, column] of Object.entries(SHARED_KEYS)) {
    const part = files[`records/${table}.ndjson`];
    if (!part?.length) continue;
    // rows are flat JSON objects (lists and objects are text in them), so a key appears only as a key
    const keys = [...strFromU8(part).matchAll(new RegExp(`"${column}":"([^"]*)"`, 'g'))].map((m) => m[1]!);
    if (await tenants.heldByOthers(table, t.tenant, keys))
      throw new DomainError(
        'conflict',
        `${label}: records of it (${table}) are held in this store by another tenant; a tenant's records go into a store where no other tenant holds them (a renamed copy goes into another store than its original)`,
      );
  }
}
