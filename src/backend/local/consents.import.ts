import { Readable } from 'node:stream';
import { z } from 'zod';
import { isoZ, type Clock, type IdSource } from '../../domain/clock.js';
import { consentTimeProblems } from '../../domain/consents/consent.rules.js';
import {
  CONSENT_FIELDS,
  ConsentCsvRow,
  ConsentInput,
  type ImportOptions,
  type ImportSummary,
} from '../../domain/consents/consent.schema.js';
import { conflict, DomainError } from '../../domain/errors.js';
import type { ImportRun, ImportRunOptions } from '../../domain/consents/import-run.schema.js';
import { detailsFromZod } from '../../domain/validation.js';
import { createRowDialect } from '../../domain/consents/csv-dialect.js';
import { resolveHeader } from '../../domain/consents/import-header.js';
import { openImportText, type ImportText } from './import-text.js';
import { RejectionLedger } from './import-rejections.js';
import type { StreamBody } from '../../contract/operation.js';
import {
  ROW_WIDTH,
  RUN_REVERTED,
  type BatchValue,
  type ConsentImportWriter,
  type ImportWriterOptions,
} from '../../store/consent-import-rows.js';
import { KyselyImportRunStore, runToRow } from '../../store/kysely/consent-import-run.store.js';
import type { Store } from '../../store/store.js';

/** Rows are handed to the writer in pieces of at most 1,000 rows and 256K characters ... */
const PIECE_ROWS = 1_000;
const PIECE_CHARS = 256 * 1024;
/** ... and written in transactions of ten pieces: 10,000 rows of a typical file. */
const BATCH_PIECES = 10;
export const IMPORT_BATCH = PIECE_ROWS * BATCH_PIECES;
const MAX_LISTED = 10_000;

/**
 * An import body as the local backend receives it. In process (the CLI on a local store) the caller may add
 * `onReject` to receive every refused row as it is found, beyond the first 10,000 that the summary lists; over HTTP only
 * the summary travels.
 */
export type ImportStream = StreamBody & {
  onReject?: (line: number, reason: string) => void;
  /** The caller has decoded the whole body once already (a local file), so it may stream without a temporary copy. */
  checked?: boolean;
  /** SHA-256 of the body's bytes (hex), when the caller read it before (a local file); else computed as it is read. */
  sha256?: string;
};

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
 * of them, so a rejects file names every line that was not imported.
 */
function rejectLines(sink: Sink, first: number, last: number, problem: string): void {
  if (last <= first) return sink.reject(first, problem);
  sink.reject(first, `${problem} (a quoted field runs from line ${first} to line ${last})`);
  for (let l = first + 1; l <= last; l++)
    sink.reject(l, `part of the malformed row that starts on line ${first} (a quote left open there): ${problem}`);
}

interface Sink {
  row(line: number, record: Record<string, unknown>): void;
  reject(line: number, reason: string): void;
}

