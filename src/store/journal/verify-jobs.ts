import { ChainVerifier, type StoredEntry } from '../../domain/journal/chain.js';
import type { TrailDigestPage, TrailSnapshot } from '../../domain/journal/journal-store.port.js';
import { takeRows, trailOps, type TrailColumns, type TrailOp } from '../../domain/journal/trails.js';

/**
 * The reading of a verification that can run beside the rest, in a thread of its own on a connection of its own: a
 * range of a tenant's chain, or the digests of an audit trail's rows. A job carries its statement, compiled where the
 * store composes its queries (journal.store.ts), so a thread runs SQL it did not write.
 */
export type VerifyJob =
  | {
      kind: 'chain';
      sql: string;
      parameters: readonly unknown[];
      tenant: string;
      /** The hash an anchor names: the entry carrying it is reported. */
      anchor?: string;
      /** The audit trails and their columns: the rows each entry writes or deletes in them are handed back. */
      trails: TrailColumns;
      /** The key the rows written are tallied under (TrailTally); absent: each row's id and digest. */
      tally?: string;
    }
  | {
      kind: 'trails';
      /** The tenant's last entry, then each trail's ids and texts, read in one snapshot. */
      head: Statement;
      tables: Array<{ table: string } & Statement>;
      /** The key each trail's rows are tallied under (TrailTally); absent: each row's id and digest. */
      tally?: string;
    };

/** A statement compiled where the store composes its queries. */
export interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** A range of a chain whose entries all hold and link to each other; `ok: false` where one does not. */
export type ChainRange =
  | {
      ok: true;
      /** The first entry's number and the hash it links to, the last entry's number and hash (none: no entries). */
      first?: { seq: number; prev: string };
      last?: { seq: number; hash: string };
      count: number;
      anchored?: number;
      /** The trail rows the entries write or delete, in order (trails.ts `trailOps`). */
      ops: TrailOp[];
    }
  | { ok: false };

/** The trails in one snapshot (each row's id and the digest of the engine's text of it); `ok: false` where not. */
export type TrailsRead = ({ ok: true } & TrailSnapshot) | { ok: false };

export type VerifyResult = ChainRange | TrailsRead;

/** Where jobs can run in threads of their own (the SQLite store: worker threads, each opening the file again). */
export interface VerifyThreads {
  /** The job's result, or undefined where it cannot run in a thread here (the sources run by the tests). */
  run<J extends VerifyJob>(job: J): Promise<(J['kind'] extends 'chain' ? ChainRange : TrailsRead) | undefined>;
}

/** The columns the statement of a chain job reads (journal.store.ts `preimageQuery`), in this order. */
export const PREIMAGE_COLUMNS = [
  'seq',
  'prev_hash',
  'hash',
  'data_hash',
  'entity',
  'entity_id',
  'op',
  'data',
  'preimage',
] as const;
type PreimageValues = [number, string, string, string, string, string, string, string | null, string | null];

/** Those columns as one row. */
export interface PreimageRow {
  seq: number | string;
  prev_hash: string;
  hash: string;
  data_hash: string;
  entity: string;
  entity_id: string;
  op: string;
  data: string | null;
  preimage: string | null;
}

/**
 * An entry read with the text its hash covers, without the fields that text holds (txn, time, actor, principal),
 * built field by field: spreading a row of a page of 1,000 cost as much as reading it (1M entries).
 */
export const preimageEntry = (tenant: string, r: PreimageRow): StoredEntry => ({
  tenant_id: tenant,
  seq: Number(r.seq),
  txn: '',
  time: '',
  actor: '',
  principal: '',
  entity: r.entity,
  entity_id: r.entity_id,
  op: r.op,
  data: r.data,
  data_hash: r.data_hash,
  prev_hash: r.prev_hash,
  hash: r.hash,
  preimage: r.preimage!,
});

/** What a thread does with its connection: reads a job's statements (each row an array of values) in a snapshot. */
export interface JobConnection {
  /** The rows of a statement, each an array of values, with the statement's column names. */
  rows(statement: Statement): { columns: string[]; rows: Iterable<unknown[]> };
  /** Runs `fn` in one read transaction. */
  snapshot<T>(fn: () => T): T;
}

/** Runs a job on a connection of its own. */
export function runVerifyJob(job: VerifyJob, conn: JobConnection): VerifyResult {
  if (job.kind === 'chain') {
    const { columns, rows } = conn.rows(job);
    return chainRange(job, columns, rows);
  }
  return conn.snapshot(() => {
    const [head] = conn.rows(job.head).rows;
    const tables: TrailSnapshot['tables'] = {};
    for (const t of job.tables) tables[t.table] = trailDigests(conn.rows(t).rows, job.tally);
    return { ok: true, head: Number(head?.[0] ?? 0), tables } as const;
  });
}

function chainRange(job: Extract<VerifyJob, { kind: 'chain' }>, columns: readonly string[], rows: Iterable<unknown[]>) {
  if (columns.join() !== PREIMAGE_COLUMNS.join()) return { ok: false } as const;
  let v: ChainVerifier | undefined;
  let first: { seq: number; prev: string } | undefined;
  let anchored: number | undefined;
  const ops: TrailOp[] = [];
  for (const values of rows) {
    const [seq, prev_hash, hash, data_hash, entity, entity_id, op, data, preimage] = values as PreimageValues;
    const e = preimageEntry(job.tenant, { seq, prev_hash, hash, data_hash, entity, entity_id, op, data, preimage });
    if (!first) {
      first = { seq: e.seq, prev: e.prev_hash };
      v = new ChainVerifier({ seq: e.seq - 1, hash: e.prev_hash });
    }
    // an entry that does not hold is left to the walk on one thread, which says what is wrong
    if (!v!.push(e)) return { ok: false } as const;
    if (e.hash === job.anchor) anchored = e.seq;
    for (const op of trailOps(e, job.trails, job.tally)) ops.push(op);
  }
  const last = v?.count ? v.head : undefined;
  return {
    ok: true,
    first,
    last,
    count: v?.count ?? 0,
    ops,
    ...(anchored !== undefined ? { anchored } : {}),
  } as const;
}

function trailDigests(rows: Iterable<unknown[]>, tally?: string): TrailDigestPage {
  const taken = takeRows(tally);
  for (const [id, text] of rows) taken.add(id, String(text));
  return taken.page;
}
