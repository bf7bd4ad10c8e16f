import { Command, Option } from 'commander';
import { shortId } from '../../domain/short-id.js';
import { isoLocal } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import type { Dsfa, DsfaAuditEntry, DsfaStats } from '../../domain/dsfa/dsfa.schema.js';
import { DSFA_STATUSES, RISK_LEVELS } from '../../domain/dsfa/dsfa.values.js';
import {
  DSFA_TRIGGERS,
  inLanguage,
  screen,
  screeningMarkdown,
  screeningText,
  screeningTitle,
  WP248_CRITERIA,
  type ScreeningResult,
} from '../../domain/dsfa/screening.js';
import { REPORT_LANGUAGES, type ReportLanguage } from '../../domain/report-locale.js';
import { parseOrThrow } from '../../domain/validation.js';
import type { CliContext } from '../context.js';
import { collect, defined, listFlag, readJson, textLanguage } from '../input.js';
import { createDsfaReportCommand } from './dsfa-report.js';
import { additionPairs, bodyFrom, camel, editList, fieldOptions, LIST_FLAGS, type FieldOpts } from './dsfa-fields.js';
import { usesTenant, writes } from '../store-access.js';
import { note, printJson, printList, printRecord, writeOut, type Column } from '../output.js';
import { flagFields } from '../flag-names.js';

const req = (ctx: CliContext) => ({ tenant: ctx.config().tenant, actor: ctx.config().user });

const dsfaPairs = (d: Dsfa): Array<[string, unknown]> => [
  ['id', d.id],
  ['title', d.title],
  ['status', d.status],
  ['risk_level', d.risk_level],
  ['description', d.description],
  ['processing_activity', d.processing_activity],
  ['data_categories', d.data_categories],
  ['recipients', d.recipients],
  ['measures', d.measures],
  ['approved_by', d.approved_by],
  ['approved_at', d.approved_at],
  ['created_by', d.created_by],
  ['created_at', d.created_at],
  ['updated_at', d.updated_at],
  ['ai_use_case_modules', d.ai_use_case_modules.map((m) => `${m.name || m.id} (${m.use_case_type})`)],
  ...additionPairs(d),
];

const listColumns: Column<Dsfa>[] = [
  { header: 'ID', value: (d) => d.id, id: true },
  { header: 'TITLE', value: (d) => d.title },
  { header: 'STATUS', value: (d) => d.status },
  { header: 'RISK', value: (d) => d.risk_level },
  { header: 'AI', value: (d) => d.ai_use_case_modules.length },
  { header: 'UPDATED', value: (d) => d.updated_at.slice(0, 19) },
];

const auditColumns: Column<DsfaAuditEntry>[] = [
  { header: 'WHEN', value: (e) => e.created_at.slice(0, 19) },
  { header: 'ACTION', value: (e) => e.action },
  { header: 'DSFA', value: (e) => e.dsfa_id, id: true },
  { header: 'BY', value: (e) => e.changed_by },
  { header: 'FIELDS', value: (e) => Object.keys({ ...e.old_values, ...e.new_values }).join(', ') },
];

async function promptCreate(ctx: CliContext): Promise<Record<string, unknown>> {
  const { input, select } = await import('@inquirer/prompts');
  const context = { input: ctx.io.stdin, output: ctx.io.stderr };
  /** One item per line, so an item keeps its commas; an empty line ends the list. */
  const items = async (label: string): Promise<string[]> => {
    const out: string[] = [];
    for (;;) {
      const v = (await input({ message: `${label} ${out.length + 1} (empty line ends)` }, context)).trim();
      if (!v) return out;
      out.push(v);
    }
  };
  const title = await input(
    { message: 'Title', required: true, validate: (v) => (v.trim() ? true : 'a title is required') },
    context,
  );
  const processing_activity = await input({ message: 'Processing activity' }, context);
  const description = await input({ message: 'Description' }, context);
  const risk_level = await select(
    { message: 'Risk level', default: 'medium', choices: RISK_LEVELS.map((v) => ({ value: v })) },
    context,
  );
  const data_categories = await items('Data category');
  const recipients = await items('Recipient');
  const measures = await items('Measure');
  return { title, processing_activity, description, risk_level, data_categories, recipients, measures };
}

