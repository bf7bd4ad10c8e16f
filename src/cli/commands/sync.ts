import { Command, Option } from 'commander';
import { DomainError } from '../../domain/errors.js';
import type { CliContext } from '../context.js';
import { printJson, writeOut } from '../output.js';
import { usesTenant, writes } from '../store-access.js';
import type { ConflictReport, SyncSummary } from '../../backend/sync/sync-engine.js';

/** What the sync commands reach: the embedded store of --db, for the tenant of --tenant. */
const target = (ctx: CliContext) => {
  const c = ctx.config();
  return { db: c.db, tenant: c.tenant, actor: c.user, clock: ctx.clock, local: { media: c.media } };
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
    c.status === 'ours' ? 'decided here (pushed next sync)' : c.reason,
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

/** `--field NAME=ours|theirs` values, by field: each a name and a side, a field named once. */
function parseFields(values: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const at = v.indexOf('=');
    const name = at < 0 ? v : v.slice(0, at);
    const side = at < 0 ? '' : v.slice(at + 1);
    const refuse = (message: string) => new DomainError('validation', message, [{ path: '--field', message }]);
    if (!name || !['ours', 'theirs'].includes(side))
      throw refuse(`--field ${v}: give NAME=ours or NAME=theirs (the side is one of ours, theirs)`);
    if (out[name] !== undefined && out[name] !== side)
      throw refuse(`--field ${name} is named twice, as ours and theirs`);
    out[name] = side;
  }
  return out;
}

export function createSyncCommand(ctx: CliContext): Command {
  // the sync opens its store itself and asks the server about the tenant (--new-tenant)
  const sync = usesTenant(
    writes(
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
    ),
    'none',
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
        'settle a conflict: --ours keeps this store’s version (pushed next sync), --theirs takes the server’s, --field NAME=ours|theirs picks per field (repeatable; the side given takes the rest)',
      )
      .argument('<id>', 'the conflict (its id, or the id’s end)')
      .addOption(
        new Option('--ours', 'keep this store’s version (with --field: for every field not named)').conflicts('theirs'),
      )
      .addOption(new Option('--theirs', 'take the server’s version (with --field: for every field not named)'))
      .addOption(
        new Option('--field <name=side>', 'take one field from ours or theirs (repeatable)').argParser(
          (v: string, all: string[] = []) => [...all, v],
        ),
      ),
  ).action(async (id: string, o: { ours?: boolean; theirs?: boolean; field?: string[] }) => {
    const fields = parseFields(o.field ?? []);
    if (!o.ours && !o.theirs && !o.field?.length)
      throw new DomainError('bad_request', 'say which version wins: --ours, --theirs or --field NAME=ours|theirs', [
        { path: '--ours', message: 'one of --ours, --theirs, --field NAME=ours|theirs' },
      ]);
    const side = o.ours ? 'ours' : o.theirs ? 'theirs' : undefined;
    const { resolveSync } = await import('../../backend/sync/sync-session.js');
    const done = await resolveSync(target(ctx), id, { side, fields });
    if (ctx.config().json) return printJson(ctx, done);
    const how = done.resolution?.startsWith('fields:')
      ? `per field ${done.resolution.slice('fields:'.length)} (pushed next sync)`
      : done.resolution === 'ours' && done.status === 'ours'
        ? 'ours (pushed next sync)'
        : String(done.resolution);
    writeOut(ctx, `conflict ${done.id} (${done.entity} ${done.entity_id}) settled: ${how}`);
  });
  return sync;
}
