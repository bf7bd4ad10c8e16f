import * as z from 'zod';
import { isoZ, type Clock, type IdSource } from '../../domain/clock.js';
import { consentTimeProblems } from '../../domain/consents/consent.rules.js';
import {
  ConsentCsvRow,
  ConsentInput,
  type ImportOptions,
  type ImportSummary,
} from '../../domain/consents/consent.schema.js';
import { conflict, DomainError } from '../../domain/errors.js';
import type { ImportRun, ImportRunOptions } from '../../domain/consents/import-run.schema.js';
import { detailsFromZod } from '../../domain/validation.js';
import { createRowDialect } from '../../domain/consents/csv-dialect.js';
import { openImportText, type ImportText } from './import-text.js';
import { IMPORT_BATCH, PIECE_ROWS } from './import-batch-rows.js';
import { rejection, RejectionLedger, type Rejection } from './import-rejections.js';
import { parseMap, readCsv, readNdjson, type RawRow, type Sink } from './import-readers.js';

import type { StreamBody } from '../../contract/operation.js';
import {
  ROW_WIDTH,
  RUN_REVERTED,
  type BatchValue,
  type ConsentImportWriter,
  type ImportWriterOptions,
} from '../../store/consent-import-rows.js';
import { runToRow } from '../../store/kysely/consent-import-run.store.js';
import { importJournal } from '../../store/journal/import-batch.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';
import type { Store } from '../../store/store.js';

/** Rows are handed to the writer in pieces of at most 1,000 rows (PIECE_ROWS) and 256K characters. */
const PIECE_CHARS = 256 * 1024;
const MAX_LISTED = 10_000;

/**
 * An import body as the local backend receives it. In process (the CLI on a local store) the caller may add
 * `onReject` to receive every refused row as it is found, beyond the first 10,000 that the summary lists; over HTTP only
 * the summary travels.
 */
export type ImportStream = StreamBody & {
  onReject?: (r: Rejection) => void;
  /** A CSV file's header row as read and the delimiter in use, before its first refused row (for a rejects file). */
  onColumns?: (columns: string[], delimiter: string) => void;
  /** The caller has decoded the whole body once already (a local file), so it may stream without a temporary copy. */
  checked?: boolean;
  /** SHA-256 of the body's bytes (hex), when the caller read it before (a local file); else computed as it is read. */
  sha256?: string;
  /** After each committed transaction: the totals so far (what a run interrupted now has written). */
  onProgress?: (
    s: Pick<ImportSummary, 'run_id' | 'created' | 'unchanged' | 'revoked' | 'renewed' | 'rejected'>,
  ) => void;
};

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
const runOptions = (o: ImportOptions): ImportRunOptions => ({
  ...Object.fromEntries(
    (['delimiter', 'map', 'encoding', 'true_values', 'false_values', 'date_format', 'timezone'] as const)
      .filter((k) => o[k] !== undefined)
      .map((k) => [k, o[k]]),
  ),
  ...(o.raw_cells ? { raw_cells: true } : {}),
});

/** Who runs an import, and with what: the tenant, the actor recorded on the run, the clock and the ids. */
export interface ImportContext {
  tenant: string;
  actor: string | undefined;
  clock: Clock;
  ids: IdSource;
  /** Where the run's record is written when the writer did not (a run none of whose rows reached it) and finished. */
  uow: UnitOfWork;
  /** Rows per transaction (importBatchRows); 10,000 unless the operator set fewer. */
  batchRows?: number;
}

/**
 * Bulk import of consents from CSV or NDJSON. Streams, validates every row with the API's schema, compares it with the
 * stored consents (import-match.ts: new, unchanged, revoked, renewed or refused, so a second run creates nothing), writes
 * consent and history rows in transactions of `ctx.batchRows` (10,000 by default) on a connection of its own. Every run
 * but a dry one is recorded (import-run.schema.ts) by its first transaction, and the consents and entries it writes
 * carry its id, so it can be listed and reverted. A run stopped halfway leaves whole batches and its record says so;
 * running it again completes it.
 */
export async function importConsents(
  store: Store,
  ctx: ImportContext,
  input: ImportStream,
  opts: ImportOptions,
): Promise<ImportSummary> {
  const { tenant, clock } = ctx;
  const batchRows = ctx.batchRows ?? IMPORT_BATCH;
  const pieceRows = Math.min(PIECE_ROWS, batchRows);
  const started = performance.now();
  const map = parseMap(opts.map);
  const kind = /ndjson|jsonl|json/i.test(input.content_type) ? 'ndjson' : 'csv';
  const summary: ImportSummary = {
    run_id: null,
    columns: null,
    delimiter: null,
    read: 0,
    created: 0,
    unchanged: 0,
    revoked: 0,
    renewed: 0,
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
    input.onReject?.(r);
  });
  let out: ConsentImportWriter | undefined;
  let batches = 0;
  let piece: BatchValue[] = [];
  let lines: number[] = [];
  let raws: RawRow[] = [];
  let pieceChars = 0;
  const post = () => {
    ledger.piece(lines, raws);
    out!.post(piece);
    piece = [];
    lines = [];
    raws = [];
    pieceChars = 0;
  };
  const sink: Sink = {
    header(columns, delimiter) {
      summary.columns = columns;
      summary.delimiter = delimiter;
      input.onColumns?.(columns, delimiter);
    },
    reject(line, reason, raw) {
      summary.read++;
      summary.rejected++;
      ledger.reject(rejection(line, reason, raw));
    },
    row(line, record, raw) {
      const unreadable = dialect(record);
      if (unreadable) return sink.reject(line, unreadable, raw);
      const parsed = rowSchema.safeParse(record, { reportInput: true });
      if (!parsed.success)
        return sink.reject(
          line,
          detailsFromZod(parsed.error)
            .map((d) => `${d.path}: ${d.message}`)
            .join('; '),
          raw,
        );
      const c = parsed.data;
      const times = consentTimeProblems(c, importedAt);
      if (times.length) return sink.reject(line, times.map((d) => `${d.path}: ${d.message}`).join('; '), raw);
      summary.read++;
      lines.push(line);
      raws.push(raw);
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
      if (piece.length >= pieceRows * ROW_WIDTH || pieceChars >= PIECE_CHARS) post();
    },
  };

  const runs = {
    insert: (r: ImportRun) => ctx.uow.write(tenant, (tx) => tx.consentImports.insert(r)),
    finish: (r: ImportRun) => ctx.uow.write(tenant, (tx) => tx.consentImports.finish(r)),
  };
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
        renewed: 0,
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
      batchPieces: Math.ceil(batchRows / pieceRows),
      now: isoZ(importedAt),
      dryRun: opts.dry_run,
      run: run ? runToRow(run) : null,
      journal: run ? importJournal(run.created_by) : null,
    };
    out = await store.openConsentImportWriter(options, (r) => {
      batches++;
      summary.created += r.created;
      summary.unchanged += r.unchanged;
      summary.revoked += r.revoked;
      summary.renewed += r.renewed;
      summary.rejected += r.refused.length;
      ledger.batch(r);
      input.onProgress?.(summary);
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
        .finish(finished(run, summary, input.signal?.aborted ? 'interrupted' : 'failed', undefined, clock))
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
    renewed: s.renewed,
    rejected: s.rejected,
    finished_at: isoZ(clock.now()),
  };
}
