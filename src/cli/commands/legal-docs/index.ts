import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addOperationVerb } from '../../operation-verb.js';
import * as addVersion from './add-version.js';
import * as approve from './approve.js';
import * as create from './create.js';
import * as diff from './diff.js';
import * as operations from './operations.js';
import * as reject from './reject.js';

/** `compliance legal-docs`: its verbs in the order help lists them, generated ones from the contract among the others. */
export function createLegalDocsCommand(ctx: CliContext): Command {
  const legalDocs = new Command('legal-docs').description('legal documents with versions, approval and publication');
  addOperationVerb(legalDocs, ctx, operations.list);
  create.register(legalDocs, ctx);
  addOperationVerb(legalDocs, ctx, operations.show);
  addOperationVerb(legalDocs, ctx, operations.versions);
  addVersion.register(legalDocs, ctx);
  addOperationVerb(legalDocs, ctx, operations.submit);
  addOperationVerb(legalDocs, ctx, operations.publish);
  approve.register(legalDocs, ctx);
  reject.register(legalDocs, ctx);
  diff.register(legalDocs, ctx);
  return legalDocs;
}
