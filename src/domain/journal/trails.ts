import { nodeCrypto } from '../node-crypto.js';
import type { StoredEntry } from './chain.js';
import { BATCH_OP, changesOf, groupRows, idOf, type BatchData } from './changes.js';
import {
  TRAIL_TABLES,
  type JournalStore,
  type TrailColumns,
  type TrailDigestPage,
  type TrailOp,
  type TrailTable,
} from './journal-store.port.js';

export type { TrailColumns, TrailOp } from './journal-store.port.js';

/** One audit trail's table against what the journal says it holds. */
export interface TrailReport {
  table: TrailTable;
  rows: number;
  ok: boolean;
  problem?: { id: string; kind: 'edited' | 'deleted' | 'inserted'; message: string };
}

/**
 * A row as comparable text: its values in `columns` order as a JSON array, an absent value as null. The journal's
 * rows and the table's are both digested from it; columns a journal entry has and the table no longer has are not.
 */
export function rowText(columns: readonly string[], row: Record<string, unknown>): string {
  return JSON.stringify(columns.map((c) => row[c] ?? null));
}

/** The digest a trail row is compared by: of its text (`rowText`, or the engine's text of the same values). */
export const textDigest = (text: string): string => nodeCrypto().hash('sha256', text, 'base64');

/**
 * The trail rows an entry writes or deletes, each digested from its text: nothing for an entry of another table,
 * and a batch's groups of other tables (an import's consents) skipped unread. Pure, so the threads that check a chain
 * in ranges (JournalStore.checkChain) digest their entries' rows where they read them.
 */
export function trailOps(e: StoredEntry, trails: TrailColumns): TrailOp[] {
  if (!(e.entity in trails) && e.op !== BATCH_OP) return [];
  const data = e.data === null ? null : JSON.parse(e.data);
  const ops: TrailOp[] = [];
  if (e.op !== BATCH_OP || data === null) {
    for (const c of changesOf({ ...e, data })) {
      const columns = trails[c.entity];
      if (!columns) continue;
      if (c.row === null) ops.push({ table: c.entity, ids: [c.id] });
      else ops.push({ table: c.entity, ids: [c.id], digests: [textDigest(rowText(columns, c.row))] });
    }
    return ops;
  }
  const batch = data as BatchData;
  for (const g of batch.groups) {
    const columns = trails[g.entity];
    if (!columns) continue;
    const keyAt = g.key.map((k) => g.columns.indexOf(k));
    const idAt = keyAt.length === 1 ? keyAt[0]! : -1;
    // each table column's place among the group's values (-1: the group has no such column); none where they are
    // the table's columns in its order (an import's history rows), whose values are then the row's text as they are
    const at = columns.map((c) => g.columns.indexOf(c));
    const same = g.columns.length === at.length && at.every((i, j) => i === j);
    const op: TrailOp = { table: g.entity, ids: [] };
    if (g.op !== 'delete') op.digests = [];
    for (const values of groupRows(batch, g)) {
      op.ids.push(idAt >= 0 ? String(values[idAt]) : idOf(keyAt.map((i) => values[i])));
      op.digests?.push(textDigest(JSON.stringify(same ? values : at.map((i) => (i < 0 ? null : values[i])))));
    }
    ops.push(op);
  }
  return ops;
}

interface Trail {
  columns: string[];
  /** Each row's digest by id, as the journal's entries so far leave it. */
  rows: Map<string, string>;
  /** The table's rows read on another thread (startReading), where the store does. */
  early?: Promise<TrailDigestPage | undefined>;
}

/**
 * The audit trails of one tenant as its journal says they are (each row's digest, entry by entry), then compared with
 * the tables: the first row edited, removed or added outside the journal.
 */
export class TrailLedger {
  private constructor(
    private readonly store: JournalStore,
    private readonly trails: Map<string, Trail>,
  ) {
    this.columns = Object.fromEntries([...trails].map(([table, t]) => [table, t.columns]));
  }

