import { Command, Option } from 'commander';
import { DomainError } from '../../domain/errors.js';
import type { LegalDocument, Version } from '../../domain/legal-documents/legal-document.schema.js';
import { DOCUMENT_TYPES } from '../../domain/legal-documents/legal-document.values.js';
import type { CliContext } from '../context.js';
import { defined, readText } from '../input.js';
import { printJson, printList, printRecord, writeOut, type Column } from '../output.js';
import { usesTenant, writes } from '../store-access.js';
import { flagFields } from '../flag-names.js';

const req = (ctx: CliContext) => ({ tenant: ctx.config().tenant, actor: ctx.config().user });
const docColumns: Column<LegalDocument>[] = [
  { header: 'ID', value: (d) => d.id, id: true },
  { header: 'TITLE', value: (d) => d.title },
  { header: 'TYPE', value: (d) => d.document_type },
  { header: 'LANG', value: (d) => d.language },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'UPDATED', value: (d) => d.updated_at },
];
const versionColumns: Column<Version>[] = [
  { header: 'ID', value: (v) => v.id, id: true },
  { header: 'NO', value: (v) => v.version_number },
  { header: 'TITLE', value: (v) => v.title },
  { header: 'STATUS', value: (v) => v.status },
  { header: 'APPROVED BY', value: (v) => v.approved_by },
  { header: 'PUBLISHED', value: (v) => v.published_at },
];
const versionPairs = (v: Version): Array<[string, unknown]> => [
  ['id', v.id],
  ['document_id', v.document_id],
  ['version_number', v.version_number],
  ['title', v.title],
  ['status', v.status],
  ['change_summary', v.change_summary],
  ['approved_by', v.approved_by],
  ['approved_at', v.approved_at],
  ['comment', v.comment],
  ['published_at', v.published_at],
];

export function createLegalDocsCommand(ctx: CliContext): Command {
  const cmd = new Command('legal-docs').description('legal documents with versions, approval and publication');
  const b = () => ctx.backend();

  flagFields(cmd.command('list'), { document_type: '--type' })
    .description('list legal documents, newest first')
    .addOption(new Option('--type <type>', `filter: ${DOCUMENT_TYPES.join(', ')}`))
    .option('--status <status>', 'draft or published')
    .action(async (o: { type?: string; status?: string }) => {
      await printList(
        ctx,
        await (await b()).legalDocuments.list({ ...req(ctx), query: { document_type: o.type, status: o.status } }),
        docColumns,
        { empty: 'no legal documents' },
      );
    });

  flagFields(usesTenant(writes(cmd.command('create')), 'starts'), { document_type: '--type' })
    .description('create a legal document (a title, a type and a language)')
    .requiredOption('--title <title>')
    .requiredOption('--type <type>', DOCUMENT_TYPES.join(', '))
    .option('--language <code>', 'default de')
    .action(async (o: { title: string; type: string; language?: string }) => {
      const d = await (
        await b()
      ).legalDocuments.create({
        ...req(ctx),
        body: defined({ title: o.title, document_type: o.type, language: o.language }),
      });
      await printRecord(ctx, d, Object.entries(d));
    });

  cmd
    .command('show')
    .description('show one document with its current status')
    .argument('<document-id>')
    .action(async (id: string) => {
      const d = await (await b()).legalDocuments.get({ ...req(ctx), params: { id } });
      await printRecord(ctx, d, Object.entries(d));
    });

  cmd
    .command('versions')
    .argument('<document-id>')
    .description('versions, newest first')
    .action(async (id: string) => {
      await printList(ctx, await (await b()).legalDocuments.versions({ ...req(ctx), params: { id } }), versionColumns, {
        empty: 'no versions yet',
      });
    });

  flagFields(writes(cmd.command('add-version')), { change_summary: '--summary', content: '--file' })
    .description('add a draft version from a Markdown or text file')
    .argument('<document-id>')
    .requiredOption('--file <content.md>', 'the content in Markdown; - reads stdin')
    .option('--title <title>', 'default: the document title')
    .option('--summary <text>', 'what changed')
    .action(async (id: string, o: { file: string; title?: string; summary?: string }) => {
      const api = (await b()).legalDocuments;
      const title = o.title ?? (await api.get({ ...req(ctx), params: { id } })).title;
      const v = await api.addVersion({
        ...req(ctx),
        params: { id },
        body: defined({ title, content: await readText(ctx, o.file), change_summary: o.summary }),
      });
      await printRecord(ctx, v, versionPairs(v));
    });

  for (const [name, help] of [
    ['submit', 'submit a draft for review'],
    ['publish', 'publish an approved version (archives the published one)'],
  ] as const) {
    writes(cmd.command(name))
      .argument('<version-id>')
      .description(help)
      .action(async (id: string) => {
        const v = await (await b()).legalDocuments[name]({ ...req(ctx), params: { id }, body: {} });
        await printRecord(ctx, v, versionPairs(v));
      });
  }
  writes(cmd.command('approve'))
    .description('approve a version in review')
    .argument('<version-id>')
    .option('--approved-by <name>', 'default: --user')
    .option('--comment <text>')
    .action(async (id: string, o: { approvedBy?: string; comment?: string }) => {
      const v = await (
        await b()
      ).legalDocuments.approve({
        ...req(ctx),
        params: { id },
        body: defined({ approved_by: o.approvedBy ?? ctx.config().user, comment: o.comment }),
      });
      await printRecord(ctx, v, versionPairs(v));
    });
  writes(cmd.command('reject'))
    .description('send a version in review back to draft')
    .argument('<version-id>')
    .requiredOption('--comment <text>', 'why')
    .action(async (id: string, o: { comment: string }) => {
      const v = await (await b()).legalDocuments.reject({ ...req(ctx), params: { id }, body: { comment: o.comment } });
      await printRecord(ctx, v, versionPairs(v));
    });

  cmd
    .command('diff')
    .description('line diff of two versions: version ids, or version numbers with --document')
    .argument('<v1>')
    .argument('<v2>')
    .option('--document <id>', 'read v1 and v2 as version numbers of this document')
    .option('--context <n>', 'unchanged lines around changes', '3')
    .action(async (a: string, c: string, o: { document?: string; context: string }) => {
      const api = (await b()).legalDocuments;
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
      const [v1, v2] = [await pick(a), await pick(c)];
      const { lineDiff, formatDiff } = await import('../../domain/legal-documents/line-diff.js');
      const lines = lineDiff(v1.content, v2.content);
      if (ctx.config().json) return printJson(ctx, { from: v1.version_number, to: v2.version_number, lines });
      writeOut(ctx, `--- version ${v1.version_number} (${v1.status})\n+++ version ${v2.version_number} (${v2.status})`);
      writeOut(ctx, lines.some((l) => l.op !== ' ') ? formatDiff(lines, Number(o.context) || 0) : '(no differences)');
    });
  return cmd;
}
