import { Command, Option } from 'commander';
import { DomainError } from '../../domain/errors.js';
import type { CliContext } from '../context.js';
import { shortId } from '../../domain/short-id.js';
import { note, printJson, tableText, writeOut, type Column } from '../output.js';
import { usesTenant, writes } from '../store-access.js';
import type { ConflictDetail, ConflictReport, SyncSummary } from '../../backend/sync/sync-engine.js';

/** What the sync commands reach: the embedded store of --db, for the tenant of --tenant. */
const target = (ctx: CliContext) => {
  const c = ctx.config();
  return { db: c.db, tenant: c.tenant, actor: c.user, clock: ctx.clock, local: { media: c.media } };
};

const counts = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([area, n]) => `${area} ${n}`)
    .join(', ') || 'nothing';

const side = (s: ConflictReport['ours']) =>
  `${s.deleted ? 'deleted' : 'changed'} by ${s.actor ?? '?'} at ${s.time ?? '?'}`;

/** The columns of a list of conflicts: ids short on a terminal, whole in a pipe. */
const CONFLICT_COLUMNS: Column<ConflictReport>[] = [
  { header: 'conflict', value: (c) => c.id, id: true },
  { header: 'table', value: (c) => c.entity },
  { header: 'record', value: (c) => c.entity_id, id: true },
  { header: 'fields', value: (c) => c.fields.join(',') || '-' },
  { header: 'ours (here)', value: (c) => side(c.ours) },
  { header: 'theirs', value: (c) => side(c.theirs) },
  { header: 'state', value: (c) => (c.status === 'ours' ? 'decided here (pushed next sync)' : c.reason) },
];

/** Conflicts as a list: a table with a header line on a terminal, tab-separated lines when piped. */
async function printConflicts(ctx: CliContext, conflicts: ConflictReport[]): Promise<void> {
  if (!conflicts.length) return;
  if (ctx.io.stdoutIsTTY) return writeOut(ctx, await tableText(conflicts, CONFLICT_COLUMNS, { empty: '' }));
  for (const c of conflicts) writeOut(ctx, CONFLICT_COLUMNS.map((col) => String(col.value(c))).join('\t'));
}

/** A value of one side of a conflict, on one line. */
const shown = (v: unknown) => (v === null || v === undefined ? '-' : typeof v === 'string' ? v : JSON.stringify(v));

/** One conflict: what it is about, and the contested fields side by side with who changed each side and when. */
async function printDetail(ctx: CliContext, d: ConflictDetail): Promise<void> {
  const tty = ctx.io.stdoutIsTTY;
  const id = (x: string) => (tty ? shortId(x) : x);
  writeOut(ctx, `conflict ${id(d.id)}: ${d.entity} ${id(d.entity_id)} (${d.remote})`);
  writeOut(ctx, d.status === 'ours' ? 'decided here (pushed next sync)' : d.reason);
  const rows: Array<{ field: string; ours: string; theirs: string }> = [
    { field: 'changed', ours: side(d.ours), theirs: side(d.theirs) },
    ...d.differences.map((f) => ({
      field: f.list ? `${f.field} (list)` : f.field,
      ours: shown(f.ours),
      theirs: shown(f.theirs),
    })),
  ];
  const columns: Column<(typeof rows)[number]>[] = [
    { header: 'field', value: (r) => r.field },
    { header: 'ours (here)', value: (r) => r.ours },
    { header: 'theirs', value: (r) => r.theirs },
  ];
  if (tty) return writeOut(ctx, await tableText(rows, columns, { empty: '' }));
  for (const r of rows) writeOut(ctx, [r.field, r.ours, r.theirs].map((v) => v.replace(/[\t\r\n]+/g, ' ')).join('\t'));
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

/** `--field NAME=ours|theirs|both` values, by field: each a name and a side, a field named once. */
function parseFields(values: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const at = v.indexOf('=');
    const name = at < 0 ? v : v.slice(0, at);
    const side = at < 0 ? '' : v.slice(at + 1);
    const refuse = (message: string) => new DomainError('validation', message, [{ path: '--field', message }]);
    if (!name || !['ours', 'theirs', 'both'].includes(side))
      throw refuse(
        `--field ${v}: give NAME=ours or NAME=theirs, or NAME=both for a list field (the side is one of ours, theirs, both)`,
      );
    if (out[name] !== undefined && out[name] !== side)
      throw refuse(`--field ${name} is named twice, as ${out[name]} and ${side}`);
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
          await printSummary(ctx, summary);
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
        const decided = r.conflicts.length - r.open;
        writeOut(ctx, `conflicts\t${r.open} open${decided ? `, ${decided} decided here (pushed next sync)` : ''}`);
        await printConflicts(ctx, r.conflicts);
      }
    });

  writes(
    sync
      .command('resolve')
      .description(
        'settle a conflict: --ours keeps this store’s version (pushed next sync), --theirs takes the server’s, --field NAME=ours|theirs|both picks per field (repeatable; the side given takes the rest)',
      )
      .argument(
        '<id>',
        'the conflict’s id or its record’s (whole, or its short form: 8 or more characters of the start or end)',
      )
      .addOption(
        new Option('--ours', 'keep this store’s version (with --field: for every field not named)').conflicts('theirs'),
      )
      .addOption(new Option('--theirs', 'take the server’s version (with --field: for every field not named)'))
      .addOption(
        new Option(
          '--field <name=side>',
          'take one field from ours or theirs, or both for a list field (their items together; repeatable)',
        ).argParser((v: string, all: string[] = []) => [...all, v]),
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
    const short = (x: string) => (ctx.io.stdoutIsTTY ? shortId(x) : x);
    writeOut(ctx, `conflict ${short(done.id)} (${done.entity} ${short(done.entity_id)}) settled: ${how}`);
  });

  const conflicts = sync
    .command('conflicts')
    .description('the conflicts still to settle with each server (--remote narrows), as sync status lists them')
    .action(async () => {
      const c = ctx.config();
      const { syncStatus } = await import('../../backend/sync/sync-session.js');
      const status = await syncStatus(target(ctx), c.remote);
      const all = status.remotes.flatMap((r) => r.conflicts);
      if (c.json) return printJson(ctx, all);
      if (!all.length) return note(ctx, `no conflicts for tenant ${status.tenant}`);
      await printConflicts(ctx, all);
    });
  conflicts
    .command('show')
    .description('one conflict: the fields that differ side by side, with who changed each side and when')
    .argument('<id>', 'the conflict’s id or its record’s (whole, or its short form)')
    .action(async (ref: string) => {
      const { showConflict } = await import('../../backend/sync/sync-session.js');
      const detail = await showConflict(target(ctx), ref);
      if (ctx.config().json) return printJson(ctx, detail);
      await printDetail(ctx, detail);
    });
  return sync;
}
