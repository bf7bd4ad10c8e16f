import { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { addOperationVerb } from '../../../operation-verb.js';
import * as create from './create.js';
import * as generate from './generate.js';
import * as operations from './operations.js';
import * as update from './update.js';

/** `training blocks`: modules generated from canonical controls. */
export function createBlocksCommand(ctx: CliContext): Command {
  const blocks = new Command('blocks').description('training blocks: modules generated from canonical controls');
  addOperationVerb(blocks, ctx, operations.list);
  create.register(blocks, ctx);
  addOperationVerb(blocks, ctx, operations.show);
  update.register(blocks, ctx);
  addOperationVerb(blocks, ctx, operations.remove);
  addOperationVerb(blocks, ctx, operations.preview);
  generate.register(blocks, ctx);
  addOperationVerb(blocks, ctx, operations.controls);
  return blocks;
}
