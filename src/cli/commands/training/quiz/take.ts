import type { Command } from 'commander';
import type { Backend } from '../../../../backend/backend.js';
import { DomainError } from '../../../../domain/errors.js';
import type { CliContext } from '../../../context.js';
import { readJson } from '../../../input.js';
import { printJson, writeOut } from '../../../output.js';
import { writes } from '../../../store-access.js';
import { req } from '../shared.js';

/** `quiz take <assignment-id>`: the questions on a terminal, or the answers from a file. */
export interface TakeOptions {
  assignmentId: string;
  answers?: string;
}

type Answers = Array<{ question_id: string; selected_index: number }>;
type Quiz = Awaited<ReturnType<Backend['training']['quiz']>>;

export function register(quiz: Command, ctx: CliContext): Command {
  return writes(quiz.command('take'))
    .description(
      'answer the quiz of an assignment in the terminal (or --answers FILE with [{question_id, selected_index}])',
    )
    .argument('<assignment-id>')
    .option('--answers <file>', 'answers as JSON, for scripts')
    .action((assignmentId: string, o: { answers?: string }) => run(ctx, { ...o, assignmentId }));
}

export async function run(ctx: CliContext, o: TakeOptions): Promise<void> {
  const id = o.assignmentId;
  const api = (await ctx.backend()).training;
  const a = await api.getAssignment({ ...req(ctx), params: { id } });
  const q = await api.quiz({ ...req(ctx), params: { moduleId: a.module_id } });
  const started = Date.now();
  const answers = o.answers ? ((await readJson(ctx, o.answers)) as Answers) : await ask(ctx, q);
  const r = await api.submitQuiz({
    ...req(ctx),
    params: { moduleId: a.module_id },
    body: { assignment_id: id, answers, duration_seconds: Math.round((Date.now() - started) / 1000) },
  });
  // a script learns the outcome from the exit code, as from the other checks
  if (!r.passed) ctx.exitCode = 6;
  if (ctx.config().json) return printJson(ctx, r);
  writeOut(
    ctx,
    `${r.passed ? 'Passed' : 'Not passed'}: ${r.score}% (${r.correct_count} of ${r.total_count} correct, ${r.threshold}% needed)`,
  );
  const detail = await api.getModule({ ...req(ctx), params: { id: a.module_id } });
  for (const [i, question] of detail.questions.entries()) {
    const given = answers.find((x) => x.question_id === question.id)?.selected_index;
    const ok = given === question.correct_index;
    const chosen = given === undefined ? '(no answer)' : (question.options[given] ?? `(option ${given})`);
    const lines = [`${ok ? '✓' : '✗'} ${i + 1}. ${question.question}`, `   your answer: ${chosen}`];
    if (!ok) lines.push(`   correct: ${question.options[question.correct_index]}`);
    if (question.explanation) lines.push(`   ${question.explanation}`);
    writeOut(ctx, lines.join('\n'));
  }
}

/** Asks each question on the terminal, one choice at a time. */
async function ask(ctx: CliContext, q: Quiz): Promise<Answers> {
  if (!(ctx.io.stdinIsTTY && ctx.io.stderrIsTTY))
    throw new DomainError(
      'bad_request',
      'quiz take asks its questions on a terminal; without one, pass --answers FILE',
    );
  const { select } = await import('@inquirer/prompts');
  const answers: Answers = [];
  for (const [i, question] of q.questions.entries()) {
    const selected_index = await select(
      {
        message: `${i + 1}/${q.questions.length} ${question.question}`,
        choices: question.options.map((text, value) => ({ name: text, value })),
      },
      { input: ctx.io.stdin, output: ctx.io.stderr },
    );
    answers.push({ question_id: question.id, selected_index });
  }
  return answers;
}
