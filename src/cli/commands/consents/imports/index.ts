import { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { addOperationVerb } from '../../../operation-verb.js';
import * as operations from './operations.js';

/** `consents imports [list|show|revert]`: the recorded import runs, and undoing one. */
export function createImportsCommand(ctx: CliContext): Command {
  const imports = new Command('imports').description('bulk import runs: list, show, revert');
  addOperationVerb(imports, ctx, operations.list);
  addOperationVerb(imports, ctx, operations.show);
  addOperationVerb(imports, ctx, operations.revert);
  return imports;
}
