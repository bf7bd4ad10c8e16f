import type { Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { Version } from '../../../domain/legal-documents/legal-document.schema.js';
import type { CliContext } from '../../context.js';
import { req } from '../../operation-verb.js';
import { printJson, writeOut } from '../../output.js';

/** `legal-docs diff <v1> <v2>`: version ids, or version numbers of --document. */
export interface DiffOptions {
  v1: string;
  v2: string;
  document?: string;
  context: string;
}

export function register(legalDocs: Command, ctx: CliContext): Command {
  return legalDocs
    .command('diff')
    .description('line diff of two versions: version ids, or version numbers with --document')
    .argument('<v1>')
    .argument('<v2>')
    .option('--document <id>', 'read v1 and v2 as version numbers of this document')
    .option('--context <n>', 'unchanged lines around changes', '3')
    .action((v1: string, v2: string, o: { document?: string; context: string }) => run(ctx, { ...o, v1, v2 }));
}

export async function run(ctx: CliContext, o: DiffOptions): Promise<void> {
  const api = (await ctx.backend()).legalDocuments;
  let pick: (x: string) => Promise<Version>;
  if (o.document) {
    const all = await api.versions({ ...req(ctx), params: { id: o.document } });
    pick = async (x) => {
      const v = all.find((v) => String(v.version_number) === x);
      if (!v)
        throw new DomainError(
          'not_found',
          `version ${x} of document ${o.document} not found; it has ${all.map((v) => v.version_number).join(', ') || 'none'}`,
        );
      return v;
    };
  } else pick = (x) => api.version({ ...req(ctx), params: { id: x } });
  const [v1, v2] = [await pick(o.v1), await pick(o.v2)];
  const { lineDiff, formatDiff } = await import('../../../domain/legal-documents/line-diff.js');
  const lines = lineDiff(v1.content, v2.content);
  if (ctx.config().json) return printJson(ctx, { from: v1.version_number, to: v2.version_number, lines });
  writeOut(ctx, `--- version ${v1.version_number} (${v1.status})\n+++ version ${v2.version_number} (${v2.status})`);
  writeOut(ctx, lines.some((l) => l.op !== ' ') ? formatDiff(lines, Number(o.context) || 0) : '(no differences)');
}
