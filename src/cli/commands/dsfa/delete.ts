import type { Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { CliContext } from '../../context.js';
import { printJson, writeOut } from '../../output.js';
import { writes } from '../../store-access.js';
import { req } from './shared.js';

/** `dsfa delete <id>`: without --yes it asks on a terminal, and refuses elsewhere. */
export interface DeleteOptions {
  id: string;
  yes?: boolean;
}

export function register(dsfa: Command, ctx: CliContext): Command {
  return writes(dsfa.command('delete'))
    .description('delete an assessment (the deletion is kept in the audit trail)')
    .argument('<id>')
    .option('-y, --yes', 'do not ask for confirmation')
    .action((id: string, o: { yes?: boolean }) => run(ctx, { ...o, id }));
}

export async function run(ctx: CliContext, { id, yes }: DeleteOptions): Promise<void> {
  if (!yes) {
    if (!(ctx.io.stdinIsTTY && ctx.io.stderrIsTTY))
      throw new DomainError('bad_request', 'dsfa delete needs --yes when it cannot ask for confirmation');
    const { confirm } = await import('@inquirer/prompts');
    const ok = await confirm(
      { message: `Delete DSFA ${id}?`, default: false },
      { input: ctx.io.stdin, output: ctx.io.stderr },
    );
    if (!ok) throw new DomainError('conflict', 'not deleted');
  }
  const r = await (await ctx.backend()).dsfa.delete({ ...req(ctx), params: { id } });
  if (ctx.config().json) printJson(ctx, r);
  else writeOut(ctx, r.message);
}
