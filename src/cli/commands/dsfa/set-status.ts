import type { Command } from 'commander';
import { DSFA_STATUSES } from '../../../domain/dsfa/dsfa.values.js';
import type { CliContext } from '../../context.js';
import { defined } from '../../input.js';
import { writes } from '../../store-access.js';
import { printDsfa, req } from './shared.js';

/** `dsfa set-status <id> <status>`. */
export interface SetStatusOptions {
  id: string;
  status: string;
  approvedBy?: string;
}

export function register(dsfa: Command, ctx: CliContext): Command {
  return writes(dsfa.command('set-status'))
    .description(`change the status: ${DSFA_STATUSES.join(', ')} (approved records approved_at)`)
    .argument('<id>')
    .argument('<status>')
    .option('--approved-by <name>', 'approver, recorded with status approved')
    .action((id: string, status: string, o: { approvedBy?: string }) => run(ctx, { ...o, id, status }));
}

export async function run(ctx: CliContext, o: SetStatusOptions): Promise<void> {
  const body = defined({ status: o.status, approved_by: o.approvedBy });
  await printDsfa(ctx, await (await ctx.backend()).dsfa.setStatus({ ...req(ctx), params: { id: o.id }, body }));
}
