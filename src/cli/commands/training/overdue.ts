import { Option, type Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { CliContext } from '../../context.js';
import { jsonText, printList, tableText, type Column } from '../../output.js';
import { outputFormat, writeOutputFile } from '../../output-file.js';
import { junit, type OverdueRow } from './junit.js';
import { asOf, req } from './shared.js';

const OVERDUE_FORMATS = { table: [], json: ['json'], junit: ['xml'] } as const;

/** `training overdue`: the CI gate, exit 6 while any assignment is overdue (at or above --min-level). */
export interface OverdueOptions {
  minLevel: string;
  asOf?: string;
  format?: keyof typeof OVERDUE_FORMATS;
  output?: string;
  personalData: boolean;
}

export function register(training: Command, ctx: CliContext): Command {
  return training
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
    .action((o: OverdueOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: OverdueOptions): Promise<void> {
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
  await report(ctx, rows, format, at, o);
  if (rows.length) {
    ctx.io.stderr.write(`${rows.length} overdue training(s)${min ? ` at escalation level ${min} or above` : ''}\n`);
    ctx.exitCode = 6;
  }
}

/** The report in its format, on stdout or into the file of -o. */
async function report(
  ctx: CliContext,
  rows: OverdueRow[],
  format: keyof typeof OVERDUE_FORMATS,
  at: string,
  o: OverdueOptions,
): Promise<void> {
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
}

/** The JSON report without the fields that name a person. */
const withoutPersonalData = (a: OverdueRow) => {
  const { user_name: _n, user_email: _e, user_id: _i, ...rest } = a;
  return rest;
};
