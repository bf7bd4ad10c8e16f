import type { Command } from 'commander';
import { DomainError } from '../../../domain/errors.js';
import type { CliContext } from '../../context.js';
import { readJson } from '../../input.js';
import { printJson, printList, writeOut } from '../../output.js';
import { writes } from '../../store-access.js';
import { req } from './shared.js';

/** `training quiz`: the attempts of an assignment, and taking its quiz. */
export function addQuizCommands(ctx: CliContext, training: Command) {
  const quiz = training.command('quiz').description('quizzes');
  quiz
    .command('attempts')
    .description('quiz attempts of an assignment, newest first')
    .argument('<assignment-id>')
    .action(async (id: string) => {
      await printList(
        ctx,
        await (await ctx.backend()).training.attempts({ ...req(ctx), params: { assignmentId: id } }),
        [
          { header: 'WHEN', value: (x) => x.created_at },
          { header: 'SCORE', value: (x) => `${x.score}%` },
          { header: 'PASSED', value: (x) => (x.passed ? 'yes' : 'no') },
          { header: 'CORRECT', value: (x) => `${x.correct_count}/${x.total_count}` },
        ],
        { empty: 'no attempts yet' },
      );
    });
  writes(quiz.command('take'))
    .description(
      'answer the quiz of an assignment in the terminal (or --answers FILE with [{question_id, selected_index}])',
    )
    .argument('<assignment-id>')
    .option('--answers <file>', 'answers as JSON, for scripts')
    .action(async (id: string, o: { answers?: string }) => {
      const api = (await ctx.backend()).training;
      const a = await api.getAssignment({ ...req(ctx), params: { id } });
      const q = await api.quiz({ ...req(ctx), params: { moduleId: a.module_id } });
      let answers: Array<{ question_id: string; selected_index: number }>;
      const started = Date.now();
      if (o.answers) answers = (await readJson(ctx, o.answers)) as typeof answers;
      else {
        if (!(ctx.io.stdinIsTTY && ctx.io.stderrIsTTY))
          throw new DomainError(
            'bad_request',
            'quiz take asks its questions on a terminal; without one, pass --answers FILE',
          );
        const { select } = await import('@inquirer/prompts');
        answers = [];
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
      }
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
    });
}
