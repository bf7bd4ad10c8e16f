import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addOperationVerb } from '../../operation-verb.js';
import { createAssignmentsCommand } from './assignments/index.js';
import { createBlocksCommand } from './blocks/index.js';
import { createCanonicalCommand } from './canonical/index.js';
import { createCatalogCommand } from './catalog/index.js';
import { createCertificatesCommand } from './certificates/index.js';
import { createContentCommand } from './content/index.js';
import * as deadlines from './deadlines.js';
import { createEscalationCommand } from './escalation/index.js';
import { createMatrixCommand } from './matrix/index.js';
import { createMediaCommand } from './media/index.js';
import { createModulesCommand } from './modules/index.js';
import * as operations from './operations.js';
import * as overdue from './overdue.js';
import { createQuizCommand } from './quiz/index.js';

/** `compliance training`: its groups and verbs in the order help lists them. */
export function createTrainingCommand(ctx: CliContext): Command {
  const training = new Command('training').description(
    'compliance training: modules, role matrix, assignments, quizzes, escalation, certificates',
  );
  training.addCommand(createModulesCommand(ctx));
  training.addCommand(createCatalogCommand(ctx));
  training.addCommand(createMatrixCommand(ctx));
  training.addCommand(createAssignmentsCommand(ctx));
  training.addCommand(createQuizCommand(ctx));
  training.addCommand(createContentCommand(ctx));
  training.addCommand(createMediaCommand(ctx));
  training.addCommand(createCanonicalCommand(ctx));
  training.addCommand(createBlocksCommand(ctx));
  deadlines.register(training, ctx);
  overdue.register(training, ctx);
  training.addCommand(createEscalationCommand(ctx));
  training.addCommand(createCertificatesCommand(ctx));
  addOperationVerb(training, ctx, operations.auditLog);
  addOperationVerb(training, ctx, operations.stats);
  return training;
}