async function readCsv(
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
      step: (r: { data: string[]; errors: Array<{ message: string }> }, parser: { abort(): void }) => {
        const row = r.data;
        const here = line;
        for (const v of row) for (let i = v.indexOf('\n'); i !== -1; i = v.indexOf('\n', i + 1)) line++;
        line++;
        if (failure) return;
        try {
          if (!fields) {
            fields = resolveHeader(row, map);
            return;
          }
          if (row.length === 1 && row[0] === '') return; // blank line
          const problem = r.errors.length
            ? `malformed CSV: ${r.errors.map((e) => e.message).join('; ')}`
            : row.length !== fields.length
              ? `expected ${fields.length} fields, found ${row.length}`
              : undefined;
          if (problem) return rejectLines(sink, here, line - (row.at(-1)?.endsWith('\n') ? 2 : 1), problem);
          const record: Record<string, unknown> = {};
          for (let i = 0; i < fields.length; i++) {
            const f = fields[i];
            if (f) record[f] = row[i];
          }
          sink.row(here, record);
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

async function readNdjson(text: AsyncIterable<string>, map: Map<string, string>, sink: Sink): Promise<void> {
  let buf = '';
  let line = 0;
  const handle = (raw: string) => {
    line++;
    const t = raw.trim();
    if (!t) return;
    let obj: unknown;
    try {
      obj = JSON.parse(t);
    } catch (e) {
      return sink.reject(line, `malformed JSON: ${(e as Error).message}`);
    }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return sink.reject(line, 'expected a JSON object');
    const record: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) record[map.get(k.toLowerCase()) ?? k] = v;
    sink.row(line, record);
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

const UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/;
/**
 * Timestamps are compared and stored in one form (UTC, milliseconds, Z). The schema has validated them; the usual UTC
 * forms are completed as text, which is much cheaper than a Date round trip per row.
 */
const iso = (v: string | undefined) => {
  if (!v) return null;
  const m = UTC.exec(v);
  return m ? (m[1] ? v : `${v.slice(0, -1)}.000Z`) : new Date(v).toISOString();
};

/** The options a run records: those given, as given. */
const runOptions = (o: ImportOptions): ImportRunOptions =>
  Object.fromEntries(
    (['delimiter', 'map', 'encoding', 'true_values', 'false_values', 'date_format', 'timezone'] as const)
      .filter((k) => o[k] !== undefined)
      .map((k) => [k, o[k]]),
  );

/** Who runs an import, and with what: the tenant, the actor recorded on the run, the clock and the ids. */
export interface ImportContext {
  tenant: string;
  actor: string | undefined;
  clock: Clock;
  ids: IdSource;
}

/**
 * Bulk import of consents from CSV or NDJSON. Streams, validates every row with the API's schema, compares it with the
 * stored consents (import-match.ts: new, unchanged, revoked or refused, so a second run creates nothing), writes
 * consent and history rows in transactions of 10,000 rows on a connection of its own. Every run but a dry one is
 * recorded (import-run.schema.ts) by its first transaction, and the consents and entries it writes carry its id, so it
 * can be listed and reverted. A run stopped halfway leaves whole batches and its record says so; running it again
 * completes it.
 */
export async function importConsents(
  store: Store,
  ctx: ImportContext,
  input: ImportStream,
  opts: ImportOptions,
): Promise<ImportSummary> {
  const { tenant, clock } = ctx;
  const started = performance.now();
  const map = parseMap(opts.map);
  const kind = /ndjson|jsonl|json/i.test(input.content_type) ? 'ndjson' : 'csv';
  const summary: ImportSummary = {
    run_id: null,
    read: 0,
    created: 0,
    unchanged: 0,
    revoked: 0,
    rejected: 0,
    seconds: 0,
    dry_run: opts.dry_run,
    rejections: [],
  };
  // the API's schema with zod's generated fast path (about 4x faster per row); a row the fast path does not accept
  // goes through the ordinary parser, so refusals and their messages are the schema's own
  const rowSchema = z.compile(kind === 'csv' ? ConsentCsvRow : ConsentInput);
  const importedAt = clock.now();
  const dialect = createRowDialect(opts);
  // refusals are listed in line order, the writer's (against the store) among the reader's
  const ledger = new RejectionLedger((r) => {
    if (summary.rejections.length < MAX_LISTED) summary.rejections.push(r);
    input.onReject?.(r.line, r.reason);
  });
  let out: ConsentImportWriter | undefined;
  let batches = 0;
  let piece: BatchValue[] = [];
  let lines: number[] = [];
  let pieceChars = 0;
  const post = () => {
    ledger.piece(lines);
    out!.post(piece);
    piece = [];
    lines = [];
    pieceChars = 0;
  };
  const sink: Sink = {
    reject(line, reason) {
      summary.read++;
      summary.rejected++;
      ledger.reject({ line, reason });
    },
    row(line, record) {
      const unreadable = dialect(record);
      if (unreadable) return sink.reject(line, unreadable);
      const parsed = rowSchema.safeParse(record, { reportInput: true });
      if (!parsed.success)
        return sink.reject(
          line,
          detailsFromZod(parsed.error)
            .map((d) => `${d.path}: ${d.message}`)
            .join('; '),
        );
      const c = parsed.data;
      const times = consentTimeProblems(c, importedAt);
      if (times.length) return sink.reject(line, times.map((d) => `${d.path}: ${d.message}`).join('; '));
      summary.read++;
      lines.push(line);
      piece.push(
        c.user_id,
        c.data_point_id,
        c.granted ? 1 : 0,
        iso(c.granted_at),
        iso(c.revoked_at),
        c.consent_version,
        c.source ?? null,
        c.ip_address ?? null,
        c.user_agent ?? null,
      );
      pieceChars +=
        c.user_id.length + c.data_point_id.length + (c.user_agent?.length ?? 0) + (c.source?.length ?? 0) + 80;
      if (piece.length >= PIECE_ROWS * ROW_WIDTH || pieceChars >= PIECE_CHARS) post();
    },
  };

  const runs = new KyselyImportRunStore(store.db);
  let run: ImportRun | undefined;
  let source: ImportText | undefined;
  try {
    // a body read into a temporary copy is whole (and its digest known) before a row is written
    source = await openImportText(input, opts.encoding, opts.dry_run, () => out!.ready());
    if (!opts.dry_run) {
      run = {
        id: ctx.ids.next(),
        tenant_id: tenant,
        file_name: opts.file_name ?? null,
        sha256: input.sha256 ?? source.sha256() ?? null,
        format: kind,
        options: runOptions(opts),
        status: 'running',
        read: 0,
        created: 0,
        unchanged: 0,
        revoked: 0,
        rejected: 0,
        created_by: ctx.actor ?? 'system',
        started_at: isoZ(importedAt),
        finished_at: null,
        reverted_at: null,
        reverted_by: null,
      };
      summary.run_id = run.id;
    }
    const options: ImportWriterOptions = {
      tenant,
      batchPieces: BATCH_PIECES,
      now: isoZ(importedAt),
      dryRun: opts.dry_run,
      run: run ? runToRow(run) : null,
    };
    out = await store.openConsentImportWriter(options, (r) => {
      batches++;
      summary.created += r.created;
      summary.unchanged += r.unchanged;
      summary.revoked += r.revoked;
      summary.rejected += r.refused.length;
      ledger.batch(r);
    });
    if (kind === 'ndjson') await readNdjson(source.text, map, sink);
    else await readCsv(source.text, opts, map, sink);
    if (piece.length) post();
    await out.finish();
    ledger.flush();
    if (run) {
      // the writer recorded the run with its first transaction; a run none of whose rows reached the writer is
      // recorded here
      const done = finished(run, summary, 'completed', source.sha256(), clock);
      await (batches ? runs.finish(done) : runs.insert(done));
    }
  } catch (e) {
    await out?.abort().catch(() => undefined);
    ledger.flush();
    // a run that wrote something says how it ended; one that wrote nothing leaves no record
    if (run && batches)
      await runs
        .finish(finished(run, summary, e instanceof ImportInterrupted ? 'interrupted' : 'failed', undefined, clock))
        .catch(() => undefined);
    if ((e as { code?: unknown }).code === RUN_REVERTED)
      throw conflict(
        `import run ${run?.id} was reverted while it was running; it stopped after ${batches} batch(es), which the revert removed`,
      );
    throw e instanceof DomainError ? e : store.mapError(e);
  } finally {
    await source?.close();
  }
  summary.seconds = Math.round((performance.now() - started) / 10) / 100;
  return summary;
}

/** The record of a run as it ended: its status, the totals of the summary, the time. */
function finished(
  run: ImportRun,
  s: ImportSummary,
  status: ImportRun['status'],
  sha256: string | undefined,
  clock: Clock,
): ImportRun {
  return {
    ...run,
    status,
    sha256: run.sha256 ?? sha256 ?? null,
    read: s.read,
    created: s.created,
    unchanged: s.unchanged,
    revoked: s.revoked,
    rejected: s.rejected,
    finished_at: isoZ(clock.now()),
  };
}

/** The error an import body throws when the person running it interrupts it (Ctrl-C); the run records `interrupted`. */
export class ImportInterrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'ImportInterrupted';
  }
}
