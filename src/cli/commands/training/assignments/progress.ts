import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { flagFields } from '../../../flag-names.js';
import { printRecord } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { num, req } from '../shared.js';
import { assignmentPairs } from './columns.js';

/** `assignments progress <id> <percent>`: how far the person got. */
export interface ProgressOptions {
  id: string;
  percent: string;
}

export function register(asg: Command, ctx: CliContext): Command {
  return flagFields(writes(asg.command('progress')), { progress: '<percent>' })
    .description('record progress in percent (starts a pending assignment)')
    .argument('<id>')
    .argument('<percent>')
    .action((id: string, percent: string) => run(ctx, { id, percent }));
}

export async function run(ctx: CliContext, o: ProgressOptions): Promise<void> {
  const a = await (
    await ctx.backend()
  ).training.progress({ ...req(ctx), params: { id: o.id }, body: { progress: num(o.percent) } });
  await printRecord(ctx, a, assignmentPairs(a));
}
