import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { req } from '../../operation-verb.js';
import { printRecord } from '../../output.js';
import { writes } from '../../store-access.js';
import { versionPairs } from './shared.js';

/** `legal-docs reject <version-id> --comment why`. */
export interface RejectOptions {
  id: string;
  comment: string;
}

export function register(legalDocs: Command, ctx: CliContext): Command {
  return writes(legalDocs.command('reject'))
    .description('send a version in review back to draft')
    .argument('<version-id>')
    .requiredOption('--comment <text>', 'why')
    .action((id: string, o: { comment: string }) => run(ctx, { ...o, id }));
}

export async function run(ctx: CliContext, { id, comment }: RejectOptions): Promise<void> {
  const v = await (await ctx.backend()).legalDocuments.reject({ ...req(ctx), params: { id }, body: { comment } });
  await printRecord(ctx, v, versionPairs(v));
}
