import { outputFormat, writeOutputFile } from '../../output-file.js';
import { Command, Option } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import { defined, textLanguage } from '../../input.js';
import { REPORT_LANGUAGES, type ReportLanguage } from '../../../domain/report-locale.js';
import type { CliContext } from '../../context.js';
import { printError, printJson, printList, printRecord, writeOut } from '../../output.js';
import type { Backend } from '../../../backend/backend.js';
import { verificationUrl } from '../../../domain/training/training.rules.js';
import { req } from './shared.js';
import { writes } from '../../store-access.js';

export function addCertificateCommands(ctx: CliContext, training: Command) {
  const certs = training.command('certificates').description('certificates of completed trainings');
  writes(certs.command('generate'))
    .description('issue the certificate of a completed assignment with a passed quiz')
    .argument('<assignment-id>')
    .action(async (id: string) => {
      const r = await (
        await ctx.backend()
      ).training.generateCertificate({ ...req(ctx), params: { assignmentId: id }, body: {} });
      await printRecord(ctx, r, [
        ['certificate_id', r.certificate_id],
        ['verification_code', r.verification_code],
        ['assignment', r.assignment.id],
        ['module', r.assignment.module_title],
      ]);
    });
  certs
    .command('list')
    .description('list certificates, newest first')
    .action(async () => {
      await printList(
        ctx,
        await (await ctx.backend()).training.certificates(req(ctx)),
        [
          { header: 'ID', value: (c) => c.id, id: true },
          { header: 'USER', value: (c) => c.user_name },
          { header: 'MODULE', value: (c) => c.module_code },
          { header: 'SCORE', value: (c) => `${c.score}%` },
          { header: 'ISSUED', value: (c) => c.issued_at.slice(0, 10) },
          { header: 'VALID UNTIL', value: (c) => c.valid_until.slice(0, 10) },
          { header: 'CODE', value: (c) => c.verification_code },
        ],
        { empty: 'no certificates' },
      );
    });
  certs
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
    .action(async (id: string, o: { output: string; verifyUrl?: string; lang?: ReportLanguage }) => {
      outputFormat('certificates pdf', { pdf: ['pdf'] }, o, 'pdf');
      const query = { ...defined({ verify_url: o.verifyUrl }), lang: textLanguage(ctx, o.lang) };
      const pdf = await (await ctx.backend()).training.certificatePdf({ ...req(ctx), params: { id }, query });
      await writeOutputFile(o.output, pdf.data);
      ctx.io.stderr.write(`wrote ${o.output}\n`);
    });
  certs
    .command('verify')
    .argument('<id-or-code>', 'the certificate id, the verification code printed on it, or the URL in its QR code')
    .description(
      'check a certificate by its id, printed code or QR URL; exits 6 when it does not verify (unknown, fields edited, or expired)',
    )
    .action(async (input: string) => {
      const { tenant } = req(ctx);
      const url = verificationUrl(input);
      if (url && url.tenant !== tenant)
        throw new DomainError(
          'bad_request',
          `the verification URL is for tenant ${url.tenant}, this command runs for tenant ${tenant}: add --tenant ${url.tenant}`,
          [{ path: 'tenant', message: `the URL's tenant_id is ${url.tenant}` }],
        );
      let r: Awaited<ReturnType<Backend['training']['verify']>>;
      try {
        r = await (await ctx.backend()).training.verify({ ...req(ctx), params: { id: url?.code ?? input } });
      } catch (e) {
        // nothing in the store carries that code or id: the certificate does not verify (a forged one looks so)
        if (!(e instanceof DomainError) || e.code !== 'not_found') throw e;
        if (ctx.config().json) printError(ctx, e);
        else writeOut(ctx, `NOT valid: ${e.message} (tenant ${tenant})`);
        ctx.exitCode = 6;
        return;
      }
      const c = r.certificate;
      const verdict = !r.signature_valid
        ? 'NOT valid (the signature does not match its fields)'
        : r.expired
          ? `NOT valid (expired on ${c.valid_until.slice(0, 10)})`
          : 'valid';
      if (ctx.config().json) printJson(ctx, r);
      else writeOut(ctx, `${verdict}: ${c.user_name}, ${c.module_title}, ${c.score}%, code ${c.verification_code}`);
      if (!r.valid) ctx.exitCode = 6;
    });
}
