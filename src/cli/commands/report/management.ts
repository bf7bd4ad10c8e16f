import { Command, Option } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import { isTimeZone } from '../../../domain/clock.js';
import { REPORT_LANGUAGES, type ReportLanguage } from '../../../domain/report-locale.js';
import { THRESHOLD_NAMES, type ThresholdName } from '../../../domain/report/management-report.thresholds.js';
import type { CliContext } from '../../context.js';
import { collect, readJson } from '../../input.js';
import { outputFormat, writeOutputFile } from '../../output-file.js';
import { note, printJson, writeOut } from '../../output.js';

const FORMATS = ['html', 'pdf', 'docx', 'json'] as const;
type Format = (typeof FORMATS)[number];
/** What `-o` names each format by, when --format is absent. */
const EXTENSIONS = { html: ['html', 'htm'], pdf: ['pdf'], docx: ['docx'], json: ['json'] } as const;

export interface ManagementOpts {
  from?: string;
  to?: string;
  format?: Format;
  output?: string;
  lang: ReportLanguage;
  timeZone?: string;
  thresholds?: string;
  threshold?: string[];
}

const usage = (message: string, path: string, detail: string) =>
  new DomainError('bad_request', message, [{ path, message: detail }]);

/** The zone times are shown in: --time-zone (refused when unknown), else TZ when it names a zone, else the system's. */
function zoneOf(ctx: CliContext, given: string | undefined): string {
  if (given === undefined) {
    const tz = ctx.env.TZ?.replace(/^:/, '');
    return tz && isTimeZone(tz) ? tz : Intl.DateTimeFormat().resolvedOptions().timeZone;
  }
  if (isTimeZone(given)) return given;
  throw usage(
    `--time-zone ${JSON.stringify(given)}: unknown time zone; use an IANA name such as Europe/Berlin, or UTC`,
    '--time-zone',
    'an IANA time zone name',
  );
}

/**
 * The thresholds: those of --thresholds FILE (a JSON object), then each --threshold NAME=VALUE over them. Names are
 * checked here, so a typo names the flag and every name allowed; values are checked with the API's schema.
 */
async function thresholdsOf(ctx: CliContext, o: ManagementOpts): Promise<Record<string, unknown>> {
  const allowed = THRESHOLD_NAMES.join(', ');
  const out: Record<string, unknown> = {};
  const { ThresholdsInput } = await import('../../../domain/report/management-report.schema.js');
  const { detailsFromZod, summarize } = await import('../../../domain/validation.js');
  const check = (values: Record<string, unknown>, flag: string) => {
    const r = ThresholdsInput.safeParse(values, { reportInput: true });
    if (r.success) return;
    const details = detailsFromZod(r.error).map((d) => ({ path: `${flag} ${d.path}`, message: d.message }));
    throw new DomainError('validation', summarize(details), details);
  };
  if (o.thresholds !== undefined) {
    const file = await readJson(ctx, o.thresholds);
    if (typeof file !== 'object' || file === null || Array.isArray(file))
      throw usage(
        `--thresholds ${o.thresholds}: expected a JSON object such as {"min_completion_rate": 95}`,
        '--thresholds',
        'a JSON object',
      );
    for (const key of Object.keys(file))
      if (!(THRESHOLD_NAMES as string[]).includes(key))
        throw usage(
          `--thresholds ${o.thresholds}: unknown threshold ${JSON.stringify(key)}; allowed: ${allowed}`,
          `--thresholds ${key}`,
          `one of ${allowed}`,
        );
    check(file as Record<string, unknown>, '--thresholds');
    Object.assign(out, file);
  }
  for (const pair of o.threshold ?? []) {
    const m = /^\s*([a-z_]+)\s*=\s*(.*)$/.exec(pair);
    if (!m)
      throw usage(
        `--threshold ${pair}: expected NAME=VALUE, such as min_completion_rate=95`,
        '--threshold',
        'NAME=VALUE',
      );
    const [, name, value] = m as unknown as [string, string, string];
    if (!(THRESHOLD_NAMES as string[]).includes(name))
      throw usage(
        `--threshold ${pair}: unknown threshold ${JSON.stringify(name)}; allowed: ${allowed}`,
        '--threshold',
        `one of ${allowed}`,
      );
    check({ [name as ThresholdName]: value }, '--threshold');
    out[name] = value;
  }
  return out;
}

/** `report management`: the JSON and the HTML come from the backend (a server renders them itself), PDF and DOCX are drawn here from the JSON. */
export function createManagementReportCommand(ctx: CliContext): Command {
  return new Command('management')
    .description(
      'the state of compliance for the management: training, consents, DSFAs, legal texts and banner, with charts (HTML, PDF, DOCX or JSON)',
    )
    .option(
      '--from <date>',
      'first day of the period, YYYY-MM-DD (default: the first day of the month eleven months before --to)',
    )
    .option('--to <date>', 'last day of the period, YYYY-MM-DD (default: today, UTC)')
    .addOption(
      new Option(
        '--format <format>',
        'html, pdf, docx or json (default: by the extension of -o, else json with --json, else html)',
      ).choices(FORMATS),
    )
    .option('-o, --output <file>', 'file to write (required for pdf and docx; html and json go to stdout without it)')
    .addOption(new Option('--lang <lang>', 'language: de or en').choices(REPORT_LANGUAGES).default('de'))
    .option('--time-zone <zone>', 'IANA zone of the times shown, e.g. Europe/Berlin (default: TZ, else the system)')
    .option('--thresholds <file>', 'JSON object of thresholds, e.g. {"min_completion_rate": 95} (- reads stdin)')
    .option(
      '--threshold <name=value>',
      `one threshold, repeatable, over --thresholds: ${THRESHOLD_NAMES.join(', ')}`,
      collect,
    )
    .action((o: ManagementOpts) => run(ctx, o));
}

export async function run(ctx: CliContext, o: ManagementOpts): Promise<void> {
  const format = outputFormat('report management', EXTENSIONS, o, ctx.config().json ? 'json' : 'html');
  if ((format === 'pdf' || format === 'docx') && !o.output)
    throw usage(`a ${format.toUpperCase()} report needs -o FILE`, '--output', `required with --format ${format}`);
  const timeZone = zoneOf(ctx, o.timeZone);
  const thresholds = await thresholdsOf(ctx, o);
  const b = await ctx.backend();
  const req = { tenant: ctx.config().tenant, actor: ctx.config().user };
  const query = { from: o.from, to: o.to, ...thresholds };
  if (format === 'html') {
    const page = await b.reports.managementHtml({ ...req, query: { ...query, lang: o.lang, time_zone: timeZone } });
    if (!o.output) return writeOut(ctx, Buffer.from(page.data).toString('utf8').replace(/\n$/, ''));
    await writeOutputFile(o.output, page.data);
    return note(ctx, `wrote ${o.output}`);
  }
  const report = await b.reports.management({ ...req, query });
  if (format === 'json') {
    if (!o.output) return printJson(ctx, report);
    await writeOutputFile(o.output, JSON.stringify(report) + '\n');
    return note(ctx, `wrote ${o.output}`);
  }
  const { managementDocument } = await import('../../../domain/report/management-report.document.js');
  const doc = managementDocument(report, { lang: o.lang, timeZone });
  const render =
    format === 'pdf'
      ? (await import('../../../services/report/pdf.js')).renderPdf
      : (await import('../../../services/report/docx.js')).renderDocx;
  await writeOutputFile(o.output!, await render(doc));
  note(ctx, `wrote ${o.output}`);
}
