import { Option, type Command } from 'commander';
import { REPORT_LANGUAGES, type ReportLanguage } from '../../../../domain/report-locale.js';
import type { CliContext } from '../../../context.js';
import { defined, textLanguage } from '../../../input.js';
import { outputFormat, writeOutputFile } from '../../../output-file.js';
import { req } from '../shared.js';

/** `certificates pdf <id> -o FILE`: the certificate as a PDF with a QR code to verify it. */
export interface PdfOptions {
  id: string;
  output: string;
  verifyUrl?: string;
  lang?: ReportLanguage;
}

export function register(certs: Command, ctx: CliContext): Command {
  return certs
    .command('pdf')
    .description('write a certificate as a PDF with a QR code to verify it')
    .argument('<id>')
    .requiredOption('-o, --output <file>')
    .option(
      '--verify-url <base>',
      "the QR code links to this server's public verification route (its /sdk/v1 URL); " +
        'default: the remote server in remote mode, else the printed code alone',
    )
    .addOption(
      new Option('--lang <lang>', 'language of the certificate: de or en (default: COMPLIANCE_LANG, else de)').choices(
        REPORT_LANGUAGES,
      ),
    )
    .action((id: string, o: Omit<PdfOptions, 'id'>) => run(ctx, { ...o, id }));
}

export async function run(ctx: CliContext, o: PdfOptions): Promise<void> {
  outputFormat('certificates pdf', { pdf: ['pdf'] }, o, 'pdf');
  const query = { ...defined({ verify_url: o.verifyUrl }), lang: textLanguage(ctx, o.lang) };
  const pdf = await (await ctx.backend()).training.certificatePdf({ ...req(ctx), params: { id: o.id }, query });
  await writeOutputFile(o.output, pdf.data);
  ctx.io.stderr.write(`wrote ${o.output}\n`);
}
