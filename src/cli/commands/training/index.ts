import { Command } from 'commander';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '../../../domain/training/training.values.js';
import type { CliContext } from '../../context.js';
import { addOperationVerb, operationVerb } from '../../operation-verb.js';
import { printList, printRecord } from '../../output.js';
import { addAssignmentCommands } from './assignments/index.js';
import { createBlocksCommand } from './blocks.js';
import { createCanonicalCommand } from './canonical.js';
import * as catalogInstall from './catalog-install.js';
import { addContentCommands } from './content.js';
import { addCertificateCommands } from './certificates.js';
import { addDeadlineCommands } from './deadlines.js';
import { addMediaCommands } from './media.js';
import { addMatrixCommands } from './matrix.js';
import { addModuleCommands } from './modules.js';
import { addQuizCommands } from './quiz.js';

const auditLog = operationVerb({
  area: 'training',
  operation: 'auditLog',
  name: 'audit-log',
  description: 'training audit log, newest first',
  query: [
    { flags: '--action <a>', field: 'action', description: AUDIT_ACTIONS.join(', ') },
    { flags: '--entity-type <t>', field: 'entity_type', description: AUDIT_ENTITY_TYPES.join(', ') },
    { flags: '--limit <n>', field: 'limit' },
    { flags: '--offset <n>', field: 'offset' },
  ],
  print: (ctx, rows) =>
    printList(
      ctx,
      rows,
      [
        { header: 'WHEN', value: (e) => e.created_at },
        { header: 'ACTION', value: (e) => e.action },
        { header: 'ENTITY', value: (e) => `${e.entity_type} ${e.entity_id}`, id: true },
        { header: 'BY', value: (e) => e.actor },
        { header: 'DETAILS', value: (e) => e.details },
      ],
      { empty: 'no audit entries' },
    ),
});

const stats = operationVerb({
  area: 'training',
  operation: 'stats',
  name: 'stats',
  description: 'assignments by status, overdue and completion rate',
  print: (ctx, s) => printRecord(ctx, s, Object.entries(s)),
});

/** `compliance training`: its groups and verbs in the order help lists them. */
export function createTrainingCommand(ctx: CliContext): Command {
  const training = new Command('training').description(
    'compliance training: modules, role matrix, assignments, quizzes, escalation, certificates',
  );
  addModuleCommands(ctx, training);
  catalogInstall.register(training, ctx);
  addMatrixCommands(ctx, training);
  addAssignmentCommands(ctx, training);
  addQuizCommands(ctx, training);
  addContentCommands(ctx, training);
  addMediaCommands(ctx, training);
  training.addCommand(createCanonicalCommand(ctx));
  training.addCommand(createBlocksCommand(ctx));
  addDeadlineCommands(ctx, training);
  addCertificateCommands(ctx, training);
  addOperationVerb(training, ctx, auditLog);
  addOperationVerb(training, ctx, stats);
  return training;
}
