import { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import * as check from './check.js';

/** `training escalation`: raising the levels of overdue assignments. */
export function createEscalationCommand(ctx: CliContext): Command {
  const escalation = new Command('escalation').description('deadline escalation');
  check.register(escalation, ctx);
  return escalation;
}
