import { Command, Option } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { DsfaAuditEntry } from '../../../domain/dsfa/dsfa.schema.js';
import { isTimeZone } from '../../../domain/clock.js';
import { REPORT_LANGUAGES, type ReportLanguage } from '../../../domain/report-locale.js';
import type { CliContext } from '../../context.js';
import { outputFormat, writeOutputFile } from '../../output-file.js';
import { note, writeOut } from '../../output.js';

const FORMATS = ['md', 'pdf', 'docx'] as const;
/** What `-o` names each format by, when --format is absent. */
const EXTENSIONS = { md: ['md', 'markdown'], pdf: ['pdf'], docx: ['docx'] } as const;

export type ReportOpts = {
  format?: (typeof FORMATS)[number];
  output?: string;
  lang?: ReportLanguage;
  timeZone?: string;
  includeIds?: boolean;
  auditTrail: boolean;
};

/**
 * The zone times are shown in: --time-zone (refused when unknown), else TZ when it names an IANA zone, else the
 * system's. A TZ that Intl cannot read (a POSIX rule such as CET-1CEST) is no reason to refuse a report.
 */
function zoneOf(ctx: CliContext, given: string | undefined): string {
  if (given === undefined) {
    const tz = ctx.env.TZ?.replace(/^:/, '');
    return tz && isTimeZone(tz) ? tz : Intl.DateTimeFormat().resolvedOptions().timeZone;
  }
  if (isTimeZone(given)) return given;
  throw new DomainError(
    'bad_request',
    `unknown time zone ${JSON.stringify(given)}: use an IANA name such as Europe/Berlin, or UTC`,
    [{ path: 'time-zone', message: 'an IANA time zone name' }],
  );
}

/** `dsfa report`: built on the client from the record and its audit trail, so it works the same against a server. */
export function createDsfaReportCommand(ctx: CliContext): Command {
  return new Command('report')
    .description(
      'write a report of one assessment to hand to a client: structured after Art. 35(7) GDPR, in German or English',
    )
    .argument('<id>')
    .addOption(
      new Option('--format <format>', 'md, pdf or docx (default: by the extension of -o, else md)').choices(FORMATS),
    )
    .option('-o, --output <file>', 'file to write (required for pdf and docx; md goes to stdout without it)')
    .addOption(
      new Option('--lang <lang>', 'language: de or en (default: the language of the title and texts)').choices(
        REPORT_LANGUAGES,
      ),
    )
    .option('--time-zone <zone>', 'IANA zone of the times shown, e.g. Europe/Berlin (default: TZ, else the system)')
    .option('--include-ids', 'also show the internal ids and the tenant')
    .option('--no-audit-trail', 'leave out the history of changes')
    .action((id: string, o: ReportOpts) => run(ctx, { ...o, id }));
}

export async function run(ctx: CliContext, { id, ...o }: ReportOpts & { id: string }): Promise<void> {
  const format = outputFormat('dsfa report', EXTENSIONS, o, 'md');
  if (format !== 'md' && !o.output)
    throw new DomainError('bad_request', `a ${format.toUpperCase()} report needs -o FILE`, [
      { path: '--output', message: `required with --format ${format}` },
    ]);
  const timeZone = zoneOf(ctx, o.timeZone);
  const b = await ctx.backend();
  const req = { tenant: ctx.config().tenant, actor: ctx.config().user };
  const d = await b.dsfa.get({ ...req, params: { id } });
  const audit: DsfaAuditEntry[] = [];
  // the whole trail, even when the report leaves it out: the sign-off checks the approval recorded in it
  for (let offset = 0; ; offset += 500) {
    const page = await b.dsfa.auditLog({ ...req, query: { dsfa_id: d.id, limit: 500, offset } });
    audit.push(...page);
    if (page.length < 500) break;
  }
  const { dsfaReport, dsfaLanguage } = await import('../../../domain/dsfa/dsfa.report.js');
  const doc = dsfaReport(d, audit, {
    lang: o.lang ?? dsfaLanguage(d),
    timeZone,
    generatedAt: ctx.clock.now(),
    includeIds: o.includeIds === true,
    auditTrail: o.auditTrail,
  });
  if (format === 'pdf') {
    const { renderPdf } = await import('../../../services/report/pdf.js');
    await writeOutputFile(o.output!, await renderPdf(doc));
  } else if (format === 'docx') {
    const { renderDocx } = await import('../../../services/report/docx.js');
    await writeOutputFile(o.output!, await renderDocx(doc));
  } else {
    const { renderMarkdown } = await import('../../../services/report/markdown.js');
    const md = renderMarkdown(doc);
    if (!o.output) return writeOut(ctx, md);
    await writeOutputFile(o.output, md);
  }
  note(ctx, `wrote ${o.output}`);
}
