import { bindHandlers } from '../../contract/bind.js';
import { tenantsContract } from '../../contract/tenants.contract.js';
import { nearestTenants } from '../../domain/tenants/tenant.rules.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';

/**
 * The tenants of the store. Read across tenants, so each answer is narrowed to the tenants the caller's key opens
 * (`keyTenants`; a local command and a key of every tenant see all): no key learns the name of a tenant it cannot
 * open.
 */
export function createTenantsArea(uow: UnitOfWork) {
  const tenants = uow.read.tenants;
  return bindHandlers(tenantsContract, {
    list: async (r) => {
      const rows = await tenants.list(r.keyTenants);
      const records = await tenants.records(rows.map((t) => t.tenant_id));
      return rows.map((t) => ({ ...t, records: records.get(t.tenant_id)! }));
    },
    check: async (r) => {
      const known = await tenants.get(r.tenant);
      if (known) return { tenant_id: r.tenant, known: true, created_at: known.created_at, nearest: [] };
      const names = (await tenants.list(r.keyTenants)).map((t) => t.tenant_id);
      return { tenant_id: r.tenant, known: false, created_at: null, nearest: nearestTenants(r.tenant, names) };
    },
  });
}
