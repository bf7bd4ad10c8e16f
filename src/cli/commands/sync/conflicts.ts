import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { note, printJson } from '../../output.js';
import { printConflicts, target } from './shared.js';

/** `sync conflicts`: it takes no options of its own (--remote narrows it to one server). */
export type ConflictsOptions = Record<string, never>;

/** The `conflicts` group, which lists them itself; `conflicts show` is added by `index.ts`. */
export function register(sync: Command, ctx: CliContext): Command {
  return sync
    .command('conflicts')
    .description('the conflicts still to settle with each server (--remote narrows), as sync status lists them')
    .action(() => run(ctx, {}));
}

export async function run(ctx: CliContext, _o: ConflictsOptions): Promise<void> {
  const c = ctx.config();
  const { syncStatus } = await import('../../../backend/sync/sync-session.js');
  const status = await syncStatus(target(ctx), c.remote);
  const all = status.remotes.flatMap((r) => r.conflicts);
  if (c.json) return printJson(ctx, all);
  if (!all.length) return note(ctx, `no conflicts for tenant ${status.tenant}`);
  await printConflicts(ctx, all);
}
