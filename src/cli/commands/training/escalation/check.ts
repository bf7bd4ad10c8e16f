import type { Command } from 'commander';
import type { Backend } from '../../../../backend/backend.js';
import { DomainError } from '../../../../domain/errors.js';
import type { CliContext } from '../../../context.js';
import { printJson, printList } from '../../../output.js';
import { unlessDryRun, writes } from '../../../store-access.js';
import { asOf, req } from '../shared.js';

/** `escalation check`: raise the levels of overdue assignments, and queue (or show) their e-mail. */
export interface CheckOptions {
  asOf?: string;
  dryRun?: boolean;
  force?: boolean;
}

export function register(escalation: Command, ctx: CliContext): Command {
  return writes(escalation.command('check'), unlessDryRun)
    .description('raise escalation levels of overdue assignments (7/14/30/45 days)')
    .option('--as-of <date>', 'escalate as of this date; a date in the future needs --dry-run or --force')
    .option('--dry-run', 'show what would be escalated without writing')
    .option('--force', 'write escalations for an --as-of date in the future')
    .action((o: CheckOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: CheckOptions): Promise<void> {
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
  ctx.io.stderr.write(`${r.total_checked} overdue checked, ${r.escalated} escalated${r.dry_run ? ' (dry run)' : ''}\n`);
  printMail(ctx, r);
}

/** The e-mail of the run: a dry run shows each message, a real one says how many were queued. */
function printMail(ctx: CliContext, r: Awaited<ReturnType<Backend['training']['escalate']>>): void {
  const mail = r.notifications;
  if (!mail) return;
  for (const m of mail.messages)
    ctx.io.stderr.write(`\n--- e-mail to ${m.to} (${m.language}): ${m.subject}\n${m.body_text}\n`);
  if (!r.dry_run && mail.queued) ctx.io.stderr.write(`${mail.queued} e-mail(s) queued\n`);
  for (const u of mail.unaddressed)
    ctx.io.stderr.write(`no e-mail for level ${u.level} of assignment ${u.assignment_id}: ${u.reason}\n`);
}
