import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addOperationVerb } from '../../operation-verb.js';
import * as create from './create.js';
import * as del from './delete.js';
import * as operations from './operations.js';
import { createDsfaReportCommand } from './report.js';
import * as screen from './screen.js';
import * as setStatus from './set-status.js';
import * as update from './update.js';
import * as workflow from './workflow.js';

/** `compliance dsfa`: its verbs in the order help lists them, generated ones from the contract among the others. */
export function createDsfaCommand(ctx: CliContext): Command {
  const dsfa = new Command('dsfa').description('data protection impact assessments (Art. 35 GDPR)');
  addOperationVerb(dsfa, ctx, operations.list);
  addOperationVerb(dsfa, ctx, operations.get);
  create.register(dsfa, ctx);
  update.register(dsfa, ctx);
  setStatus.register(dsfa, ctx);
  workflow.register(dsfa, ctx);
  del.register(dsfa, ctx);
  addOperationVerb(dsfa, ctx, operations.stats);
  addOperationVerb(dsfa, ctx, operations.auditLog);
  screen.register(dsfa, ctx);
  dsfa.addCommand(createDsfaReportCommand(ctx));
  return dsfa;
}
