import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { defined } from '../../input.js';
import { req } from '../../operation-verb.js';
import { printRecord } from '../../output.js';
import { writes } from '../../store-access.js';
import { versionPairs } from './shared.js';

/** `legal-docs approve <version-id>`: approved by --approved-by, else by the user of the command. */
export interface ApproveOptions {
  id: string;
  approvedBy?: string;
  comment?: string;
}

export function register(legalDocs: Command, ctx: CliContext): Command {
  return writes(legalDocs.command('approve'))
    .description('approve a version in review')
    .argument('<version-id>')
    .option('--approved-by <name>', 'default: --user')
    .option('--comment <text>')
    .action((id: string, o: Omit<ApproveOptions, 'id'>) => run(ctx, { ...o, id }));
}

export async function run(ctx: CliContext, { id, ...o }: ApproveOptions): Promise<void> {
  const body = defined({ approved_by: o.approvedBy ?? ctx.config().user, comment: o.comment });
  const v = await (await ctx.backend()).legalDocuments.approve({ ...req(ctx), params: { id }, body });
  await printRecord(ctx, v, versionPairs(v));
}
