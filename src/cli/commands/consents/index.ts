import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addOperationVerb } from '../../operation-verb.js';
import * as exportVerb from './export.js';
import * as grant from './grant.js';
import * as importVerb from './import.js';
import { createImportsCommand } from './imports/index.js';
import * as operations from './operations.js';
import * as receipt from './receipt.js';
import * as renew from './renew.js';

/** `compliance consents`: its verbs in the order help lists them, generated ones from the contract among the others. */
export function createConsentsCommand(ctx: CliContext): Command {
  const consents = new Command('consents').description('consents per user and data point, with history');
  addOperationVerb(consents, ctx, operations.list);
  grant.register(consents, ctx);
  addOperationVerb(consents, ctx, operations.revoke);
  renew.register(consents, ctx);
  addOperationVerb(consents, ctx, operations.get);
  addOperationVerb(consents, ctx, operations.history);
  addOperationVerb(consents, ctx, operations.stats);
  importVerb.register(consents, ctx);
  consents.addCommand(createImportsCommand(ctx));
  receipt.register(consents, ctx);
  exportVerb.register(consents, ctx);
  return consents;
}
