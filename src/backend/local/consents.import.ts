import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { isoZ, type Clock } from '../../domain/clock.js';
import { consentTimeProblems } from '../../domain/consents/consent.rules.js';
import {
  CONSENT_FIELDS,
  ConsentCsvRow,
  ConsentInput,
  type ImportOptions,
  type ImportSummary,
} from '../../domain/consents/consent.schema.js';
import { DomainError } from '../../domain/errors.js';
import { detailsFromZod } from '../../domain/validation.js';
import { createRowDialect } from '../../domain/consents/csv-dialect.js';
import { resolveHeader } from '../../domain/consents/import-header.js';
import { openImportText, type ImportText } from './import-text.js';
import type { StreamBody } from '../../contract/operation.js';
import { storageError, type SqliteStore } from '../../store/sqlite/sqlite-store.js';
import type {
  ConsentBatchWriter,
  FromWriter,
  ToWriter,
  WriterOptions,
} from '../../store/sqlite/consent-import-writer.js';
import {
  ROW_WIDTH,
  type BatchResult,
  type BatchValue,
  type ImportWriterOptions,
} from '../../store/consent-import-rows.js';
import type { Store } from '../../store/store.js';
import type { PostgresStore } from '../../store/postgres/postgres-store.js';

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

/** Where validated rows go: a writer in a worker thread (the built CLI and server) or in this thread (tests on the sources). */
interface RowSink {
  /** Hands over a few hundred rows without waiting; throws the writer's error if it has failed. */
  post(rows: BatchValue[]): void;
  /** Resolves once the writer has room again (at most two transactions' worth of pieces waiting). */
  ready(): Promise<void>;
  /** Writes what is left, closes the writer and answers the totals. */
  finish(): Promise<BatchResult>;
  /** Stops after a failure on the reading side; transactions already committed stay (whole batches only). */
  abort(): Promise<void>;
}

const add = (total: BatchResult, r: BatchResult | undefined) => {
  if (r) {
    total.created += r.created;
    total.unchanged += r.unchanged;
  }
};

class InThreadSink implements RowSink {
  private readonly total: BatchResult = { created: 0, unchanged: 0 };
  constructor(private readonly writer: ConsentBatchWriter) {}
  post(rows: BatchValue[]): void {
    add(this.total, this.writer.add(rows));
  }
  ready(): Promise<void> {
    return Promise.resolve();
  }
  async finish(): Promise<BatchResult> {
    add(this.total, this.writer.finish());
    return this.total;
  }
  async abort(): Promise<void> {
    this.writer.close();
  }
}

const writerError = (m: { message: string; code?: string }) =>
  Object.assign(new Error(m.message), m.code ? { code: m.code } : {});

/**
 * Parsing and validating (JavaScript) and writing (SQLite) take about the same time per row, so the writer runs in a
 * worker thread and the two overlap. Rows travel as flat arrays of primitives, cheap to copy between threads.
 */
class WorkerSink implements RowSink {
  private inflight = 0;
  private closed = false;
  private error: unknown;
  private waiters: Array<() => void> = [];
  private readonly total: BatchResult = { created: 0, unchanged: 0 };
  private readonly exited: Promise<void>;

