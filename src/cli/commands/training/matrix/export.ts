import type { Command } from 'commander';
import type { CliContext } from '../../../context.js';
import { outputFormat, writeOutputFile } from '../../../output-file.js';
import { csvCell, req } from '../shared.js';

/** `matrix export`: the matrix as CSV, to stdout or a file. */
export interface ExportOptions {
  output?: string;
  rawCells?: boolean;
}

export function register(matrix: Command, ctx: CliContext): Command {
  return matrix
    .command('export')
    .description('CSV for a spreadsheet: role_code,module_code,module_title,is_mandatory,priority')
    .option('-o, --output <file>')
    .option(
      '--raw-cells',
      "write cells that start with = + - @, a tab or CR as they are (by default with a ' in front)",
    )
    .action((o: ExportOptions) => run(ctx, o));
}

export async function run(ctx: CliContext, o: ExportOptions): Promise<void> {
  outputFormat('matrix export', { csv: ['csv'] }, o, 'csv');
  const rows = await (await ctx.backend()).training.matrix(req(ctx));
  const csv =
    [
      'role_code,module_code,module_title,is_mandatory,priority',
      ...rows.map((e) =>
        [e.role_code, e.module_code, e.module_title, e.is_mandatory, e.priority]
          .map((v) => csvCell(v, o.rawCells))
          .join(','),
      ),
    ].join('\n') + '\n';
  if (o.output) await writeOutputFile(o.output, csv);
  else ctx.io.stdout.write(csv);
}
