import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printList } from '../../output.js';
import { keyApi, tenantList } from './shared.js';

/** `keys list`: every key, never the keys themselves. */
export type ListOptions = Record<string, never>;

export function register(keys: Command, ctx: CliContext): Command {
  return keys
    .command('list')
    .description('list keys with scope, tenants, origins, expiry and last use (never the keys themselves)')
    .action(() => run(ctx, {}));
}

export async function run(ctx: CliContext, _o: ListOptions): Promise<void> {
  const rows = await keyApi(ctx).list();
  await printList(
    ctx,
    rows,
    [
      { header: 'PREFIX', value: (k) => k.prefix },
      { header: 'NAME', value: (k) => k.name },
      { header: 'SCOPE', value: (k) => k.scope },
      { header: 'TENANTS', value: (k) => tenantList(k.tenants) },
      { header: 'ORIGINS', value: (k) => k.origins.join(',') },
      { header: 'CREATED', value: (k) => k.created_at },
      { header: 'EXPIRES', value: (k) => k.expires_at },
      { header: 'LAST USED', value: (k) => k.last_used_at },
      { header: 'REVOKED', value: (k) => k.revoked_at },
    ],
    { empty: 'no API keys: `compliance serve` accepts every request and listens on 127.0.0.1 only' },
  );
}
