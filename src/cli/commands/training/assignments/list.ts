import { Option, type Command } from 'commander';
import { ASSIGNMENT_STATUSES, ROLES } from '../../../../domain/training/training.values.js';
import type { CliContext } from '../../../context.js';
import { flagFields } from '../../../flag-names.js';
import { printList } from '../../../output.js';
import { moduleId, req } from '../shared.js';
import { assignmentColumns } from './columns.js';

/** `assignments list`: filtered by user, module (its id or code), role or status. */
export interface ListOptions {
  userId?: string;
  module?: string;
  role?: string;
  status?: string;
  limit?: string;
  offset?: string;
}

export function register(asg: Command, ctx: CliContext): Command {
  return flagFields(asg.command('list'), { module_id: '--module' })
    .description('list assignments; filter by user, module, status or overdue')
    .option('--user-id <id>')
    .option('--module <id-or-code>')
    .addOption(new Option('--role <role>', ROLES.join(', ')))
    .addOption(new Option('--status <status>', ASSIGNMENT_STATUSES.join(', ')))
    .option('--limit <n>', '1 to 500, default 50')
    .option('--offset <n>')
    .action((o: ListOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: ListOptions): Promise<void> {
  const backend = await ctx.backend();
  const module_id = o.module ? await moduleId(ctx, backend, o.module) : undefined;
  await printList(
    ctx,
    await backend.training.listAssignments({
      ...req(ctx),
      query: { user_id: o.userId, module_id, role: o.role, status: o.status, limit: o.limit, offset: o.offset },
    }),
    assignmentColumns,
    { empty: 'no assignments' },
  );
}
