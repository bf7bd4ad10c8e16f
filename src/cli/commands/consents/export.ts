import { once } from 'node:events';
import { Option, type Command } from 'commander';
import type { CliContext } from '../../context.js';
import { openOutputFile, outputFileError, outputFormat } from '../../output-file.js';
import { defined } from '../../input.js';
import { note, writeChunk } from '../../output.js';
import { flagFields } from '../../flag-names.js';
import { req } from '../../operation-verb.js';
import { checkOptions, tabOr, type CsvDialectFlags } from './csv-dialect.js';

/** `consents export`: the filters and the CSV dialect, as the import reads them. */
export interface ExportOptions extends CsvDialectFlags {
  format?: 'csv' | 'ndjson';
  userId?: string;
  dataPoint?: string;
  granted?: string;
  output?: string;
  bom?: boolean;
}

export function register(cmd: Command, ctx: CliContext): Command {
  return flagFields(cmd.command('export'), { data_point_id: '--data-point', timezone: '--time-zone' })
    .description('streamed export; importing it into an empty store gives the same statistics')
    .addOption(
      new Option('--format <format>', 'csv or ndjson (default: by the extension of -o, else csv)').choices([
        'csv',
        'ndjson',
      ]),
    )
    .option('--user-id <id>')
    .option('--data-point <id>')
    .option('--granted <bool>')
    .option('--delimiter <char>', 'CSV column delimiter, one character; \\t or tab for a tab (default ,)')
    .option('--bom', 'CSV starts with a UTF-8 byte order mark (with --delimiter ";" for German Excel)')
    .option(
      '--true-values <words>',
      'CSV: write the first of these words for granted (e.g. ja), as the import reads it',
    )
    .option('--false-values <words>', 'CSV: write the first of these words for refused (e.g. nein)')
    .option(
      '--date-format <format>',
      'CSV: format of granted_at/revoked_at, e.g. "DD.MM.YYYY HH:mm:ss" (the import\'s tokens)',
    )
    .option('--time-zone <zone>', 'CSV: IANA zone the times are written in, e.g. Europe/Berlin (default UTC)')
    .addOption(new Option('--timezone <zone>').hideHelp())
    .option(
      '--raw-cells',
      "CSV: write cells that start with = + - @, a tab or CR as they are (by default a ' in front keeps spreadsheets from running them)",
    )
    .option('-o, --output <file>', 'file to write (default stdout); its folder is created')
    .action((o: ExportOptions) => run(ctx, o));
}

/** Streams the export to -o or stdout, so millions of rows never sit in memory. */
export async function run(ctx: CliContext, o: ExportOptions): Promise<void> {
  const format = outputFormat('consents export', { csv: ['csv'], ndjson: ['ndjson', 'jsonl'] }, o, 'csv');
  const query = defined({
    format,
    user_id: o.userId,
    data_point_id: o.dataPoint,
    granted: o.granted,
    delimiter: tabOr(o.delimiter),
    bom: o.bom ? 'true' : undefined,
    true_values: o.trueValues,
    false_values: o.falseValues,
    date_format: o.dateFormat,
    timezone: o.timeZone ?? o.timezone,
    raw_cells: o.rawCells ? 'true' : undefined,
  });
  await checkOptions('ExportQuery', query);
  const r = await (await ctx.backend()).consents.export({ ...req(ctx), query });
  const out = o.output ? await openOutputFile(o.output) : ctx.io.stdout;
  try {
    for await (const chunk of r.body) await writeChunk(out, chunk);
    if (o.output) {
      (out as NodeJS.WritableStream).end();
      await once(out, 'finish');
    }
  } catch (e) {
    throw o.output ? outputFileError(o.output, e) : e;
  }
  if (o.output) note(ctx, `wrote ${o.output}`);
}
