import { createReadStream, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import type { ImportStream } from '../../../backend/local/consents.import.js';
import type { ImportOptions, ImportSummary } from '../../../domain/consents/consent.schema.js';
import { IMPORT_ENCODINGS } from '../../../domain/consents/text-encoding.js';
import { DomainError } from '../../../domain/errors.js';
import type { CliContext } from '../../context.js';
import { EXIT } from '../../exit-codes.js';
import { collect, defined } from '../../input.js';
import { req } from '../../operation-verb.js';
import { note, printJson, writeOut } from '../../output.js';
import { checkOptions, tabOr, type CsvDialectFlags } from './csv-dialect.js';
import { checkEncoding, withProgress } from './import-file.js';
import { openRejects, type RejectsForm } from './rejects.js';
import { unlessDryRun, usesTenant, writes } from '../../store-access.js';

/** What an interrupted import had committed: the totals of its batches, and its run. */
type Committed = Pick<ImportSummary, 'run_id' | 'created' | 'unchanged' | 'revoked' | 'renewed'>;

/**
 * The run a server recorded for an import this CLI interrupted: the newest of this file (name and SHA-256), once the
 * server has noticed and finished the batch in hand (a few seconds at most); undefined when it had not begun writing.
 */
async function remoteRun(
  ctx: CliContext,
  fileName: string,
  sha256: string | undefined,
): Promise<Committed | undefined> {
  const backend = await ctx.backend();
  for (let waited = 0; waited <= 10_000; waited += 250) {
    const { runs } = await backend.consents.imports({ ...req(ctx), query: { limit: 10 } });
    const run = runs.find((r) => r.file_name === fileName && (!sha256 || r.sha256 === sha256));
    if (run && run.status !== 'running') return { run_id: run.id, ...run };
    if (!run && waited >= 2000) return undefined;
    await new Promise((r) => setTimeout(r, 250));
  }
  return undefined;
}

/** What Ctrl-C left: how many rows were committed, and that running the same import again completes it. */
function interruptedNote(c: Committed | undefined, dryRun: boolean | undefined): string {
  if (dryRun) return 'interrupted: a dry run writes nothing';
  const rows = c ? c.created + c.unchanged + c.revoked + c.renewed : 0;
  if (!c || rows === 0) return 'interrupted: no rows were committed; run the import again to import the file';
  return `interrupted: ${rows} rows were committed in whole batches (created ${c.created}, unchanged ${c.unchanged}, revoked ${c.revoked}, renewed ${c.renewed}; run ${c.run_id}); running the same import again completes it (the rows already imported count as unchanged)`;
}

/** `consents import FILE`: the bulk import, with its rejects file, its progress bar and Ctrl-C. */
export interface ImportFileOptions extends CsvDialectFlags {
  file: string;
  map?: string[];
  format?: 'csv' | 'ndjson';
  rejects?: string;
  dryRun?: boolean;
  encoding?: string;
}

export function register(consents: Command, ctx: CliContext): Command {
  return usesTenant(writes(consents.command('import'), unlessDryRun), 'starts')
    .description('bulk import from CSV (header row with consent fields) or NDJSON; idempotent')
    .argument('<file>', 'a .csv, .ndjson or .jsonl file; - reads stdin')
    .option('--map <column=field>', 'take a field from a differently named column (repeatable)', collect)
    .option('--delimiter <char>', 'CSV delimiter, one character; \\t or tab for a tab (default: detected)')
    .option(
      '--encoding <name>',
      `${IMPORT_ENCODINGS.join(', ')} or another name of one (cp1252, iso-8859-1, …); default utf-8, a byte order mark is followed`,
    )
    .option('--true-values <words>', 'comma-separated words that also mean granted, e.g. ja,j,x')
    .option('--false-values <words>', 'comma-separated words that also mean refused, e.g. nein,n')
    .option('--date-format <format>', 'format of granted_at/revoked_at, e.g. "DD.MM.YYYY HH:mm" (default ISO 8601)')
    .option('--time-zone <zone>', 'IANA zone of timestamps written without one, e.g. Europe/Berlin')
    .addOption(new Option('--timezone <zone>').hideHelp())
    .addOption(new Option('--format <format>', 'csv or ndjson (default: by file extension)').choices(['csv', 'ndjson']))
    .option(
      '--raw-cells',
      "CSV: read cells as they are (by default a ' before = + - @, a tab or CR, as an export writes it, is taken away)",
    )
    .option('--rejects <file>', 'write the refused rows themselves, with line and reason, to fix and import again')
    .option('--dry-run', 'validate and count without writing')
    .action((file: string, o: Omit<ImportFileOptions, 'file'>) => run(ctx, { ...o, file }));
}

export async function run(ctx: CliContext, { file, ...o }: ImportFileOptions): Promise<void> {
  const format = o.format ?? (/\.(nd)?jsonl?$/i.test(file) ? 'ndjson' : 'csv');
  const query = defined({
    dry_run: o.dryRun ? 'true' : undefined,
    delimiter: tabOr(o.delimiter),
    map: o.map?.join(','),
    file_name: file === '-' ? undefined : basename(file),
    encoding: o.encoding,
    true_values: o.trueValues,
    false_values: o.falseValues,
    date_format: o.dateFormat,
    timezone: o.timeZone ?? o.timezone,
    raw_cells: o.rawCells ? 'true' : undefined,
  });
  // options are checked before the file is read: a wrong one is named as the flag it came from, not as the
  // first thing the file would have run into
  const options = await checkOptions('ImportOptions', query);
  const { input, sha256, form } = await openInput(ctx, file, format, options);
  const rejects = o.rejects ? await openRejects(o.rejects, form) : undefined;
  let summary: ImportSummary | undefined;
  // Ctrl-C stops the import after the batch in hand (a second one ends the process at once)
  const stop = new AbortController();
  const onInterrupt = () => {
    note(ctx, 'interrupted: stopping after the batch being written (Ctrl-C again to end at once)');
    stop.abort(new Error('interrupted'));
  };
  process.once('SIGINT', onInterrupt);
  let progress: Committed | undefined;
  try {
    const stream: ImportStream = {
      body: withProgress(ctx, file, input),
      content_type: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
      checked: file !== '-',
      signal: stop.signal,
      onProgress: (s) => (progress = { ...s }),
      ...(sha256 ? { sha256 } : {}),
      ...(rejects
        ? { onReject: (r) => rejects.add(r), onColumns: (columns, delim) => rejects.columns(columns, delim) }
        : {}),
    };
    summary = await (await ctx.backend()).consents.import({ ...req(ctx), query, stream });
  } catch (e) {
    if (!stop.signal.aborted) throw e;
    // on a local store the import reported what it committed; a server is asked for the run it recorded
    const committed = progress ?? (ctx.config().remote ? await remoteRun(ctx, basename(file), sha256) : undefined);
    note(ctx, interruptedNote(committed, o.dryRun));
    ctx.exitCode = EXIT.interrupted;
    return;
  } finally {
    process.off('SIGINT', onInterrupt);
    const listed = await rejects?.close(summary);
    if (summary && listed !== undefined && listed < summary.rejected)
      note(
        ctx,
        `${o.rejects} lists the first ${listed} of ${summary.rejected} refused lines (the server sends no more)`,
      );
  }
  printSummary(ctx, summary, o.rejects);
}

/** The file (or stdin) to import, and the form its rejects file takes; a file that cannot be read is refused here. */
async function openInput(ctx: CliContext, file: string, format: 'csv' | 'ndjson', options: ImportOptions) {
  const rawCells = options.raw_cells;
  if (file === '-') {
    const form: RejectsForm = { format, encoding: options.encoding ?? 'utf-8', bom: false, rawCells };
    return { input: ctx.io.stdin as AsyncIterable<Buffer>, sha256: undefined, form };
  }
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch (e) {
    throw new DomainError(
      'bad_request',
      `cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  if (!isFile) throw new DomainError('bad_request', `cannot read ${file}: not a regular file`);
  // a file that is not valid in its encoding is refused here, before a row is sent or written
  const checked = await checkEncoding(file, options.encoding);
  const form: RejectsForm = { format, encoding: checked.encoding, bom: checked.bom, rawCells };
  return { input: createReadStream(file) as AsyncIterable<Buffer>, sha256: checked.sha256, form };
}

/** The summary on stdout; refused rows on stderr (the first 20) unless --rejects took them; exit 6 if any. */
function printSummary(ctx: CliContext, summary: ImportSummary, rejects: string | undefined): void {
  // with --json too: stdout stays the summary
  if (!rejects) for (const r of summary.rejections.slice(0, 20)) note(ctx, `line ${r.line}: ${r.reason}`);
  if (!rejects && summary.rejected > 20) note(ctx, `… ${summary.rejected - 20} more refused rows (use --rejects FILE)`);
  if (ctx.config().json) {
    const { rejections: _r, dry_run: _d, columns: _c, delimiter: _l, ...plain } = summary;
    printJson(ctx, plain);
  } else {
    writeOut(
      ctx,
      `read ${summary.read}, created ${summary.created}, unchanged ${summary.unchanged}, revoked ${summary.revoked}, renewed ${summary.renewed}, rejected ${summary.rejected} in ${summary.seconds} s${summary.dry_run ? ' (dry run: nothing written)' : `, run ${summary.run_id}`}`,
    );
  }
  if (summary.rejected > 0) ctx.exitCode = 6;
}
