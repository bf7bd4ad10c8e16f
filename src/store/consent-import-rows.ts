import { decideImportRow, type ImportRowState, type StoredMatch } from '../domain/consents/import-match.js';
import type { ConsentTables } from './db-types-consents.js';
import type { ImportJournal } from './journal/import-batch.js';

/**
 * The values of one validated import row, in this order, flattened into a batch array (a flat array of primitives is
 * the cheapest thing to hand to a worker thread or to serialise for COPY). `granted` is 0 or 1; absent values are null.
 */
export const ROW_FIELDS = [
  'user_id',
  'data_point_id',
  'granted',
  'granted_at',
  'revoked_at',
  'consent_version',
  'source',
  'ip_address',
  'user_agent',
] as const;
export const ROW_WIDTH = ROW_FIELDS.length;
export type BatchValue = string | number | null;

/** What an import writer needs to know, on either engine. */
export interface ImportWriterOptions {
  /** Pieces per transaction (a piece is at most 1,000 rows and 256K characters, so a transaction stays small). */
  batchPieces: number;
  tenant: string;
  /** The import's time: created_at, and granted_at of rows without one. */
  now: string;
  dryRun: boolean;
  /**
   * The record of the run (null in a dry run): its first transaction inserts it, each one adds its counts, so a run
   * stopped halfway is recorded with what it wrote; a transaction that finds the run reverted writes nothing.
   */
  run: ConsentTables['consent_import_run'] | null;
  /** Who the journal entries of the batches name; null: no entries (a dry run, or a benchmark without the journal). */
  journal: ImportJournal | null;
}

/** The columns of a run's record, for the writers' own statements. */
export const RUN_COLUMNS = [
  'id',
  'tenant_id',
  'file_name',
  'sha256',
  'format',
  'options',
  'status',
  'read',
  'created',
  'unchanged',
  'revoked',
  'rejected',
  'created_by',
  'started_at',
  'finished_at',
  'reverted_at',
  'reverted_by',
] as const satisfies ReadonlyArray<keyof ConsentTables['consent_import_run']>;

/** What one transaction adds to its run's counts: every row it took is read, a refused one rejected. */
export const runCounts = (rows: number, r: Omit<BatchResult, 'pieces'>) => ({
  read: rows,
  created: r.created,
  unchanged: r.unchanged,
  revoked: r.revoked,
  rejected: r.refused.length,
});

/** The code of the error a writer raises when the run it writes was reverted meanwhile. */
export const RUN_REVERTED = 'COMPLIANCE_IMPORT_RUN_REVERTED';

export const runReverted = (id: string): Error =>
  Object.assign(new Error(`import run ${id} was reverted while it was running`), { code: RUN_REVERTED });

/** A row a writer refused against the store: its position in the batch (0-based, across its pieces) and why. */
export interface Refusal {
  n: number;
  reason: string;
}

/**
 * What one transaction of an import did with its rows: the pieces it took, how many rows were new, equal to a stored
 * consent, or revoked one, and the rows it refused (each row is one of these).
 */
export interface BatchResult {
  pieces: number;
  created: number;
  unchanged: number;
  revoked: number;
  refused: Refusal[];
}

/** A staged row that matched a stored consent without equalling it, joined with one such consent (c_…). */
export interface CheckRow extends ImportRowState {
  n: number;
  c_id: string;
  c_granted_at: string;
  c_revoked_at: string | null;
  c_source: string | null;
  c_ip_address: string | null;
  c_user_agent: string | null;
}

export interface CheckDecision {
  n: number;
  action: 'unchanged' | 'revoke' | 'refuse';
  target?: string;
  reason?: string;
}

/**
 * The decisions of import-match.ts for staged rows the store could not decide alone, given every consent each matched
 * (rows ordered by n, then by consent id): the same on both engines.
 */
