import { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { createManagementReportCommand } from './management.js';

/** `compliance report …`: reports across areas. */
export function createReportCommand(ctx: CliContext): Command {
  return new Command('report')
    .description('reports across areas for the people who answer for compliance')
    .addCommand(createManagementReportCommand(ctx));
}