  /** A ledger where the store can read the trail tables; undefined where it cannot (a chain read through the API). */
  static async open(store: JournalStore): Promise<TrailLedger | undefined> {
    if (!store.trailRows || !store.trailColumns) return undefined;
    const trails = new Map<string, Trail>();
    for (const table of TRAIL_TABLES) trails.set(table, { columns: await store.trailColumns(table), rows: new Map() });
    return new TrailLedger(store, trails);
  }

  /** The trails' tables and their columns: what trailOps needs to digest an entry's rows (on any thread). */
  readonly columns: TrailColumns;

  /** Takes in an entry: the trail rows it writes or deletes. */
  follow(e: StoredEntry): void {
    this.apply(trailOps(e, this.columns));
  }

  /** Takes in the trail rows an entry writes or deletes, as trailOps gives them (here or on another thread). */
  apply(ops: readonly TrailOp[]): void {
    for (const op of ops) {
      const rows = this.trails.get(op.table)?.rows;
      if (!rows) continue;
      if (op.digests) for (let i = 0; i < op.ids.length; i++) rows.set(op.ids[i]!, op.digests[i]!);
      else for (const id of op.ids) rows.delete(id);
    }
  }

  /**
   * Starts reading the trail tables on other threads where the store can (their rows' digests), so the reading runs
   * beside the walk of the journal that fills the ledger; `compare` reads the rest itself.
   */
  async startReading(tenant: string): Promise<void> {
    for (const [table, trail] of this.trails) {
      const reading = await this.store.trailDigests?.(tenant, table as TrailTable, trail.columns);
      // a thread that failed leaves the table to `compare`, which reads it here
      trail.early = reading?.done.catch(() => undefined);
    }
  }

  /** Each trail's table against the journal's rows: read as texts where the engine builds them, else row by row. */
  async compare(tenant: string): Promise<TrailReport[]> {
    const reports: TrailReport[] = [];
    for (const [name, trail] of this.trails) {
      const table = name as TrailTable;
      const whole = (id: string) => this.store.trailRow?.(tenant, table, id) ?? Promise.resolve(undefined);
      const early = await trail.early;
      const pages = early ? once(early) : this.digestPages(tenant, table, trail);
      reports.push(await compareTrail(table, trail, pages, whole));
    }
    return reports;
  }

  private async *digestPages(tenant: string, table: TrailTable, trail: Trail): AsyncIterable<TrailDigestPage> {
    const texts = this.store.trailTexts?.(tenant, table, trail.columns);
    if (texts) {
      for await (const page of texts)
        yield { ids: page.map(([id]) => id), digests: page.map(([, text]) => textDigest(text)) };
      return;
    }
    for await (const row of this.store.trailRows!(tenant, table))
      yield { ids: [String(row.id)], digests: [textDigest(rowText(trail.columns, row))] };
  }
}

async function* once<T>(value: T): AsyncIterable<T> {
  yield value;
}

/**
 * The table's rows against the journal's: the first row edited, removed or added outside the journal. A row whose
 * digest differs is checked again from the row read whole, as JSON.stringify writes it (an engine's text differs in
 * control characters), before it is called edited.
 */
async function compareTrail(
  table: TrailTable,
  trail: Trail,
  pages: AsyncIterable<TrailDigestPage>,
  whole: (id: string) => Promise<Record<string, unknown> | undefined>,
): Promise<TrailReport> {
  const expected = trail.rows;
  let n = 0;
  let problem: TrailReport['problem'];
  for await (const { ids, digests } of pages)
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      n++;
      if (problem) continue;
      const want = expected.get(id);
      if (want === undefined)
        problem = { id, kind: 'inserted', message: `${table} ${id} is in the table but in no journal entry` };
      else if (want !== digests[i] && !holds(want, trail.columns, await whole(id)))
        problem = { id, kind: 'edited', message: `${table} ${id} differs from its journal entry` };
      expected.delete(id);
    }
  const [missing] = expected.keys();
  if (!problem && missing !== undefined)
    problem = {
      id: missing,
      kind: 'deleted',
      message: `${table} ${missing} is in the journal but no longer in the table`,
    };
  return { table, rows: n, ok: !problem, ...(problem ? { problem } : {}) };
}

const holds = (want: string, columns: readonly string[], row: Record<string, unknown> | undefined): boolean =>
  row !== undefined && textDigest(rowText(columns, row)) === want;
