import { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { addOperationVerb } from '../../../operation-verb.js';
import * as compute from './compute.js';
import * as list from './list.js';
import * as operations from './operations.js';
import * as progress from './progress.js';
import * as update from './update.js';

/** `training assignments`: compute what the matrix calls for, list, show, update, start, complete, progress. */
export function createAssignmentsCommand(ctx: CliContext): Command {
  const asg = new Command('assignments').description('assignments of modules to people');
  compute.register(asg, ctx);
  list.register(asg, ctx);
  addOperationVerb(asg, ctx, operations.show);
  update.register(asg, ctx);
  addOperationVerb(asg, ctx, operations.start);
  addOperationVerb(asg, ctx, operations.complete);
  progress.register(asg, ctx);
  return asg;
}
