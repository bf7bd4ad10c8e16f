import type { Command } from 'commander';
import { DOCUMENT_TYPES } from '../../../domain/legal-documents/legal-document.values.js';
import type { CliContext } from '../../context.js';
import { flagFields } from '../../flag-names.js';
import { defined } from '../../input.js';
import { req } from '../../operation-verb.js';
import { printRecord } from '../../output.js';
import { usesTenant, writes } from '../../store-access.js';

/** `legal-docs create`: a title, a type and a language. */
export interface CreateOptions {
  title: string;
  type: string;
  language?: string;
}

export function register(legalDocs: Command, ctx: CliContext): Command {
  return flagFields(usesTenant(writes(legalDocs.command('create')), 'starts'), { document_type: '--type' })
    .description('create a legal document (a title, a type and a language)')
    .requiredOption('--title <title>')
    .requiredOption('--type <type>', DOCUMENT_TYPES.join(', '))
    .option('--language <code>', 'default de')
    .action((o: CreateOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: CreateOptions): Promise<void> {
  const body = defined({ title: o.title, document_type: o.type, language: o.language });
  const d = await (await ctx.backend()).legalDocuments.create({ ...req(ctx), body });
  await printRecord(ctx, d, Object.entries(d));
}
