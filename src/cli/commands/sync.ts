import { Command, Option } from 'commander';
import { DomainError } from '../../domain/errors.js';
import type { CliContext } from '../context.js';
import { printJson, writeOut } from '../output.js';
import { writes } from '../store-access.js';
import type { ConflictReport, SyncSummary } from '../../backend/sync/sync-engine.js';

/** What the sync commands reach: the embedded store of --db, for the tenant of --tenant. */
const target = (ctx: CliContext) => {
  const c = ctx.config();
  return { db: c.db, tenant: c.tenant, actor: c.user, clock: ctx.clock };
};

const counts = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([area, n]) => `${area} ${n}`)
    .join(', ') || 'nothing';

const conflictLine = (c: ConflictReport) =>
  [
    c.id,
    c.entity,
    c.entity_id,
    c.fields.join(',') || '-',
    `ours: ${c.ours.deleted ? 'deleted' : 'changed'} by ${c.ours.actor ?? '?'} at ${c.ours.time ?? '?'}`,
    `theirs: ${c.theirs.deleted ? 'deleted' : 'changed'} by ${c.theirs.actor ?? '?'} at ${c.theirs.time ?? '?'}`,
    c.status === 'ours' ? 'decided: ours (pushed next sync)' : c.reason,
  ].join('\t');

function printSummary(ctx: CliContext, s: SyncSummary) {
  if (ctx.config().json) return printJson(ctx, s);
  const verb = s.dry_run ? 'would ' : '';
  writeOut(
    ctx,
    `${s.dry_run ? 'dry run: ' : ''}${s.first ? 'first sync' : 'sync'} of tenant ${s.tenant} with ${s.remote}`,
  );
  writeOut(ctx, `${verb}pull\t${counts(s.pulled)}`);
  writeOut(ctx, `${verb}push\t${counts(s.pushed)}`);
  writeOut(ctx, `conflicts\t${s.conflicts.length}`);
  for (const c of s.conflicts) writeOut(ctx, conflictLine(c));
}

export function createSyncCommand(ctx: CliContext): Command {
  const sync = writes(
    new Command('sync')
      .description(
        'sync the tenant between this store (--db) and a server (--remote): pull its changes, push ours; exit 6 on conflicts',
      )
      .option('--dry-run', 'show what would move, and change nothing on either side')
      .option('--new-tenant', 'push a tenant the server has no record of yet (refused without, as a likely typo)')
      .action(async (o: { dryRun?: boolean; newTenant?: boolean }) => {
        const c = ctx.config();
        if (!c.remote)
          throw new DomainError(
            'bad_request',
            'sync needs the server to sync with: --remote URL (or COMPLIANCE_REMOTE)',
            [{ path: '--remote', message: 'required' }],
          );
        const { runSync } = await import('../../backend/sync/sync-session.js');
        const summary = await runSync(target(ctx), { url: c.remote, apiKey: c.apiKey }, o);
        printSummary(ctx, summary);
        if (summary.conflicts.length) ctx.exitCode = 6;
      }),
  );

  sync
    .command('status')
    .description('unsynced local changes, last sync time and open conflicts, per server (--remote narrows)')
    .action(async () => {
      const c = ctx.config();
      const { syncStatus } = await import('../../backend/sync/sync-session.js');
      const status = await syncStatus(target(ctx), c.remote);
      if (c.json) return printJson(ctx, status);
      if (!status.remotes.length) return writeOut(ctx, `tenant ${status.tenant} has never been synced`);
      for (const r of status.remotes) {
        writeOut(ctx, `${r.remote}\tlast sync ${r.last_sync ?? 'never'}\tunsynced ${counts(r.unsynced)}`);
        writeOut(ctx, `conflicts\t${r.conflicts.length}`);
        for (const x of r.conflicts) writeOut(ctx, conflictLine(x));
      }
    });

  writes(
    sync
      .command('resolve')
      .description(
        'settle a conflict: --ours keeps this store’s version (pushed next sync), --theirs takes the server’s',
      )
      .argument('<id>', 'the conflict (its id, or the id’s end)')
      .addOption(new Option('--ours', 'keep this store’s version').conflicts('theirs'))
      .addOption(new Option('--theirs', 'take the server’s version')),
  ).action(async (id: string, o: { ours?: boolean; theirs?: boolean }) => {
    if (!o.ours && !o.theirs)
      throw new DomainError('bad_request', 'say which version wins: --ours or --theirs', [
        { path: '--ours', message: 'one of --ours, --theirs' },
      ]);
    const { resolveSync } = await import('../../backend/sync/sync-session.js');
    const done = await resolveSync(target(ctx), id, o.ours ? 'ours' : 'theirs');
    if (ctx.config().json) return printJson(ctx, done);
    writeOut(ctx, `conflict ${done.id} (${done.entity} ${done.entity_id}) settled: ${o.ours ? 'ours' : 'theirs'}`);
  });
  return sync;
}
