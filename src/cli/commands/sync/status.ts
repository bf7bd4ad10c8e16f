import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printJson, writeOut } from '../../output.js';
import { counts, printConflicts, target } from './shared.js';

/** `sync status`: it takes no options of its own (--remote narrows it to one server). */
export type StatusOptions = Record<string, never>;

export function register(sync: Command, ctx: CliContext): Command {
  return sync
    .command('status')
    .description('unsynced local changes, last sync time and open conflicts, per server (--remote narrows)')
    .action(() => run(ctx, {}));
}

export async function run(ctx: CliContext, _o: StatusOptions): Promise<void> {
  const c = ctx.config();
  const { syncStatus } = await import('../../../backend/sync/sync-session.js');
  const status = await syncStatus(target(ctx), c.remote);
  if (c.json) return printJson(ctx, status);
  if (!status.remotes.length) return writeOut(ctx, `tenant ${status.tenant} has never been synced`);
  for (const r of status.remotes) {
    writeOut(ctx, `${r.remote}\tlast sync ${r.last_sync ?? 'never'}\tunsynced ${counts(r.unsynced)}`);
    const decided = r.conflicts.length - r.open;
    writeOut(ctx, `conflicts\t${r.open} open${decided ? `, ${decided} decided here (pushed next sync)` : ''}`);
    await printConflicts(ctx, r.conflicts);
  }
}
