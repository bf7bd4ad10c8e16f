import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { defineGenerateAll, generateAll, type GenerateAllOptions } from './generate-every.js';

/** `content generate-all-quiz`: a quiz for every module without one (--dry-run lists them). */
export type QuizAllOptions = GenerateAllOptions;

export function register(content: Command, ctx: CliContext): Command {
  return defineGenerateAll(content, 'quiz').action((o: QuizAllOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: QuizAllOptions): Promise<void> {
  await generateAll(ctx, 'quiz', o);
}
