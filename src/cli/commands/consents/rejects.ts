import { once } from 'node:events';
import type { ImportSummary } from '../../../domain/consents/consent.schema.js';
import { encodeText, type ImportEncoding } from '../../../domain/consents/text-encoding.js';
import { guardedCell, opensFormula, unguardedCell } from '../../../domain/spreadsheet-cells.js';
import { openOutputFile } from '../../output-file.js';

type Rejection = ImportSummary['rejections'][number];

/** How the imported file was written, so its rejects file is written the same way and imports with the same options. */
export interface RejectsForm {
  format: 'csv' | 'ndjson';
  encoding: ImportEncoding | 'utf-16be';
  /** The file started with a byte order mark. */
  bom: boolean;
  /** The import read cells as they are (`--raw-cells`): so are they written. */
  rawCells: boolean;
}

const BOMS: Record<RejectsForm['encoding'], string> = {
  'utf-8': '\uFEFF',
  'utf-16le': '\uFEFF',
  'utf-16be': '\uFEFF',
  'windows-1252': '',
  latin1: '',
};

/** The names of the two columns a rejects file adds, unlike any column of the file (any case). */
function addedNames(columns: string[]): [string, string] {
  const taken = new Set(columns.map((c) => c.trim().toLowerCase()));
  const free = (name: string) => {
    while (taken.has(name)) name = `_${name}`;
    return name;
  };
  return [free('line'), free('reason')];
}

/**
 * The `--rejects` file: the refused rows themselves, so they can be fixed and imported again with the same options.
 * For CSV, the file's header row with `line` and `reason` in front, then each refused row as read (the cells it had,
 * also when they were too few or too many), in the file's delimiter, encoding and byte order mark; a malformed row
 * that spans several lines once, on its first line. For NDJSON, each refused line's object with `line` and `reason`
 * added (a line that is not a JSON object as `text`). On a local store the rows arrive as they are refused (no
 * limit); over HTTP the summary brings the first 10,000.
 */
export async function openRejects(file: string, form: RejectsForm) {
  const out = await openOutputFile(file);
  let columns: string[] | undefined;
  let delimiter = ',';
  let started = false;
  let listed = 0;
  let written = 0;
  const write = (text: string) =>
    out.write(encodeText((started ? '' : form.bom ? BOMS[form.encoding] : '') + text, form.encoding));
  const cell = (v: string) => (v.includes(delimiter) || /["\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  // A refused row's cells hold the values the import read, written back as an export writes them: a cell a
  // spreadsheet would run gets its ' (spreadsheet-cells.ts), and one that had it keeps it; imported again with the same
  // options, each gives the same value. The header row stays as read, or the columns would no longer be found.
  const valueCell = (v: string) =>
    form.rawCells ? cell(v) : opensFormula(v) ? `"${guardedCell(unguardedCell(v)).replace(/"/g, '""')}"` : cell(v);
  const head = () => {
    if (started || form.format !== 'csv') return;
    write([...addedNames(columns ?? []), ...(columns ?? [])].map(cell).join(delimiter) + '\n');
    started = true;
  };
  return {
    /** The header row of a CSV file as read, and its delimiter. */
    columns(cols: string[], delim: string) {
      columns = cols;
      delimiter = delim;
    },
    add(r: Rejection) {
      listed++;
      if (form.format === 'csv') {
        if (!r.cells) return; // a further line of a malformed row: the row is on its first line
        head();
        write([cell(String(r.line)), valueCell(r.reason), ...r.cells.map(valueCell)].join(delimiter) + '\n');
      } else {
        write(ndjsonLine(r));
        started = true;
      }
      written++;
    },
    /**
     * Writes what the summary brings when nothing came before (over HTTP), and closes; answers how many refused lines
     * the file covers (a malformed row's further lines included).
     */
    async close(summary: ImportSummary | undefined): Promise<number> {
      if (summary && listed === 0) {
        if (summary.columns) this.columns(summary.columns, summary.delimiter ?? ',');
        for (const r of summary.rejections) this.add(r);
      }
      head();
      out.end();
      await once(out, 'finish');
      return listed;
    },
    get written() {
      return written;
    },
  };
}

/** A refused NDJSON line: its object with `line` and `reason` added, or a line that is not one as `text`. */
function ndjsonLine(r: Rejection): string {
  let row: unknown;
  try {
    row = JSON.parse(r.text ?? '');
  } catch {
    row = undefined;
  }
  const record =
    row && typeof row === 'object' && !Array.isArray(row)
      ? { line: r.line, reason: r.reason, ...row }
      : { line: r.line, reason: r.reason, text: r.text ?? '' };
  return JSON.stringify(record) + '\n';
}
