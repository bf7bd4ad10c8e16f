import { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { addOperationVerb } from '../../../operation-verb.js';
import * as create from './create.js';
import * as deleteVerb from './delete.js';
import * as operations from './operations.js';
import * as show from './show.js';
import * as update from './update.js';

/** `training modules`: list, show, create, update and delete modules. */
export function createModulesCommand(ctx: CliContext): Command {
  const modules = new Command('modules').description('training modules');
  addOperationVerb(modules, ctx, operations.list);
  show.register(modules, ctx);
  create.register(modules, ctx);
  update.register(modules, ctx);
  deleteVerb.register(modules, ctx);
  return modules;
}
