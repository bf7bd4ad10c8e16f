import type { Command } from 'commander';
import type { ConflictDetail } from '../../../backend/sync/sync-engine.js';
import { shortId } from '../../../domain/short-id.js';
import type { CliContext } from '../../context.js';
import { printJson, tableText, writeOut, type Column } from '../../output.js';
import { side, target } from './shared.js';

/** `sync conflicts show <id>`. */
export interface ConflictShowOptions {
  ref: string;
}

export function register(conflicts: Command, ctx: CliContext): Command {
  return conflicts
    .command('show')
    .description('one conflict: the fields that differ side by side, with who changed each side and when')
    .argument('<id>', 'the conflict’s id or its record’s (whole, or its short form)')
    .action((ref: string) => run(ctx, { ref }));
}

export async function run(ctx: CliContext, { ref }: ConflictShowOptions): Promise<void> {
  const { showConflict } = await import('../../../backend/sync/sync-session.js');
  const detail = await showConflict(target(ctx), ref);
  if (ctx.config().json) return printJson(ctx, detail);
  await printDetail(ctx, detail);
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
