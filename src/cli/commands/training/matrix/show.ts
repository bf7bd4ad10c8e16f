import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printList } from '../../../output.js';
import { req } from '../shared.js';

/** `matrix show [role]`: the whole matrix, or one role's modules. */
export interface ShowOptions {
  role?: string;
}

export function register(matrix: Command, ctx: CliContext): Command {
  return matrix
    .command('show')
    .description("show the role matrix, or one role's modules")
    .argument('[role]')
    .action((role?: string) => run(ctx, { role }));
}

export async function run(ctx: CliContext, o: ShowOptions): Promise<void> {
  const api = (await ctx.backend()).training;
  const rows = o.role ? await api.matrixByRole({ ...req(ctx), params: { role: o.role } }) : await api.matrix(req(ctx));
  await printList(
    ctx,
    rows,
    [
      { header: 'ROLE', value: (e) => e.role_code },
      { header: 'MODULE', value: (e) => e.module_code },
      { header: 'TITLE', value: (e) => e.module_title },
      { header: 'MANDATORY', value: (e) => (e.is_mandatory ? 'yes' : 'no') },
      { header: 'PRIORITY', value: (e) => e.priority },
    ],
    { empty: 'the matrix is empty' },
  );
}
