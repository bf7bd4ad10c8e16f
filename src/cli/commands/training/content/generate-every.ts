import type { Command } from 'commander';
import type { Backend } from '../../../../backend/backend.js';
import type { GenerateAllResult } from '../../../../domain/training/content.schema.js';
import type { CliContext } from '../../../context.js';
import { printJson, printList, writeOut } from '../../../output.js';
import { unlessDryRun, writes } from '../../../store-access.js';
import { req } from '../shared.js';
import { modelFlags, tokens, type ModelOptions } from './shared.js';

/** `generate-all` and `generate-all-quiz`: content or a quiz for every module without one. */
export type GenerateAllOptions = ModelOptions & { dryRun?: boolean; concurrency: string; count?: string };
type Kind = 'content' | 'quiz';

/** The definition both verbs share, by what they generate. */
export const defineGenerateAll = (content: Command, kind: Kind) =>
  modelFlags(
    writes(content.command(kind === 'content' ? 'generate-all' : 'generate-all-quiz'), unlessDryRun)
      .description(`generate ${kind === 'content' ? 'content' : 'a quiz'} for every module without one`)
      .option('--dry-run', 'list what would be generated')
      .option('--concurrency <n>', 'generations at the same time (default 2)', '2')
      .option('--count <n>', 'questions per quiz (default 5)'),
  );

/**
 * Asks the server (or the store) which modules lack one, then generates for each with one request per module, so a
 * terminal can show progress; the same with --remote. The loop is the service's (`generateEach`).
 */
export async function generateAll(ctx: CliContext, kind: Kind, o: GenerateAllOptions): Promise<void> {
  const api = (await ctx.backend()).trainingContent;
  const model = o.model ?? ctx.env.COMPLIANCE_LLM_MODEL;
  const count = o.count ? Number(o.count) : undefined;
  const plan = await (kind === 'content' ? api.generateAll : api.generateAllQuiz)({
    ...req(ctx),
    body: { language: o.language, model, count, dry_run: true },
  });
  if (o.dryRun) return printPlan(ctx, plan);
  const concurrency = Math.max(1, Math.min(16, Number(o.concurrency) || 2));
  const bar = await progressBar(ctx, plan.results.length);
  const { generateEach, summarizeGenerations } = await import('../../../../domain/training/content.service.js');
  const results = plan.results.map((r) => ({ ...r }));
  await generateEach(
    results,
    concurrency,
    (module_id) => generateOne(ctx, api, kind, module_id, o),
    () => bar?.increment(),
  );
  bar?.stop();
  const summary = summarizeGenerations(results, false);
  if (ctx.config().json) printJson(ctx, summary);
  else {
    for (const r of results.filter((x) => x.status === 'failed')) ctx.io.stderr.write(`${r.module_code}: ${r.error}\n`);
    writeOut(ctx, `${summary.generated} generated, ${summary.failed} failed; ${tokens(summary)}`);
  }
  if (summary.failed) ctx.exitCode = 1;
}

/** One module's content or quiz, as `generate` and `generate-quiz` ask for it. */
function generateOne(
  ctx: CliContext,
  api: Backend['trainingContent'],
  kind: Kind,
  module_id: string,
  o: GenerateAllOptions,
) {
  const model = o.model ?? ctx.env.COMPLIANCE_LLM_MODEL;
  return kind === 'content'
    ? api.generate({ ...req(ctx), body: { module_id, language: o.language, model } })
    : api.generateQuiz({
        ...req(ctx),
        body: { module_id, language: o.language, model, count: o.count ? Number(o.count) : undefined },
      });
}

async function printPlan(ctx: CliContext, plan: GenerateAllResult): Promise<void> {
  if (ctx.config().json) return printJson(ctx, plan);
  await printList(
    ctx,
    plan.results,
    [
      { header: 'MODULE', value: (r) => r.module_code },
      { header: 'ID', value: (r) => r.module_id, id: true },
    ],
    { empty: 'nothing to generate' },
  );
}

/** A progress bar on a terminal (not with --json, nor for nothing to do). */
async function progressBar(ctx: CliContext, total: number) {
  if (!ctx.io.stderrIsTTY || ctx.config().json || !total) return undefined;
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    { stream: ctx.io.stderr as NodeJS.WriteStream, format: '{bar} {value}/{total} modules | ETA {eta_formatted}' },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}
