import { Command } from 'commander';
import type { SyncSummary } from '../../../backend/sync/sync-engine.js';
import { DomainError } from '../../../domain/errors.js';
import type { CliContext } from '../../context.js';
import { printJson, writeOut } from '../../output.js';
import { usesTenant, writes } from '../../store-access.js';
import { counts, printConflicts, target } from './shared.js';

/** `compliance sync`: pull the server's changes to the tenant, push ours. */
export interface SyncOptions {
  dryRun?: boolean;
  newTenant?: boolean;
}

/** The group, which runs the sync itself; its other verbs are added by `index.ts`. */
export function define(ctx: CliContext): Command {
  // the sync opens its store itself and asks the server about the tenant (--new-tenant)
  return usesTenant(
    writes(
      new Command('sync')
        .description(
          'sync the tenant between this store (--db) and a server (--remote): pull its changes, push ours; exit 6 on conflicts',
        )
        .option('--dry-run', 'show what would move, and change nothing on either side')
        .option('--new-tenant', 'push a tenant the server has no record of yet (refused without, as a likely typo)')
        .action((o: SyncOptions) => run(ctx, o)),
    ),
    'none',
  );
}

export async function run(ctx: CliContext, o: SyncOptions): Promise<void> {
  const c = ctx.config();
  if (!c.remote)
    throw new DomainError('bad_request', 'sync needs the server to sync with: --remote URL (or COMPLIANCE_REMOTE)', [
      { path: '--remote', message: 'required' },
    ]);
  const { runSync } = await import('../../../backend/sync/sync-session.js');
  const summary = await runSync(target(ctx), { url: c.remote, apiKey: c.apiKey }, o);
  await printSummary(ctx, summary);
  if (summary.conflicts.length) ctx.exitCode = 6;
}

async function printSummary(ctx: CliContext, s: SyncSummary): Promise<void> {
  if (ctx.config().json) return printJson(ctx, s);
  const verb = s.dry_run ? 'would ' : '';
  writeOut(
    ctx,
    `${s.dry_run ? 'dry run: ' : ''}${s.first ? 'first sync' : 'sync'} of tenant ${s.tenant} with ${s.remote}`,
  );
  writeOut(ctx, `${verb}pull\t${counts(s.pulled)}`);
  writeOut(ctx, `${verb}push\t${counts(s.pushed)}`);
  writeOut(ctx, `conflicts\t${s.conflicts.length}`);
  await printConflicts(ctx, s.conflicts);
}
