import type { Backend } from '../backend/backend.js';
import type { Config } from '../config.js';
import { DomainError } from '../domain/errors.js';
import type { TenantUse } from './store-access.js';

/** The tenant every command uses when none is named: where a first run writes, never refused. */
export const DEFAULT_TENANT = 'default';

/** Whether a command must find its tenant known before it runs (see TenantUse). */
export const mustBeKnown = (c: Config, use: TenantUse): boolean =>
  c.tenant !== DEFAULT_TENANT && (use === 'known' || (use === 'narrows' && c.tenantGiven));

/**
 * Refuses a tenant the store (or the server) has never seen, naming the known tenants nearest it: exit 3, `unknown
 * tenant acmee; did you mean --tenant acme?`.
 */
export async function requireKnownTenant(backend: Backend, c: Config): Promise<void> {
  const check = await backend.tenants.check({ tenant: c.tenant, actor: c.user });
  if (check.known) return;
  const where = c.remote ? `the server ${backend.location}` : 'this store';
  const message = check.nearest.length
    ? `unknown tenant ${c.tenant}; did you mean ${check.nearest.map((t) => `--tenant ${t}`).join(' or ')}?`
    : `unknown tenant ${c.tenant}: ${where} has no record of it (a tenant starts with its first record; \`compliance tenants list\` shows the known ones)`;
  throw new DomainError('not_found', message, [
    { path: '--tenant', message: `${where} has no record of tenant ${c.tenant}` },
  ]);
}
