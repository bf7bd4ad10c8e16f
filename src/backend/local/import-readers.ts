import { Readable } from 'node:stream';
import { CONSENT_FIELDS, type ImportOptions } from '../../domain/consents/consent.schema.js';
import { resolveHeader } from '../../domain/consents/import-header.js';
import { DomainError } from '../../domain/errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../contract/json-body.js';
import { unguardedCell } from '../../domain/spreadsheet-cells.js';

/**
 * A row as it was read, for the rejects file: the cells of a CSV row (the header's count, or as many as the row had),
 * or the text of an NDJSON line.
 */
export type RawRow = string[] | string;

/** `a:b,c:d` → {a: 'b', c: 'd'}; fields must be consent fields. */
export function parseMap(map: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!map) return out;
  for (const pair of map
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [col, field] = pair.split(/[:=]/).map((s) => s?.trim());
    if (!col || !field || !(CONSENT_FIELDS as readonly string[]).includes(field))
      throw new DomainError(
        'validation',
        `invalid map entry "${pair}": expected column=field with field one of ${CONSENT_FIELDS.join(', ')}`,
        [{ path: 'map', message: `allowed fields: ${CONSENT_FIELDS.join(', ')}` }],
      );
    out.set(col.toLowerCase(), field);
  }
  return out;
}

/**
 * A refused row that spans several physical lines (a quote left open swallows the lines after it) is refused on each
 * of them, so the count of refused lines says how much of the file was not imported; the row itself, as read, goes
 * with its first line (the others are part of it).
 */
function rejectLines(sink: Sink, first: number, last: number, problem: string, raw: RawRow): void {
  if (last <= first) return sink.reject(first, problem, raw);
  sink.reject(first, `${problem} (a quoted field runs from line ${first} to line ${last})`, raw);
  for (let l = first + 1; l <= last; l++)
    sink.reject(l, `part of the malformed row that starts on line ${first} (a quote left open there): ${problem}`);
}

/** Where a reader hands what it read. */
export interface Sink {
  /** A CSV file's header row as read (without a byte order mark) and the delimiter in use (given or detected). */
  header(columns: string[], delimiter: string): void;
  row(line: number, record: Record<string, unknown>, raw: RawRow): void;
  /** A refused row; `raw` is absent for the further lines of a malformed row that spans several. */
  reject(line: number, reason: string, raw?: RawRow): void;
}

export async function readCsv(
  text: AsyncIterable<string>,
  opts: ImportOptions,
  map: Map<string, string>,
  sink: Sink,
): Promise<void> {
  const { default: Papa } = await import('papaparse');
  let fields: Array<string | undefined> | undefined;
  let line = 1;
  let failure: unknown;
  await new Promise<void>((resolve, reject) => {
    Papa.parse(Readable.from(text), {
      header: false,
      delimiter: opts.delimiter ?? '',
      skipEmptyLines: false,
      step: (
        r: { data: string[]; errors: Array<{ message: string }>; meta: { delimiter: string } },
        parser: { abort(): void },
      ) => {
        const row = r.data;
        const here = line;
        for (const v of row) for (let i = v.indexOf('\n'); i !== -1; i = v.indexOf('\n', i + 1)) line++;
        line++;
        if (failure) return;
        try {
          if (!fields) {
            fields = resolveHeader(row, map);
            sink.header(
              row.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h)),
              r.meta.delimiter,
            );
            return;
          }
          if (row.length === 1 && row[0] === '') return; // blank line
          const problem = r.errors.length
            ? `malformed CSV: ${r.errors.map((e) => e.message).join('; ')}`
            : row.length !== fields.length
              ? `expected ${fields.length} fields, found ${row.length}`
              : undefined;
          if (problem) return rejectLines(sink, here, line - (row.at(-1)?.endsWith('\n') ? 2 : 1), problem, row);
          const record: Record<string, unknown> = {};
          for (let i = 0; i < fields.length; i++) {
            const f = fields[i];
            // the ' an export puts before a cell a spreadsheet would run is taken away (spreadsheet-cells.ts)
            if (f) record[f] = opts.raw_cells ? row[i] : unguardedCell(row[i]!);
          }
          sink.row(here, record, row);
        } catch (e) {
          failure = e;
          parser.abort();
        }
      },
      complete: () => resolve(),
      error: (e: Error) => reject(e),
    } as never);
  });
  if (failure) throw failure;
  if (!fields)
    throw new DomainError(
      'bad_request',
      'the file is empty: expected a header row with user_id, data_point_id, granted',
    );
}

export async function readNdjson(text: AsyncIterable<string>, map: Map<string, string>, sink: Sink): Promise<void> {
  let buf = '';
  let line = 0;
  const handle = (raw: string) => {
    line++;
    const t = raw.trim();
    if (!t) return;
    // a line of 100,000 brackets parses, but every schema and serialiser after it would recurse past the stack
    if (nestsDeeperThan(t, MAX_JSON_DEPTH))
      return sink.reject(
        line,
        `nested deeper than ${MAX_JSON_DEPTH} levels (arrays and objects inside one another)`,
        t,
      );
    let obj: unknown;
    try {
      obj = JSON.parse(t);
    } catch (e) {
      return sink.reject(line, `malformed JSON: ${(e as Error).message}`, t);
    }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return sink.reject(line, 'expected a JSON object', t);
    const record: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) record[map.get(k.toLowerCase()) ?? k] = v;
    sink.row(line, record, t);
  };
  for await (const chunk of text) {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf('\n')) !== -1) {
      handle(buf.slice(0, nl).replace(/^\uFEFF/, ''));
      buf = buf.slice(nl + 1);
    }
  }
  if (buf) handle(buf);
}
