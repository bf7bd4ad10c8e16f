import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { usesTenant } from '../../store-access.js';
import * as create from './create.js';
import * as list from './list.js';
import * as revoke from './revoke.js';

/** `compliance keys`: its verbs in the order help lists them. */
export function createKeysCommand(ctx: CliContext): Command {
  // keys are the store's; --tenant here names the tenants a new key opens, which need no record yet
  const keys = usesTenant(new Command('keys'), 'none').description(
    'API keys of `compliance serve` (stored hashed; --remote: an admin key)',
  );
  create.register(keys, ctx);
  list.register(keys, ctx);
  revoke.register(keys, ctx);
  return keys;
}
