import type { ConflictReport } from '../../../backend/sync/sync-engine.js';
import type { CliContext } from '../../context.js';
import { tableText, writeOut, type Column } from '../../output.js';

/** What the sync commands reach: the embedded store of --db, for the tenant of --tenant. */
export const target = (ctx: CliContext) => {
  const c = ctx.config();
  return { db: c.db, tenant: c.tenant, actor: c.user, clock: ctx.clock, local: { media: c.media } };
};

export const counts = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([area, n]) => `${area} ${n}`)
    .join(', ') || 'nothing';

export const side = (s: ConflictReport['ours']) =>
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
export async function printConflicts(ctx: CliContext, conflicts: ConflictReport[]): Promise<void> {
  if (!conflicts.length) return;
  if (ctx.io.stdoutIsTTY) return writeOut(ctx, await tableText(conflicts, CONFLICT_COLUMNS, { empty: '' }));
  for (const c of conflicts) writeOut(ctx, CONFLICT_COLUMNS.map((col) => String(col.value(c))).join('\t'));
}
