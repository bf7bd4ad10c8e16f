import { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { addOperationVerb } from '../../../operation-verb.js';
import * as importVerb from './import.js';
import * as operations from './operations.js';

/** `training canonical`: the controls blocks make modules of. */
export function createCanonicalCommand(ctx: CliContext): Command {
  const canonical = new Command('canonical').description(
    'canonical security controls (shipped catalogue plus your own)',
  );
  addOperationVerb(canonical, ctx, operations.list);
  addOperationVerb(canonical, ctx, operations.meta);
  importVerb.register(canonical, ctx);
  return canonical;
}
