import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { flagFields } from '../../../flag-names.js';
import { defined } from '../../../input.js';
import { printRecord } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { moduleId, num, req } from '../shared.js';

/** `matrix set <role> <module>`: a module a role needs, or its new priority. */
export interface SetOptions {
  role: string;
  module: string;
  mandatory?: boolean;
  priority?: string;
}

export function register(matrix: Command, ctx: CliContext): Command {
  return flagFields(writes(matrix.command('set')), {
    role_code: '<role>',
    module_id: '<module>',
    is_mandatory: '--mandatory',
  })
    .description('require a module for a role (or change its priority)')
    .argument('<role>')
    .argument('<module>', 'id or module_code')
    .option('--mandatory')
    .option('--priority <n>', '1 (highest) to 10, default 5')
    .action((role: string, module: string, o: { mandatory?: boolean; priority?: string }) =>
      run(ctx, { ...o, role, module }),
    );
}

export async function run(ctx: CliContext, o: SetOptions): Promise<void> {
  const backend = await ctx.backend();
  const e = await backend.training.setMatrix({
    ...req(ctx),
    body: defined({
      role_code: o.role,
      module_id: await moduleId(ctx, backend, o.module),
      is_mandatory: Boolean(o.mandatory),
      priority: num(o.priority),
    }),
  });
  await printRecord(ctx, e, Object.entries(e));
}
