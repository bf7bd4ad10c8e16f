import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { printJson, writeOut } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { moduleId, req } from '../shared.js';
import { modelFlags, redactedText, tokens, type ModelOptions } from './shared.js';

/** `content generate-quiz <module>`: new questions in place of the module's. */
export type GenerateQuizOptions = ModelOptions & { module: string; count?: string };

export function register(content: Command, ctx: CliContext): Command {
  return modelFlags(
    writes(content.command('generate-quiz'))
      .argument('<module>')
      .description('generate quiz questions (replaces the module questions)')
      .option('--count <n>', 'default 5'),
  ).action((module: string, o: ModelOptions & { count?: string }) => run(ctx, { ...o, module }));
}

export async function run(ctx: CliContext, o: GenerateQuizOptions): Promise<void> {
  const b = await ctx.backend();
  const r = await b.trainingContent.generateQuiz({
    ...req(ctx),
    body: {
      module_id: await moduleId(ctx, b, o.module),
      count: o.count ? Number(o.count) : undefined,
      language: o.language,
      model: o.model ?? ctx.env.COMPLIANCE_LLM_MODEL,
    },
  });
  if (ctx.config().json) return printJson(ctx, r);
  r.questions.forEach((q, i) =>
    writeOut(
      ctx,
      `${i + 1}. ${q.question}\n${q.options.map((x, j) => `   ${j === q.correct_index ? '*' : '-'} ${x}`).join('\n')}`,
    ),
  );
  ctx.io.stderr.write(`${r.questions.length} questions; redacted: ${redactedText(r.redacted)}; ${tokens(r)}\n`);
}
