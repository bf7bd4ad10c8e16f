import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { flagFields } from '../../../flag-names.js';
import { defined } from '../../../input.js';
import { printRecord } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { parseWhen, req } from '../shared.js';
import { assignmentPairs } from './columns.js';

/** `assignments update <id>`: a new deadline, name or e-mail. */
export interface UpdateOptions {
  id: string;
  deadline?: string;
  name?: string;
  email?: string;
}

export function register(asg: Command, ctx: CliContext): Command {
  return flagFields(writes(asg.command('update')), { user_name: '--name', user_email: '--email' })
    .description('change the deadline, name or e-mail of an assignment')
    .argument('<id>')
    .option('--deadline <date>', 'a date (2027-03-31, lasting to its end in UTC) or an ISO timestamp with a zone')
    .option('--name <name>')
    .option('--email <email>')
    .action((id: string, o: Omit<UpdateOptions, 'id'>) => run(ctx, { ...o, id }));
}

export async function run(ctx: CliContext, o: UpdateOptions): Promise<void> {
  const a = await (
    await ctx.backend()
  ).training.updateAssignment({
    ...req(ctx),
    params: { id: o.id },
    body: defined({
      deadline:
        o.deadline === undefined ? undefined : parseWhen(o.deadline, '--deadline', 'deadline', { endOfDay: true }),
      user_name: o.name,
      user_email: o.email,
    }),
  });
  await printRecord(ctx, a, assignmentPairs(a));
}
