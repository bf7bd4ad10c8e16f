import { Option, type Command } from 'commander';
import { isoLocal } from '../../../domain/clock.js';
import { DomainError } from '../../../domain/errors.js';
import type { Dsfa } from '../../../domain/dsfa/dsfa.schema.js';
import {
  DSFA_TRIGGERS,
  inLanguage,
  screen,
  screeningMarkdown,
  screeningText,
  screeningTitle,
  WP248_CRITERIA,
  type ScreeningResult,
} from '../../../domain/dsfa/screening.js';
import { REPORT_LANGUAGES, type ReportLanguage } from '../../../domain/report-locale.js';
import { shortId } from '../../../domain/short-id.js';
import { parseOrThrow } from '../../../domain/validation.js';
import type { CliContext } from '../../context.js';
import { collect, defined, listFlag, readJson, textLanguage } from '../../input.js';
import { printJson, writeOut } from '../../output.js';
import { usesTenant, writes } from '../../store-access.js';
import { req } from './shared.js';

/** `dsfa screen`: the answers as flags, a file or (on a terminal) asked; `--create` records them in a draft. */
export interface ScreenOptions {
  criteria?: string[];
  trigger?: string[];
  file?: string;
  title?: string;
  processingActivity?: string;
  create?: boolean;
  lang?: ReportLanguage;
}

export function register(dsfa: Command, ctx: CliContext): Command {
  return usesTenant(
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
    .action((o: ScreenOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: ScreenOptions): Promise<void> {
  const lang = textLanguage(ctx, o.lang);
  const t = screeningText(lang);
  const { ScreeningAnswersSchema } = await import('../../../domain/dsfa/screening.schema.js');
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
        risk_level: riskOf(result),
        description: screeningMarkdown(answers, result, day, lang),
      },
    });
  }
  if (ctx.config().json) return printJson(ctx, { ...result, ...(created ? { dsfa: created } : {}) });
  printScreening(ctx, result, lang);
  if (created) writeOut(ctx, t.created(shortId(created.id)));
}

/** The risk level a draft from a screening starts with: high where a DSFA is required, medium where criteria met. */
const riskOf = (r: ScreeningResult) =>
  r.triggers_met.length > 0 || r.required ? 'high' : r.criteria_met.length ? 'medium' : 'low';

async function screeningAnswers(ctx: CliContext, o: ScreenOptions, lang: ReportLanguage): Promise<unknown> {
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