export function decideChecks(rows: CheckRow[]): CheckDecision[] {
  const out: CheckDecision[] = [];
  for (let i = 0; i < rows.length;) {
    const first = rows[i]!;
    const matches: StoredMatch[] = [];
    for (; i < rows.length && rows[i]!.n === first.n; i++) {
      const r = rows[i]!;
      matches.push({
        id: r.c_id,
        granted_at: r.c_granted_at,
        revoked_at: r.c_revoked_at,
        source: r.c_source,
        ip_address: r.c_ip_address,
        user_agent: r.c_user_agent,
      });
    }
    const d = decideImportRow(first, matches);
    if (d.kind === 'revoke') out.push({ n: first.n, action: 'revoke', target: d.consent_id });
    else if (d.kind === 'refuse') out.push({ n: first.n, action: 'refuse', reason: d.reason });
    else out.push({ n: first.n, action: 'unchanged' });
  }
  return out;
}

/**
 * Where the validated rows of an import go, on either engine: a writer with a connection of its own that writes them
 * in transactions of `batchPieces` pieces and reports each transaction as it commits.
 */
export interface ConsentImportWriter {
  /** Hands over a piece of rows without waiting; throws the writer's error if it has failed. */
  post(rows: BatchValue[]): void;
  /** Resolves once the writer has room again (at most two transactions' worth of pieces waiting). */
  ready(): Promise<void>;
  /** Writes what is left and closes the writer; throws the writer's error if it failed. */
  finish(): Promise<void>;
  /** Stops after a failure on the reading side; transactions already committed stay (whole batches only). */
  abort(): Promise<void>;
}

/** What an earlier row of a batch with one (user_id, data_point_id, granted, consent_version) left for later ones. */
interface Earlier {
  /** The last pass of any such row, and of one without granted_at. */
  any: number;
  none: number;
  /** The last pass per granted_at: one kept inline (most keys have one), more in a map. */
  at: string | null;
  atPass: number;
  more?: Map<string, number>;
}

const USER = ROW_FIELDS.indexOf('user_id');
const DATA_POINT = ROW_FIELDS.indexOf('data_point_id');
const GRANTED = ROW_FIELDS.indexOf('granted');
const GRANTED_AT = ROW_FIELDS.indexOf('granted_at');
const VERSION = ROW_FIELDS.indexOf('consent_version');

/**
 * The pass (1, 2, …) in which each row of a batch is written, in batch order: a row comes a pass after every earlier
 * row that could match the same stored consent, or the consent that row creates (the same user_id, data_point_id,
 * granted and consent_version, and granted_at equal or absent on either side). A batch written pass after pass reads
 * as row after row, so a grant and its revocation further down the file both count, whatever the batch boundaries;
 * rows of one pass never touch each other's consents, so each pass is written with set-based statements. Most batches
 * have one pass. A dry run writes nothing, so it compares every row with the store alone: one pass.
 */
export function passesOf(pieces: BatchValue[][], dryRun: boolean): { passes: number[]; last: number } {
  const passes: number[] = [];
  if (dryRun) {
    for (const piece of pieces) for (let i = 0; i < piece.length; i += ROW_WIDTH) passes.push(1);
    return { passes, last: 1 };
  }
  const seen = new Map<string, Earlier>();
  let last = 1;
  for (const piece of pieces)
    for (let i = 0; i < piece.length; i += ROW_WIDTH) {
      const key = `${piece[i + USER]}\u0000${piece[i + DATA_POINT]}\u0000${piece[i + GRANTED]}\u0000${piece[i + VERSION]}`;
      const at = piece[i + GRANTED_AT] as string | null;
      const e = seen.get(key);
      if (!e) {
        passes.push(1);
        seen.set(key, { any: 1, none: at === null ? 1 : 0, at, atPass: at === null ? 0 : 1 });
        continue;
      }
      const before = at === null ? e.any : Math.max(e.none, at === e.at ? e.atPass : (e.more?.get(at) ?? 0));
      const pass = before + 1;
      passes.push(pass);
      if (pass > last) last = pass;
      e.any = Math.max(e.any, pass);
      if (at === null) e.none = Math.max(e.none, pass);
      else if (e.at === null || e.at === at) {
        e.at = at;
        e.atPass = Math.max(e.atPass, pass);
      } else (e.more ??= new Map()).set(at, Math.max(e.more.get(at) ?? 0, pass));
    }
  return { passes, last };
}

/**
 * Where the counter in the last 48 bits of a batch's ids may start: below 2^47, so it never rolls over (RFC 9562 6.2,
 * method 1, seeds the counter at random and may keep its top bit clear).
 */
export const COUNTER_SEEDS = 2 ** 47;