  private constructor(
    private readonly worker: Worker,
    private readonly batchPieces: number,
  ) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (m: FromWriter) => {
      if (m.type === 'done') {
        this.inflight -= m.pieces;
        add(this.total, m);
      } else if (m.type === 'error') this.error ??= writerError(m);
      else if (m.type === 'closed') this.closed = true;
      this.wake();
    });
    worker.on('error', (e) => {
      this.error ??= e;
      this.wake();
    });
    void this.exited.then(() => {
      if (!this.closed) this.error ??= new Error('the import writer stopped unexpectedly');
      this.wake();
    });
  }

  static async start(url: string, role: string, options: WriterOptions): Promise<WorkerSink> {
    // small heap limits make the writer collect garbage early (rows arrive in pieces and die young); a transaction
    // holds at most 10 pieces of 256K characters, far below the limit (measured: 172 MB peak for 1M rows, 207 MB without)
    const worker = new Worker(new URL(url), {
      workerData: { role, options },
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 48 },
    });
    const first = await new Promise<FromWriter | Error>((resolve) => {
      worker.once('message', resolve);
      worker.once('error', resolve);
    });
    if (first instanceof Error || first.type === 'error') {
      await worker.terminate();
      throw first instanceof Error ? first : writerError(first);
    }
    return new WorkerSink(worker, options.batchPieces);
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  post(rows: BatchValue[]): void {
    if (this.error) throw this.error;
    this.inflight++;
    this.worker.postMessage({ type: 'rows', rows } satisfies ToWriter);
  }

  async ready(): Promise<void> {
    while (!this.error && this.inflight >= 2 * this.batchPieces) await new Promise<void>((r) => this.waiters.push(r));
    if (this.error) throw this.error;
  }

  async finish(): Promise<BatchResult> {
    this.worker.postMessage({ type: 'end' } satisfies ToWriter);
    await this.exited;
    if (this.error) throw this.error;
    return this.total;
  }

  async abort(): Promise<void> {
    // the writer finishes the transaction in hand (one is never left half done), then closes the database
    this.worker.postMessage({ type: 'abort' } satisfies ToWriter);
    const timer = setTimeout(() => void this.worker.terminate(), 60_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/**
 * Whether the SQLite writer runs in a worker thread: it does whenever its module is a built .js file (the CLI and the
 * server), since a worker can only start from one; the test suite runs the TypeScript sources in this thread.
 */
export const writesInWorker = (writerUrl: string): boolean => writerUrl.endsWith('.js');

/**
 * The writer for the store's engine: on SQLite a writer in a worker thread (the built CLI and server) or in this thread
 * (tests on the sources); on PostgreSQL a COPY writer on a connection of its own, whose work runs in the server.
 */
async function openSink(store: Store, options: ImportWriterOptions): Promise<RowSink> {
  if (store.kind === 'postgres') {
    const { PostgresConsentWriter } = await import('../../store/postgres/consent-import-writer.js');
    try {
      return await PostgresConsentWriter.start((store as PostgresStore).url, options);
    } catch (e) {
      throw store.mapError(e);
    }
  }
  // the file open, which differs from the location while a store that does not exist reads as empty (a dry run)
  const file = (store as SqliteStore).file;
  // imported on its own so the bundle keeps it in a small file of its own, which is what the worker thread loads
  const { ConsentBatchWriter, WRITER_ROLE, WRITER_URL } = await import('../../store/sqlite/consent-import-writer.js');
  const sqliteOptions: WriterOptions = { ...options, file };
  try {
    return writesInWorker(WRITER_URL)
      ? await WorkerSink.start(WRITER_URL, WRITER_ROLE, sqliteOptions)
      : new InThreadSink(new ConsentBatchWriter(sqliteOptions));
  } catch (e) {
    throw storageError(file, e);
  }
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

/**
 * Bulk import of consents from CSV or NDJSON. Streams, validates every row with the API's schema, skips rows equal to
 * a stored consent (so a second run creates nothing), writes consent and history rows with prepared statements in
 * transactions of 10,000 rows on a connection of its own. A run stopped halfway leaves whole batches; running it again
 * completes it.
 */
export async function importConsents(
  store: Store,
  tenant: string,
  input: ImportStream,
  opts: ImportOptions,
  clock: Clock,
): Promise<ImportSummary> {
  const started = performance.now();
  const map = parseMap(opts.map);
  const kind = /ndjson|jsonl|json/i.test(input.content_type) ? 'ndjson' : 'csv';
  const summary: ImportSummary = {
    read: 0,
    created: 0,
    unchanged: 0,
    rejected: 0,
    seconds: 0,
    dry_run: opts.dry_run,
    rejections: [],
  };
  const options: ImportWriterOptions = {
    tenant,
    batchPieces: BATCH_PIECES,
    now: isoZ(clock.now()),
    dryRun: opts.dry_run,
  };

  const out = await openSink(store, options);
  // the API's schema with zod's generated fast path (about 4x faster per row); a row the fast path does not accept
  // goes through the ordinary parser, so refusals and their messages are the schema's own
  const rowSchema = z.compile(kind === 'csv' ? ConsentCsvRow : ConsentInput);
  const importedAt = clock.now();
  const dialect = createRowDialect(opts);
  let piece: BatchValue[] = [];
  let pieceChars = 0;
  const sink: Sink = {
    reject(line, reason) {
      summary.read++;
      summary.rejected++;
      if (summary.rejections.length < MAX_LISTED) summary.rejections.push({ line, reason });
      input.onReject?.(line, reason);
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
      if (piece.length >= PIECE_ROWS * ROW_WIDTH || pieceChars >= PIECE_CHARS) {
        out.post(piece);
        piece = [];
        pieceChars = 0;
      }
    },
  };

  let source: ImportText | undefined;
  try {
    source = await openImportText(input, opts.encoding, opts.dry_run, () => out.ready());
    if (kind === 'ndjson') await readNdjson(source.text, map, sink);
    else await readCsv(source.text, opts, map, sink);
    if (piece.length) out.post(piece);
    Object.assign(summary, await out.finish());
  } catch (e) {
    await out.abort().catch(() => undefined);
    throw e instanceof DomainError ? e : store.mapError(e);
  } finally {
    await source?.close();
  }
  summary.seconds = Math.round((performance.now() - started) / 10) / 100;
  return summary;
}
