import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printRecord } from '../../output.js';
import { writes } from '../../store-access.js';
import { keyApi } from './shared.js';

/** `keys revoke <prefix-or-id>`: the key stops working at once. */
export interface RevokeOptions {
  id: string;
}

export function register(keys: Command, ctx: CliContext): Command {
  return writes(keys.command('revoke'))
    .description('revoke a key by its prefix or id')
    .argument('<prefix-or-id>')
    .action((id: string) => run(ctx, { id }));
}

export async function run(ctx: CliContext, o: RevokeOptions): Promise<void> {
  const k = await keyApi(ctx).revoke(o.id);
  await printRecord(ctx, k, [
    ['prefix', k.prefix],
    ['name', k.name],
    ['scope', k.scope],
    ['revoked_at', k.revoked_at],
  ]);
}
