import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printList } from '../../output.js';
import { asOf, req } from './shared.js';

/** `training deadlines`: the deadlines to come, soonest first. */
export interface DeadlinesOptions {
  limit?: string;
  asOf?: string;
}

export function register(training: Command, ctx: CliContext): Command {
  return training
    .command('deadlines')
    .description('upcoming deadlines, soonest first')
    .option('--limit <n>', 'default 50')
    .option('--as-of <date>')
    .action((o: DeadlinesOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: DeadlinesOptions): Promise<void> {
  const rows = await (
    await ctx.backend()
  ).training.deadlines({ ...req(ctx), query: { limit: o.limit, as_of: asOf(o.asOf) } });
  await printList(
    ctx,
    rows,
    [
      { header: 'DEADLINE', value: (a) => a.deadline },
      { header: 'USER', value: (a) => a.user_name },
      { header: 'MODULE', value: (a) => a.module_code },
      { header: 'STATUS', value: (a) => a.status },
      { header: 'ID', value: (a) => a.id, id: true },
    ],
    { empty: 'no upcoming deadlines' },
  );
}
