import { TenantCheck, TenantList } from '../domain/tenants/tenant.schema.js';
import { op } from './operation.js';

/**
 * The tenants of the server's store (our addition): a tenant exists from its first record. The list is for admin
 * keys and names only the tenants the key opens; the check answers for the request's tenant, which the key must
 * open, and names known tenants near its name only among those. API routes of an unknown tenant still answer as
 * for an empty one (the specification's lists are `[]`); a client that wants a typo told asks here first.
 */
export const tenantsContract = {
  list: op({
    method: 'GET',
    path: '/tenants',
    summary: 'The tenants the key opens, with their first record and their records per area (admin; our addition)',
    tenant: 'none',
    scope: 'admin',
    output: TenantList,
    status: 200,
  }),
  check: op({
    method: 'GET',
    path: '/tenant',
    summary:
      "Whether the store knows the request's tenant; if not, the known tenants nearest its name that the key opens (our addition)",
    tenant: 'header',
    output: TenantCheck,
    status: 200,
  }),
};
