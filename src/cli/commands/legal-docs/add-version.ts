import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { flagFields } from '../../flag-names.js';
import { defined, readText } from '../../input.js';
import { req } from '../../operation-verb.js';
import { printRecord } from '../../output.js';
import { writes } from '../../store-access.js';
import { versionPairs } from './shared.js';

/** `legal-docs add-version <document-id>`: a draft from a file. */
export interface AddVersionOptions {
  id: string;
  file: string;
  title?: string;
  summary?: string;
}

export function register(legalDocs: Command, ctx: CliContext): Command {
  return flagFields(writes(legalDocs.command('add-version')), { change_summary: '--summary', content: '--file' })
    .description('add a draft version from a Markdown or text file')
    .argument('<document-id>')
    .requiredOption('--file <content.md>', 'the content in Markdown; - reads stdin')
    .option('--title <title>', 'default: the document title')
    .option('--summary <text>', 'what changed')
    .action((id: string, o: Omit<AddVersionOptions, 'id'>) => run(ctx, { ...o, id }));
}

export async function run(ctx: CliContext, { id, ...o }: AddVersionOptions): Promise<void> {
  const api = (await ctx.backend()).legalDocuments;
  const title = o.title ?? (await api.get({ ...req(ctx), params: { id } })).title;
  const v = await api.addVersion({
    ...req(ctx),
    params: { id },
    body: defined({ title, content: await readText(ctx, o.file), change_summary: o.summary }),
  });
  await printRecord(ctx, v, versionPairs(v));
}