async function screeningAnswers(
  ctx: CliContext,
  o: { criteria?: string[]; trigger?: string[]; file?: string; title?: string; processingActivity?: string },
  lang: ReportLanguage,
): Promise<unknown> {
  const given = o.criteria || o.trigger || o.file;
  if (!given && ctx.io.stdinIsTTY && ctx.io.stderrIsTTY) {
    const { checkbox } = await import('@inquirer/prompts');
    const context = { input: ctx.io.stdin, output: ctx.io.stderr };
    const t = screeningText(lang);
    const choices = (items: typeof WP248_CRITERIA) =>
      inLanguage(items, lang).map((x) => ({ value: x.id, name: x.label, description: x.explanation }));
    const triggers = await checkbox({ message: t.askTriggers, choices: choices(DSFA_TRIGGERS) }, context);
    const criteria = await checkbox({ message: t.askCriteria, choices: choices(WP248_CRITERIA) }, context);
    return { title: o.title, processing_activity: o.processingActivity, triggers, criteria };
  }
  if (!given)
    throw new DomainError(
      'bad_request',
      'dsfa screen needs answers: --criteria, --trigger or --file (or run it in a terminal to be asked)',
    );
  const base = o.file ? ((await readJson(ctx, o.file)) as Record<string, unknown>) : {};
  return {
    ...base,
    ...defined({
      title: o.title,
      processing_activity: o.processingActivity,
      criteria: listFlag(o.criteria),
      triggers: listFlag(o.trigger),
    }),
  };
}

function printScreening(ctx: CliContext, r: ScreeningResult, lang: ReportLanguage): void {
  writeOut(ctx, screeningText(lang).verdict(r.required));
  for (const reason of r.reasons) writeOut(ctx, `- ${reason}`);
  writeOut(ctx, r.recommendation);
}

