import { Command } from 'commander';
import type { Tenant } from '../../domain/tenants/tenant.schema.js';
import type { CliContext } from '../context.js';
import { printList } from '../output.js';
import { usesTenant } from '../store-access.js';

/** `compliance tenants list`: the tenants a store knows, each with its first record and its records per area. */
export function createTenantsCommand(ctx: CliContext): Command {
  const tenants = usesTenant(
    new Command('tenants').description('the tenants of the store: a tenant starts with its first record'),
    'none',
  );
  tenants
    .command('list')
    .description(
      'tenants with their first record and records per area (--remote: those the admin key opens); --json for the wire shape',
    )
    .action(() => run(ctx, {}));
  return tenants;
}

/** `tenants list` takes no options of its own. */
export type ListOptions = Record<string, never>;

export async function run(ctx: CliContext, _o: ListOptions): Promise<void> {
  const c = ctx.config();
  const rows = await (await ctx.backend()).tenants.list({ tenant: '', actor: c.user });
  const n = (area: keyof Tenant['records']) => (t: Tenant) => t.records[area];
  await printList(
    ctx,
    rows,
    [
      { header: 'TENANT', value: (t) => t.tenant_id },
      { header: 'SINCE', value: (t) => t.created_at },
      { header: 'DSFA', value: n('dsfa') },
      { header: 'CONSENTS', value: n('consents') },
      { header: 'LEGAL DOCS', value: n('legal_documents') },
      { header: 'BANNER', value: n('cookie_banner') },
      { header: 'MODULES', value: n('training_modules') },
      { header: 'ASSIGNMENTS', value: n('training_assignments') },
    ],
    { empty: 'no tenants yet: a tenant starts with its first record' },
  );
}
