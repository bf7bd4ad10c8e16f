import { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { addOperationVerb } from '../../../operation-verb.js';
import * as operations from './operations.js';
import * as take from './take.js';

/** `training quiz`: the attempts of an assignment, and taking its quiz. */
export function createQuizCommand(ctx: CliContext): Command {
  const quiz = new Command('quiz').description('quizzes');
  addOperationVerb(quiz, ctx, operations.attempts);
  take.register(quiz, ctx);
  return quiz;
}