export function createDsfaCommand(ctx: CliContext): Command {
  const dsfa = new Command('dsfa').description('data protection impact assessments (Art. 35 GDPR)');

  dsfa
    .command('list')
    .description('list assessments, newest first')
    .addOption(new Option('--status <status>', `filter: ${DSFA_STATUSES.join(', ')}`))
    .addOption(new Option('--risk-level <level>', `filter: ${RISK_LEVELS.join(', ')}`))
    .option('--search <text>', 'only those whose title, description or processing activity contains the text')
    .option('--skip <n>', 'records to skip (default 0)')
    .option('--limit <n>', 'records to return, 1 to 500 (default 100)')
    .action(async (o: { status?: string; riskLevel?: string; search?: string; skip?: string; limit?: string }) => {
      const b = await ctx.backend();
      const rows = await b.dsfa.list({
        ...req(ctx),
        query: { status: o.status, risk_level: o.riskLevel, search: o.search, skip: o.skip, limit: o.limit },
      });
      await printList(ctx, rows, listColumns, { empty: 'no assessments' });
    });

  dsfa
    .command('get')
    .description('show one assessment')
    .argument('<id>')
    .action(async (id: string) => {
      const d = await (await ctx.backend()).dsfa.get({ ...req(ctx), params: { id } });
      await printRecord(ctx, d, dsfaPairs(d));
    });

  fieldOptions(
    usesTenant(writes(dsfa.command('create')), 'starts').description(
      'create an assessment (asks for the fields on a terminal)',
    ),
  )
    .option('--created-by <name>', 'author (default: --user)')
    .action(async (o: FieldOpts & { createdBy?: string }) => {
      let body = await bodyFrom(ctx, o);
      if (o.createdBy) body.created_by = o.createdBy;
      if (body.title === undefined) {
        if (!(ctx.io.stdinIsTTY && ctx.io.stderrIsTTY))
          throw new DomainError(
            'bad_request',
            'dsfa create needs --title (or a JSON body with --file); without a terminal nothing is asked',
            [{ path: 'title', message: 'required' }],
          );
        body = { ...(await promptCreate(ctx)), ...body };
      }
      const d = await (await ctx.backend()).dsfa.create({ ...req(ctx), body });
      if (!ctx.config().json && ctx.io.stderrIsTTY) note(ctx, `created DSFA ${shortId(d.id)}`);
      await printRecord(ctx, d, dsfaPairs(d));
    });

  const update = fieldOptions(
    writes(dsfa.command('update'))
      .description('change fields of an assessment; fields not given stay unchanged')
      .argument('<id>'),
  );
  for (const [flag, what] of LIST_FLAGS)
    update
      .option(`--add-${flag} <value>`, `add one ${what}, keeping the others (repeatable)`, collect)
      .option(`--remove-${flag} <value>`, `remove one ${what} (repeatable; it must be there)`, collect);
  update.action(async (id: string, o: FieldOpts & Record<string, string[] | undefined>) => {
    const api = (await ctx.backend()).dsfa;
    let stored: Promise<Dsfa> | undefined;
    const current = () => (stored ??= api.get({ ...req(ctx), params: { id } }));
    const body = await bodyFrom(ctx, o as FieldOpts, current);
    const edits = LIST_FLAGS.filter(([flag]) => o[camel(`add-${flag}`)] || o[camel(`remove-${flag}`)]);
    for (const [flag, , field] of edits) {
      if (body[field] !== undefined)
        throw new DomainError(
          'bad_request',
          `--${flag} replaces the list; --add-${flag}/--remove-${flag} edit it: use one or the other`,
        );
      const list = (await current())[field] ?? [];
      body[field] = editList(list, o[camel(`add-${flag}`)], o[camel(`remove-${flag}`)], flag);
    }
    const d = await api.update({ ...req(ctx), params: { id }, body });
    await printRecord(ctx, d, dsfaPairs(d));
  });

  writes(dsfa.command('set-status'))
    .description(`change the status: ${DSFA_STATUSES.join(', ')} (approved records approved_at)`)
    .argument('<id>')
    .argument('<status>')
    .option('--approved-by <name>', 'approver, recorded with status approved')
    .action(async (id: string, status: string, o: { approvedBy?: string }) => {
      const d = await (
        await ctx.backend()
      ).dsfa.setStatus({ ...req(ctx), params: { id }, body: defined({ status, approved_by: o.approvedBy }) });
      await printRecord(ctx, d, dsfaPairs(d));
    });

  usesTenant(
    writes(dsfa.command('workflow'), (_o, [workflow]) => (workflow === undefined ? 'read' : 'write')),
    (_o, [workflow]) => (workflow === undefined ? 'known' : 'starts'),
  )
    .description(
      "show or choose the tenant's review workflow: open (any status to any other) or strict " +
        '(draft → in-review → approved, in-review → draft, approved → needs-update → in-review; four eyes)',
    )
    .argument('[workflow]', 'open or strict')
    .action(async (workflow: string | undefined) => {
      const api = (await ctx.backend()).dsfa;
      const s = workflow ? await api.updateSettings({ ...req(ctx), body: { workflow } }) : await api.settings(req(ctx));
      await printRecord(ctx, s, [
        ['workflow', s.workflow],
        ['changed by', s.updated_by ?? '-'],
        ['changed at', s.updated_at ?? '-'],
      ]);
    });

  writes(dsfa.command('delete'))
    .description('delete an assessment (the deletion is kept in the audit trail)')
    .argument('<id>')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (id: string, o: { yes?: boolean }) => {
      if (!o.yes) {
        if (!(ctx.io.stdinIsTTY && ctx.io.stderrIsTTY))
          throw new DomainError('bad_request', 'dsfa delete needs --yes when it cannot ask for confirmation');
        const { confirm } = await import('@inquirer/prompts');
        const ok = await confirm(
          { message: `Delete DSFA ${id}?`, default: false },
          { input: ctx.io.stdin, output: ctx.io.stderr },
        );
        if (!ok) throw new DomainError('conflict', 'not deleted');
      }
      const r = await (await ctx.backend()).dsfa.delete({ ...req(ctx), params: { id } });
      if (ctx.config().json) printJson(ctx, r);
      else writeOut(ctx, r.message);
    });

  dsfa
    .command('stats')
    .description('counts by status and risk level')
    .action(async () => {
      const s: DsfaStats = await (await ctx.backend()).dsfa.stats(req(ctx));
      await printRecord(ctx, s, [
        ['total', s.total],
        ...DSFA_STATUSES.map((k) => [`status ${k}`, s.by_status[k] ?? 0] as [string, unknown]),
        ...RISK_LEVELS.map((k) => [`risk ${k}`, s.by_risk_level[k] ?? 0] as [string, unknown]),
      ]);
    });

  flagFields(dsfa.command('audit-log'), { dsfa_id: '--dsfa' })
    .description('audit trail of all assessments, newest first')
    .option('--dsfa <id>', 'only entries of this assessment')
    .option('--limit <n>', 'entries to return, 1 to 500 (default 50)')
    .option('--offset <n>', 'entries to skip (default 0)')
    .action(async (o: { dsfa?: string; limit?: string; offset?: string }) => {
      const rows = await (
        await ctx.backend()
      ).dsfa.auditLog({ ...req(ctx), query: { dsfa_id: o.dsfa, limit: o.limit, offset: o.offset } });
      await printList(ctx, rows, auditColumns, { empty: 'no audit entries' });
    });

  usesTenant(
    writes(dsfa.command('screen'), (o) => (o.create ? 'write' : 'read')),
    (o) => (o.create ? 'starts' : 'known'),
  )
    .description('check whether a DSFA is required (WP248 criteria and the mandatory cases)')
    .option(
      '--criteria <ids>',
      `WP248 criteria met, comma-separated: ${WP248_CRITERIA.map((c) => c.id).join(', ')}`,
      collect,
    )
    .option('--trigger <ids>', `mandatory cases that apply: ${DSFA_TRIGGERS.map((t) => t.id).join(', ')}`, collect)
    .option('-f, --file <file>', 'JSON answers {title, processing_activity, criteria[], triggers[]}; - reads stdin')
    .option('--title <text>', 'title of the DSFA created with --create')
    .option('--processing-activity <text>', 'the processing activity screened')
    .option('--create', 'create a draft DSFA that records the answers')
    .addOption(
      new Option(
        '--lang <lang>',
        'language of the verdict and of the texts --create writes: de or en (default: COMPLIANCE_LANG, else de)',
      ).choices(REPORT_LANGUAGES),
    )
    .action(
      async (o: {
        criteria?: string[];
        trigger?: string[];
        file?: string;
        title?: string;
        processingActivity?: string;
        create?: boolean;
        lang?: ReportLanguage;
      }) => {
        const lang = textLanguage(ctx, o.lang);
        const t = screeningText(lang);
        const { ScreeningAnswersSchema } = await import('../../domain/dsfa/screening.schema.js');
        const answers = parseOrThrow(ScreeningAnswersSchema, await screeningAnswers(ctx, o, lang), {
          what: 'screening answers',
        });
        const result = screen(answers, lang);
        let created: Dsfa | undefined;
        if (o.create) {
          const day = isoLocal(ctx.clock.now()).slice(0, 10);
          const fallback = screeningTitle(answers.processing_activity, day, lang);
          if (!answers.title && ctx.io.stdinIsTTY && ctx.io.stderrIsTTY) {
            const { input } = await import('@inquirer/prompts');
            const context = { input: ctx.io.stdin, output: ctx.io.stderr };
            answers.title = (await input({ message: t.askTitle, default: fallback }, context)).trim();
          }
          created = await (
            await ctx.backend()
          ).dsfa.create({
            ...req(ctx),
            body: {
              title: answers.title || fallback,
              processing_activity: answers.processing_activity ?? '',
              status: 'draft',
              risk_level:
                result.triggers_met.length > 0
                  ? 'high'
                  : result.required
                    ? 'high'
                    : result.criteria_met.length
                      ? 'medium'
                      : 'low',
              description: screeningMarkdown(answers, result, day, lang),
            },
          });
        }
        if (ctx.config().json) return printJson(ctx, { ...result, ...(created ? { dsfa: created } : {}) });
        printScreening(ctx, result, lang);
        if (created) writeOut(ctx, t.created(shortId(created.id)));
      },
    );

  dsfa.addCommand(createDsfaReportCommand(ctx));

  return dsfa;
}
