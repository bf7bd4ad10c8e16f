import { Option, type Command } from 'commander';
import { ASSIGNMENT_STATUSES, ROLES } from '../../../../domain/training/training.values.js';
import type { CliContext } from '../../../context.js';
import { defined } from '../../../input.js';
import { printList, printRecord } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { flagFields } from '../../../flag-names.js';
import { moduleId, num, parseWhen, req } from '../shared.js';
import { assignmentColumns, assignmentPairs } from './columns.js';
import * as compute from './compute.js';

/** `training assignments`: compute what the matrix calls for, list, show, update, start, complete, progress. */
export function addAssignmentCommands(ctx: CliContext, training: Command): void {
  const b = () => ctx.backend();
  const asg = training.command('assignments').description('assignments of modules to people');
  compute.register(asg, ctx);
  flagFields(asg.command('list'), { module_id: '--module' })
    .description('list assignments; filter by user, module, status or overdue')
    .option('--user-id <id>')
    .option('--module <id-or-code>')
    .addOption(new Option('--role <role>', ROLES.join(', ')))
    .addOption(new Option('--status <status>', ASSIGNMENT_STATUSES.join(', ')))
    .option('--limit <n>', '1 to 500, default 50')
    .option('--offset <n>')
    .action(
      async (o: {
        userId?: string;
        module?: string;
        role?: string;
        status?: string;
        limit?: string;
        offset?: string;
      }) => {
        const backend = await b();
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
      },
    );
  asg
    .command('show')
    .description('show one assignment')
    .argument('<id>')
    .action(async (id: string) => {
      const a = await (await b()).training.getAssignment({ ...req(ctx), params: { id } });
      await printRecord(ctx, a, assignmentPairs(a));
    });
  flagFields(writes(asg.command('update')), { user_name: '--name', user_email: '--email' })
    .description('change the deadline, name or e-mail of an assignment')
    .argument('<id>')
    .option('--deadline <date>', 'a date (2027-03-31, lasting to its end in UTC) or an ISO timestamp with a zone')
    .option('--name <name>')
    .option('--email <email>')
    .action(async (id: string, o: { deadline?: string; name?: string; email?: string }) => {
      const a = await (
        await b()
      ).training.updateAssignment({
        ...req(ctx),
        params: { id },
        body: defined({
          deadline:
            o.deadline === undefined ? undefined : parseWhen(o.deadline, '--deadline', 'deadline', { endOfDay: true }),
          user_name: o.name,
          user_email: o.email,
        }),
      });
      await printRecord(ctx, a, assignmentPairs(a));
    });
  for (const verb of ['start', 'complete'] as const) {
    writes(asg.command(verb))
      .description(
        verb === 'start' ? 'start an assignment' : 'complete an assignment (a certificate then needs a passed quiz)',
      )
      .argument('<id>')
      .action(async (id: string) => {
        const a = await (await b()).training[verb]({ ...req(ctx), params: { id }, body: {} });
        await printRecord(ctx, a, assignmentPairs(a));
      });
  }
  flagFields(writes(asg.command('progress')), { progress: '<percent>' })
    .description('record progress in percent (starts a pending assignment)')
    .argument('<id>')
    .argument('<percent>')
    .action(async (id: string, p: string) => {
      const a = await (await b()).training.progress({ ...req(ctx), params: { id }, body: { progress: num(p) } });
      await printRecord(ctx, a, assignmentPairs(a));
    });
}
