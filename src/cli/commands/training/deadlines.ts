import { writeOutputFile } from '../../output-file.js';
import { Command, Option } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { Assignment } from '../../../domain/training/training.schema.js';
import type { CliContext } from '../../context.js';
import { printJson, printList, printRecord, writeOut } from '../../output.js';
import { req } from './shared.js';

/** --as-of takes a date (2026-12-01, meaning its start in UTC) or a full ISO timestamp. */
function asOf(v: string | undefined): string | undefined {
  if (!v) return undefined;
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v;
  if (Number.isNaN(Date.parse(iso)) || !/[zZ]|[+-]\d\d:?\d\d$/.test(iso))
    throw new DomainError('validation', `--as-of ${v}: expected a date (2026-12-01) or an ISO timestamp with a zone`, [
      { path: 'as_of', message: 'invalid date' },
    ]);
  return new Date(iso).toISOString();
}

const xml = (s: string) =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/** JUnit XML: each overdue assignment is a failed test case, so CI servers list them. */
export function junit(items: Array<Assignment & { days_overdue: number; level: number }>, at: string): string {
  const cases = items.length
    ? items.map(
        (a) =>
          `    <testcase classname="training.${xml(a.module_code)}" name="${xml(`${a.user_name} <${a.user_email}>: ${a.module_title}`)}" time="0">\n      <failure message="${xml(`overdue by ${a.days_overdue} day(s), escalation level ${a.level}`)}" type="overdue">assignment ${xml(a.id)}, deadline ${xml(a.deadline)}</failure>\n    </testcase>`,
      )
    : ['    <testcase classname="training" name="no overdue trainings" time="0"/>'];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="compliance training" tests="${Math.max(1, items.length)}" failures="${items.length}">\n  <testsuite name="overdue trainings as of ${xml(at)}" tests="${Math.max(1, items.length)}" failures="${items.length}" timestamp="${xml(at)}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

export function addDeadlineCommands(ctx: CliContext, training: Command) {
  training
    .command('deadlines')
    .description('upcoming deadlines, soonest first')
    .option('--limit <n>', 'default 50')
    .option('--as-of <date>')
    .action(async (o: { limit?: string; asOf?: string }) => {
      const rows = await (
        await ctx.backend()
      ).training.deadlines({ ...req(ctx), query: { limit: o.limit, as_of: asOf(o.asOf) } });
      await printList(
        ctx,
        rows,
        [
          { header: 'DEADLINE', value: (a) => a.deadline },
          { header: 'USER', value: (a) => a.user_name },
          { header: 'MODULE', value: (a) => a.module_code },
          { header: 'STATUS', value: (a) => a.status },
          { header: 'ID', value: (a) => a.id },
        ],
        { empty: 'no upcoming deadlines' },
      );
    });

  training
    .command('overdue')
    .description('CI gate: lists overdue assignments and exits 6 when there are any (at or above --min-level)')
    .option('--min-level <n>', 'only count assignments at this escalation level or above (0-4)', '0')
    .option('--as-of <date>', 'judge as of this date instead of now')
    .addOption(new Option('--format <format>', 'table (default), json or junit').choices(['table', 'json', 'junit']))
    .option('-o, --output <file>', 'write the report to a file')
    .action(async (o: { minLevel: string; asOf?: string; format?: string; output?: string }) => {
      const min = Number(o.minLevel);
      if (!Number.isInteger(min) || min < 0 || min > 4)
        throw new DomainError('validation', `--min-level ${o.minLevel}: expected 0 to 4`, [
          { path: 'min_level', message: '0 to 4' },
        ]);
      const at = asOf(o.asOf) ?? new Date(ctx.clock.now()).toISOString();
      const { escalationLevel } = await import('../../../domain/training/training.rules.js');
      // in place: a CI gate on a large staff reads tens of thousands of rows
      const rows = (await (await ctx.backend()).training.overdue({ ...req(ctx), query: { as_of: at } }))
        .map((a) => Object.assign(a, { level: Math.max(a.escalation_level, escalationLevel(a.days_overdue)) }))
        .filter((a) => a.level >= min);
      const format = o.format ?? (ctx.config().json ? 'json' : 'table');
      let text: string | undefined;
      if (format === 'junit') text = junit(rows, at);
      // one line: the report can be tens of megabytes, and indentation would cost a third more time and size
      else if (format === 'json') text = JSON.stringify(rows) + '\n';
      if (text !== undefined) {
        if (o.output) await writeOutputFile(o.output, text);
        else ctx.io.stdout.write(text);
      } else {
        await printList(
          ctx,
          rows,
          [
            { header: 'USER', value: (a) => a.user_name },
            { header: 'MODULE', value: (a) => a.module_code },
            { header: 'DEADLINE', value: (a) => a.deadline.slice(0, 10) },
            { header: 'DAYS', value: (a) => a.days_overdue },
            { header: 'LEVEL', value: (a) => a.level },
            { header: 'ID', value: (a) => a.id },
          ],
          { empty: 'no overdue trainings' },
        );
      }
      if (rows.length) {
        ctx.io.stderr.write(`${rows.length} overdue training(s)${min ? ` at escalation level ${min} or above` : ''}\n`);
        ctx.exitCode = 6;
      }
    });

  training
    .command('escalation')
    .description('deadline escalation')
    .command('check')
    .description('raise escalation levels of overdue assignments (7/14/30/45 days)')
    .option('--as-of <date>')
    .option('--dry-run', 'show what would be escalated without writing')
    .action(async (o: { asOf?: string; dryRun?: boolean }) => {
      const r = await (
        await ctx.backend()
      ).training.escalate({ ...req(ctx), body: { as_of: asOf(o.asOf), dry_run: Boolean(o.dryRun) } });
      if (ctx.config().json) return printJson(ctx, r);
      await printList(
        ctx,
        r.results,
        [
          { header: 'USER', value: (x) => x.user_name },
          { header: 'MODULE', value: (x) => x.module_title },
          { header: 'DAYS', value: (x) => x.days_overdue },
          { header: 'LEVEL', value: (x) => `${x.previous_level} → ${x.new_level}` },
          { header: 'ACTION', value: (x) => x.escalation_label },
        ],
        { empty: 'nothing to escalate' },
      );
      ctx.io.stderr.write(
        `${r.total_checked} overdue checked, ${r.escalated} escalated${r.dry_run ? ' (dry run)' : ''}\n`,
      );
    });
}

export function addCertificateCommands(ctx: CliContext, training: Command) {
  const certs = training.command('certificates').description('certificates of completed trainings');
  certs
    .command('generate')
    .argument('<assignment-id>')
    .action(async (id: string) => {
      const r = await (
        await ctx.backend()
      ).training.generateCertificate({ ...req(ctx), params: { assignmentId: id }, body: {} });
      await printRecord(ctx, r, [
        ['certificate_id', r.certificate_id],
        ['assignment', r.assignment.id],
        ['module', r.assignment.module_title],
      ]);
    });
  certs.command('list').action(async () => {
    await printList(
      ctx,
      await (await ctx.backend()).training.certificates(req(ctx)),
      [
        { header: 'ID', value: (c) => c.id },
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
    .argument('<id>')
    .requiredOption('-o, --output <file>')
    .action(async (id: string, o: { output: string }) => {
      const pdf = await (await ctx.backend()).training.certificatePdf({ ...req(ctx), params: { id } });
      await writeOutputFile(o.output, pdf.data);
      ctx.io.stderr.write(`wrote ${o.output}\n`);
    });
  certs
    .command('verify')
    .argument('<id>')
    .description('exits 6 when the certificate does not verify')
    .action(async (id: string) => {
      const r = await (await ctx.backend()).training.verify({ ...req(ctx), params: { id } });
      if (ctx.config().json) printJson(ctx, r);
      else
        writeOut(
          ctx,
          `${r.valid ? 'valid' : 'NOT valid'}: ${r.certificate.user_name}, ${r.certificate.module_title}, ${r.certificate.score}%, code ${r.certificate.verification_code}`,
        );
      if (!r.valid) ctx.exitCode = 6;
    });
}
