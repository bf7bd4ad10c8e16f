import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addOperationVerb } from '../../operation-verb.js';
import * as operations from './operations.js';
import * as verify from './verify.js';

/** `compliance audit`: its verbs in the order help lists them. */
export function createAuditCommand(ctx: CliContext): Command {
  const audit = new Command('audit').description('the tamper-evident journal: verify its hash chains, take anchors');
  verify.register(audit, ctx);
  addOperationVerb(audit, ctx, operations.anchor);
  return audit;
}
