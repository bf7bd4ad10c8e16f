import { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { addOperationVerb } from '../../../operation-verb.js';
import * as operations from './operations.js';
import * as pdf from './pdf.js';
import * as verify from './verify.js';

/** `training certificates`: issue, list, print and verify certificates. */
export function createCertificatesCommand(ctx: CliContext): Command {
  const certs = new Command('certificates').description('certificates of completed trainings');
  addOperationVerb(certs, ctx, operations.generate);
  addOperationVerb(certs, ctx, operations.list);
  pdf.register(certs, ctx);
  verify.register(certs, ctx);
  return certs;
}
