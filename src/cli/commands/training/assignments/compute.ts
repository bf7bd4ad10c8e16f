import { Option, type Command } from 'commander';
import type { Backend } from '../../../../backend/backend.js';
import { DomainError, type ErrorDetail } from '../../../../domain/errors.js';
import type { CliContext } from '../../../context.js';
import { defined, readText } from '../../../input.js';
import { note, printJson, printList, writeOut } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { flagFields } from '../../../flag-names.js';
import { num, parseCsv, req } from '../shared.js';
import { assignmentColumns } from './columns.js';

/** `training assignments compute`: one user by flags, or a staff list (CSV) with --users. */
export interface ComputeOptions {
  users?: string;
  userId?: string;
  name?: string;
  email?: string;
  managerEmail?: string;
  roles?: string;
  trigger?: string;
  deadlineDays?: string;
}

export function register(asg: Command, ctx: CliContext): Command {
  return flagFields(writes(asg.command('compute')), {
    user_name: '--name',
    user_email: '--email',
    manager_email: '--manager-email',
  })
    .description('assign what the matrix calls for: one user by flags, or a staff list with --users')
    .option(
      '--users <users.csv>',
      'CSV with user_id,user_name,user_email,roles (roles separated by ; or |), optionally manager_email',
    )
    .option('--user-id <id>')
    .option('--name <name>')
    .option('--email <email>')
    .option('--manager-email <email>', 'the team lead, told of a level 2 escalation')
    .option('--roles <roles>', 'e.g. R9,R5')
    .addOption(new Option('--trigger <t>', 'onboarding, annual, event, manual'))
    .option('--deadline-days <n>', 'default 30')
    .action((o: ComputeOptions) => run(ctx, o));
}

/** Assigns what the role matrix calls for; rows of a staff list that fail validation are reported (exit 6). */
export async function run(ctx: CliContext, o: ComputeOptions): Promise<void> {
  const api = (await ctx.backend()).training;
  if (o.users) return computeStaff(ctx, api, o, o.users);
  if (!o.userId || !o.name || !o.email || !o.roles)
    throw new DomainError(
      'bad_request',
      'assignments compute needs --users FILE, or --user-id, --name, --email and --roles',
    );
  const r = await api.compute({
    ...req(ctx),
    body: defined({
      user_id: o.userId,
      user_name: o.name,
      user_email: o.email,
      manager_email: o.managerEmail,
      roles: o.roles.split(/[;|,\s]+/).filter(Boolean),
      trigger: o.trigger,
      deadline_days: num(o.deadlineDays),
    }),
  });
  if (ctx.config().json) return printJson(ctx, r);
  await printList(ctx, r.assignments, assignmentColumns, { empty: 'nothing new to assign' });
  note(ctx, `${r.created} assignment(s) created`);
}

/** A staff list: every valid row in one request, the others named with their line. */
async function computeStaff(ctx: CliContext, api: Backend['training'], o: ComputeOptions, file: string) {
  const { ComputeInput } = await import('../../../../domain/training/training.schema.js');
  const { detailsFromZod } = await import('../../../../domain/validation.js');
  // the options every row shares are checked once, before the file is read: a bad one is one usage error
  const shared = ComputeInput.pick({ trigger: true, deadline_days: true }).safeParse(
    { trigger: o.trigger, deadline_days: num(o.deadlineDays) },
    { reportInput: true },
  );
  if (!shared.success) throw inFlags(detailsFromZod(shared.error));
  const { fields, rows } = await parseCsv(await readText(ctx, file));
  const missing = ['user_id', 'user_name', 'user_email', 'roles'].filter((f) => !fields.includes(f));
  if (missing.length)
    throw new DomainError(
      'bad_request',
      `${file}: missing column(s) ${missing.join(', ')}; found ${fields.join(', ')}`,
    );
  const users = [];
  const refused: Array<{ line: number; reason: string }> = [];
  for (const { line, row } of rows) {
    const parsed = ComputeInput.safeParse(
      {
        // an empty cell is a missing value, so the message says "required" rather than "invalid"
        user_id: row.user_id?.trim() || undefined,
        user_name: row.user_name?.trim() || undefined,
        user_email: row.user_email?.trim() || undefined,
        manager_email: row.manager_email?.trim() || undefined,
        roles: (row.roles ?? '').split(/[;|,\s]+/).filter(Boolean),
        trigger: o.trigger,
        deadline_days: num(o.deadlineDays),
      },
      { reportInput: true },
    );
    if (parsed.success) users.push(parsed.data);
    else
      refused.push({
        line,
        reason: detailsFromZod(parsed.error)
          .map((d) => `${d.path}: ${d.message}`)
          .join('; '),
      });
  }
  for (const r of refused) note(ctx, `line ${r.line}: ${r.reason}`);
  const r = users.length ? await api.computeMany({ ...req(ctx), body: { users } }) : { users: 0, created: 0 };
  const summary = { users: r.users, created: r.created, refused: refused.length };
  if (ctx.config().json) printJson(ctx, { ...summary, refusals: refused });
  else
    writeOut(
      ctx,
      `${summary.users} user(s), ${summary.created} assignment(s) created, ${summary.refused} row(s) refused`,
    );
  if (refused.length) ctx.exitCode = 6;
}

/** The error of options every row shares, in the words of their flags. */
function inFlags(zodDetails: ErrorDetail[]): DomainError {
  const flags: Record<string, string> = { trigger: '--trigger', deadline_days: '--deadline-days' };
  const details = zodDetails.map((d) => ({ path: flags[d.path] ?? d.path, message: d.message }));
  return new DomainError('validation', details.map((d) => `${d.path}: ${d.message}`).join('; '), details);
}
