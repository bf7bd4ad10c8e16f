import { outputFormat, writeOutputFile } from '../../output-file.js';
import { Command, Option } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { Assignment } from '../../../domain/training/training.schema.js';
import type { CliContext } from '../../context.js';
import { jsonText, printJson, printList, tableText, type Column } from '../../output.js';
import { parseWhen, req } from './shared.js';
import { unlessDryRun, writes } from '../../store-access.js';

const asOf = (v: string | undefined) => (v === undefined ? undefined : parseWhen(v, '--as-of', 'as_of'));

/**
 * Text for an XML attribute or element. Characters XML 1.0 cannot carry at all (C0 controls other than tab, line feed
 * and carriage return, lone surrogates, U+FFFE and U+FFFF) are dropped, since no escape exists for them; a report
 * that a CI server cannot parse would hide every overdue training in it.
 */
export const xml = (s: string) => s.replace(NOT_XML, '').replace(/[<>&"'\t\n\r]/g, (c) => XML_ESCAPES[c]!);

/* eslint-disable no-control-regex -- these control characters are exactly what must go */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/* eslint-enable no-control-regex */

const XML_ESCAPES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  '"': '&quot;',
  "'": '&apos;',
  // kept as characters references, so attribute values keep them instead of normalising them to spaces
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

type OverdueRow = Assignment & { days_overdue: number; level: number };

const OVERDUE_FORMATS = { table: [], json: ['json'], junit: ['xml'] } as const;
type OverdueFlags = {
  minLevel: string;
  asOf?: string;
  format?: keyof typeof OVERDUE_FORMATS;
  output?: string;
  personalData: boolean;
};

/** Who a test case is about: the person, or only the assignment id when personal data must stay out of CI logs. */
const subject = (a: OverdueRow, personal: boolean) =>
  personal ? `${a.user_name} <${a.user_email}>` : `assignment ${a.id}`;

/** JUnit XML: each overdue assignment is a failed test case, so CI servers list them. */
export function junit(items: OverdueRow[], at: string, { personal = true } = {}): string {
  const count = Math.max(1, items.length);
  const cases = items.length
    ? items.map((a) => {
        const name = xml(`${subject(a, personal)}: ${a.module_title}`);
        const message = xml(`overdue by ${a.days_overdue} day(s), escalation level ${a.level}`);
        return [
          `    <testcase classname="training.${xml(a.module_code)}" name="${name}" time="0">`,
          `      <failure message="${message}" type="overdue">assignment ${xml(a.id)}, deadline ${xml(a.deadline)}</failure>`,
          '    </testcase>',
        ].join('\n');
      })
    : ['    <testcase classname="training" name="no overdue trainings" time="0"/>'];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="compliance training" tests="${count}" failures="${items.length}">`,
    `  <testsuite name="overdue trainings as of ${xml(at)}" tests="${count}" failures="${items.length}" timestamp="${xml(at)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** The JSON report without the fields that name a person. */
const withoutPersonalData = (a: OverdueRow) => {
  const { user_name: _n, user_email: _e, user_id: _i, ...rest } = a;
  return rest;
};

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
          { header: 'ID', value: (a) => a.id, id: true },
        ],
        { empty: 'no upcoming deadlines' },
      );
    });

  training
    .command('overdue')
    .description('CI gate: lists overdue assignments and exits 6 when there are any (at or above --min-level)')
    .option('--min-level <n>', 'only count assignments at this escalation level or above (0-4)', '0')
    .option('--as-of <date>', 'judge as of this date instead of now')
    .addOption(
      new Option('--format <format>', 'table, json or junit (default: by the extension of -o, else table)').choices([
        'table',
        'json',
        'junit',
      ]),
    )
    .option('-o, --output <file>', 'write the report to a file, in any format')
    .option('--no-personal-data', 'leave names, e-mail addresses and user ids out of the report (for CI logs)')
    .action(async (o: OverdueFlags) => {
      // before the store is opened: a contradiction is a usage error, whatever the store holds
      const format = outputFormat('training overdue', OVERDUE_FORMATS, o, ctx.config().json ? 'json' : 'table');
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
      const personal = o.personalData;
      const columns: Column<OverdueRow>[] = [
        ...(personal ? [{ header: 'USER', value: (a: OverdueRow) => a.user_name }] : []),
        { header: 'MODULE', value: (a) => a.module_code },
        { header: 'DEADLINE', value: (a) => a.deadline.slice(0, 10) },
        { header: 'DAYS', value: (a) => a.days_overdue },
        { header: 'LEVEL', value: (a) => a.level },
        { header: 'ID', value: (a) => a.id, id: true },
      ];
      let text: string | undefined;
      if (format === 'junit') text = junit(rows, at, { personal });
      // indented only on a terminal: the report can be tens of megabytes, and indentation costs a third more
      else if (format === 'json')
        text = jsonText(personal ? rows : rows.map(withoutPersonalData), !o.output && ctx.io.stdoutIsTTY);
      // a file in the table format holds the table a terminal shows
      else if (o.output) text = await tableText(rows, columns, { empty: 'no overdue trainings' });
      if (text === undefined) await printList(ctx, rows, columns, { empty: 'no overdue trainings' });
      else if (o.output) await writeOutputFile(o.output, text);
      else ctx.io.stdout.write(text);
      if (rows.length) {
        ctx.io.stderr.write(`${rows.length} overdue training(s)${min ? ` at escalation level ${min} or above` : ''}\n`);
        ctx.exitCode = 6;
      }
    });

  writes(training.command('escalation').description('deadline escalation').command('check'), unlessDryRun)
    .description('raise escalation levels of overdue assignments (7/14/30/45 days)')
    .option('--as-of <date>', 'escalate as of this date; a date in the future needs --dry-run or --force')
    .option('--dry-run', 'show what would be escalated without writing')
    .option('--force', 'write escalations for an --as-of date in the future')
    .action(async (o: { asOf?: string; dryRun?: boolean; force?: boolean }) => {
      const at = asOf(o.asOf);
      if (at !== undefined && !o.dryRun && !o.force && Date.parse(at) > ctx.clock.now().getTime())
        throw new DomainError(
          'validation',
          `--as-of ${o.asOf} lies in the future: escalations written now would stay; add --dry-run to look ahead, or --force to write them`,
          [{ path: 'as_of', message: 'in the future (needs --dry-run or --force)' }],
        );
      const r = await (
        await ctx.backend()
      ).training.escalate({ ...req(ctx), body: { as_of: at, dry_run: Boolean(o.dryRun) } });
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
      // the e-mail of the run: a dry run shows each message, a real one says how many were queued
      const mail = r.notifications;
      if (mail) {
        for (const m of mail.messages)
          ctx.io.stderr.write(`\n--- e-mail to ${m.to} (${m.language}): ${m.subject}\n${m.body_text}\n`);
        if (!r.dry_run && mail.queued) ctx.io.stderr.write(`${mail.queued} e-mail(s) queued\n`);
        for (const u of mail.unaddressed)
          ctx.io.stderr.write(`no e-mail for level ${u.level} of assignment ${u.assignment_id}: ${u.reason}\n`);
      }
    });
}
