import { decideImport, type ImportRow, type StoredConsent } from '../domain/consents/import-match.js';
import { counterId } from '../domain/journal/changes.js';
import type { ConsentTables } from './db-types-consents.js';

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

/** Who the journal records for an import's batch entries (journal/import-batch.ts). */
export interface ImportJournal {
  actor: string;
  principal: string;
}

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
  'renewed',
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
  renewed: r.renewed,
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
 * consent, revoked one (also a refusal withdrawing the grant in force) or renewed the grant in force, and the rows it
 * refused (each row is one of these).
 */
export interface BatchResult {
  pieces: number;
  created: number;
  unchanged: number;
  revoked: number;
  renewed: number;
  refused: Refusal[];
}

/** A staged row to be decided in JS, joined with one stored consent of its user and data point (c_…). */
export interface CheckRow {
  n: number;
  granted: number;
  granted_at: string | null;
  revoked_at: string | null;
  consent_version: string;
  source: string | null;
  ip_address: string | null;
  user_agent: string | null;
  c_id: string;
  c_granted: number;
  c_granted_at: string;
  c_revoked_at: string | null;
  c_consent_version: string;
  c_source: string | null;
  c_ip_address: string | null;
  c_user_agent: string | null;
}

/** A `granted`, `renewed` or `version_update` entry of a stored grant: when the user said yes, to which version. */
export interface Affirmation {
  consent_id: string;
  created_at: string;
  consent_version: string;
}

/** A change a decided row makes to a stored consent, with the id of its history entry. */
export interface StoredChange {
  n: number;
  kind: 'revoke' | 'renew';
  target: string;
  at: string;
  /** The version a renewal gives the consent (the row's). */
  version: string;
  id: string;
}

export interface CheckDecision {
  n: number;
  action: 'unchanged' | 'refuse' | 'create' | 'revoke' | 'renew';
  reason?: string;
  /** The revoked_at a created consent gets (the row's own, or that of a later refusal stored already). */
  revoked_at?: string | null;
  changes: Array<Omit<StoredChange, 'id'>>;
}

/** What a decided row counts as in the summary: a row that revoked a stored consent is `revoked`, also a refusal. */
export const countOf = (d: CheckDecision): 'created' | 'unchanged' | 'revoked' | 'renewed' | 'refused' =>
  d.action === 'create'
    ? d.changes.length
      ? 'revoked'
      : 'created'
    : d.action === 'revoke'
      ? 'revoked'
      : d.action === 'renew'
        ? 'renewed'
        : d.action === 'refuse'
          ? 'refused'
          : 'unchanged';

/**
 * The decisions of import-match.ts for staged rows the store could not decide alone, given every stored consent of
 * each row's user and data point (rows ordered by n, then by consent id) and the yes entries of those that are grants:
 * the same on both engines. `now` is the import's time.
 */
export function decideChecks(rows: CheckRow[], affirmations: Affirmation[], now: string): CheckDecision[] {
  const yes = new Map<string, Array<{ at: string; consent_version: string }>>();
  for (const a of affirmations) {
    const list = yes.get(a.consent_id) ?? [];
    list.push({ at: a.created_at, consent_version: a.consent_version });
    yes.set(a.consent_id, list);
  }
  const out: CheckDecision[] = [];
  for (let i = 0; i < rows.length;) {
    const first = rows[i]!;
    const stored: StoredConsent[] = [];
    for (; i < rows.length && rows[i]!.n === first.n; i++) {
      const r = rows[i]!;
      stored.push({
        id: r.c_id,
        granted: r.c_granted === 1,
        granted_at: r.c_granted_at,
        revoked_at: r.c_revoked_at,
        consent_version: r.c_consent_version,
        source: r.c_source,
        ip_address: r.c_ip_address,
        user_agent: r.c_user_agent,
        banner_revision: null,
        policy_version_id: null,
        policy_content_hash: null,
        affirmations: yes.get(r.c_id) ?? [],
      });
    }
    const row: ImportRow = { ...first, granted: first.granted === 1 };
    const d = decideImport(row, stored, now);
    const n = first.n;
    const version = first.consent_version;
    if (d.kind === 'unchanged') out.push({ n, action: 'unchanged', changes: [] });
    else if (d.kind === 'refuse') out.push({ n, action: 'refuse', reason: d.reason, changes: [] });
    else if (d.kind === 'revoke')
      out.push({
        n,
        action: 'revoke',
        changes: [{ n, kind: 'revoke', target: d.consent_id, at: first.revoked_at!, version }],
      });
    else if (d.kind === 'renew')
      out.push({ n, action: 'renew', changes: [{ n, kind: 'renew', target: d.consent_id, at: d.at, version }] });
    else
      out.push({
        n,
        action: 'create',
        revoked_at: d.revoked_at,
        changes: d.revokes.map((r) => ({ n, kind: 'revoke' as const, target: r.consent_id, at: r.at, version })),
      });
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

const USER = ROW_FIELDS.indexOf('user_id');
const DATA_POINT = ROW_FIELDS.indexOf('data_point_id');

/**
 * The pass (1, 2, …) in which each row of a batch is written, in batch order: a row comes a pass after every earlier
 * row of the same user and data point, whose decisions it may depend on (a grant and its refusal further down, a
 * grant and its revocation). A batch written pass after pass reads as row after row, whatever the batch boundaries;
 * rows of one pass concern different users or data points, so each pass is written with set-based statements. Most
 * batches have one pass. A dry run writes nothing, so it compares every row with the store alone: one pass.
 */
export function passesOf(pieces: BatchValue[][], dryRun: boolean): { passes: number[]; last: number } {
  const passes: number[] = [];
  const seen = new Map<string, number>();
  let last = 1;
  for (const piece of pieces)
    for (let i = 0; i < piece.length; i += ROW_WIDTH) {
      if (dryRun) {
        passes.push(1);
        continue;
      }
      const key = `${piece[i + USER]}\u0000${piece[i + DATA_POINT]}`;
      const pass = (seen.get(key) ?? 0) + 1;
      seen.set(key, pass);
      passes.push(pass);
      if (pass > last) last = pass;
    }
  return { passes, last };
}

/** The id of the `k`-th change to a stored consent in a batch of `rows` rows: after the three ids of each row. */
export const changeId = (prefix: string, start: number, rows: number, k: number): string =>
  counterId(prefix, start + 3 * rows + k);

/**
 * Where the counter in the last 48 bits of a batch's ids may start: below 2^47, so it never rolls over (RFC 9562 6.2,
 * method 1, seeds the counter at random and may keep its top bit clear).
 */
export const COUNTER_SEEDS = 2 ** 47;
