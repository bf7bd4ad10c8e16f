import { nodeCrypto } from '../node-crypto.js';
import type { StoredEntry } from './chain.js';
import { BATCH_OP, changesOf, eachGroupRow, idOf, type BatchData } from './changes.js';
import {
  TRAIL_TABLES,
  type JournalStore,
  type TrailColumns,
  type TrailDigestPage,
  type TrailOp,
  type TrailSnapshot,
  type TrailTable,
  type TrailTally,
} from './journal-store.port.js';

export type { TrailColumns, TrailOp, TrailTally } from './journal-store.port.js';

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

/** A key for one verification's tallies (TrailTally): drawn anew each time, never stored. */
export const tallyKey = (): string => nodeCrypto().randomBytes(24).toString('base64');

export const emptyTally = (): TrailTally => ({ rows: 0, a: 0, b: 0, c: 0 });

/** Each base64 digit's value, by its character code. */
const BASE64 = new Uint8Array(128);
for (const [i, ch] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries())
  BASE64[ch.charCodeAt(0)] = i;

/** The 24 bits of four base64 digits of `d` from `at`. */
const word = (d: string, at: number): number =>
  (BASE64[d.charCodeAt(at)]! << 18) |
  (BASE64[d.charCodeAt(at + 1)]! << 12) |
  (BASE64[d.charCodeAt(at + 2)]! << 6) |
  BASE64[d.charCodeAt(at + 3)]!;

/** Adds a row's text to a tally: the first 72 bits of its keyed digest, as three words. */
export function tallyText(t: TrailTally, key: string, text: string): void {
  const d = nodeCrypto().hash('sha256', key + text, 'base64');
  t.rows++;
  t.a += word(d, 0);
  t.b += word(d, 4);
  t.c += word(d, 8);
}

export function addTally(to: TrailTally, t: TrailTally): void {
  to.rows += t.rows;
  to.a += t.a;
  to.b += t.b;
  to.c += t.c;
}

/** Rows up to which a tally's sums are exact integers (each word is below 2^24); beyond, rows are compared by id. */
const TALLY_ROWS = 2 ** 29;

const sameTally = (x: TrailTally, y: TrailTally): boolean =>
  x.rows <= TALLY_ROWS && x.rows === y.rows && x.a === y.a && x.b === y.b && x.c === y.c;

/**
 * A trail's rows taken one by one, each its id and text: listed as their ids and digests, or with a `tally` key only
 * tallied under it (the ids and digests left empty). Both sides of a comparison take their rows so: the journal's
 * (trailOps) and the table's (a snapshot, on whichever thread reads it).
 */
export function takeRows(tally?: string): { add(id: unknown, text: string): void; page: TrailDigestPage } {
  const page: TrailDigestPage = { ids: [], digests: [] };
  if (tally !== undefined) page.tally = emptyTally();
  return {
    page,
    add(id, text) {
      if (page.tally) tallyText(page.tally, tally!, text);
      else {
        page.ids.push(String(id));
        page.digests.push(textDigest(text));
      }
    },
  };
}

/**
 * The trail rows an entry writes or deletes, each digested from its text (or, with a `tally` key, the rows it
 * writes tallied under it): nothing for an entry of another table, and a batch's groups of other tables (an import's
 * consents) skipped unread. Pure, so the threads that check a chain in ranges (JournalStore.checkChain) digest their
 * entries' rows where they read them.
 */
export function trailOps(e: StoredEntry, trails: TrailColumns, tally?: string): TrailOp[] {
  if (!(e.entity in trails) && e.op !== BATCH_OP) return [];
  const data = e.data === null ? null : JSON.parse(e.data);
  const ops: TrailOp[] = [];
  if (e.op !== BATCH_OP || data === null) {
    for (const c of changesOf({ ...e, data })) {
      const columns = trails[c.entity];
      if (!columns) continue;
      if (c.row === null) {
        ops.push({ seq: e.seq, table: c.entity, ids: [c.id] });
        continue;
      }
      const taken = takeRows(tally);
      taken.add(c.id, rowText(columns, c.row));
      ops.push({ seq: e.seq, table: c.entity, ...taken.page });
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
    const id = (values: unknown[]) => (idAt >= 0 ? String(values[idAt]) : idOf(keyAt.map((i) => values[i])));
    if (g.op === 'delete') {
      const op: TrailOp = { seq: e.seq, table: g.entity, ids: [] };
      eachGroupRow(batch, g, (values) => op.ids.push(id(values)));
      ops.push(op);
      continue;
    }
    const taken = takeRows(tally);
    eachGroupRow(batch, g, (values) =>
      taken.add(id(values), JSON.stringify(same ? values : at.map((i) => (i < 0 ? null : values[i])))),
    );
    ops.push({ seq: e.seq, table: g.entity, ...taken.page });
  }
  return ops;
}

/**
 * The audit trails of one tenant as its journal says they are (the rows each entry writes or deletes, digested),
 * compared with a snapshot of the tables: the first row edited, removed or added outside the journal. The snapshot
 * names the journal's last entry when it was taken, and the entries up to it are what it is compared with, so a write
 * committed while a verification runs is never taken for tampering.
 */
export class TrailLedger {
  /** Each trail's rows by id, with their digests, as the entries up to `settled` leave them (compared row by row). */
  private readonly expected = new Map(TRAIL_TABLES.map((t) => [t as string, new Map<string, string>()]));
  /** Each trail's rows as the entries up to `settled` leave them, tallied (compared by tallies). */
  private readonly tallies = new Map(TRAIL_TABLES.map((t) => [t as string, emptyTally()]));
  /** Whether an entry deleted trail rows, which a tally cannot take back: then only rows compared say how they stand. */
  private undecided = false;
  /**
   * The last entry before the snapshot was asked for: every snapshot holds it, so the rows of the entries up to it go
   * into `expected` as they come; those of later entries (written while the verification runs) wait for the
   * snapshot's head to say whether it holds them.
   */
  private settled = 0;
  private readonly later: TrailOp[] = [];

  private constructor(
    private readonly store: JournalStore,
    /** The trails' tables and their columns: what trailOps needs to digest an entry's rows (on any thread). */
    readonly columns: TrailColumns,
    /** The key the rows are tallied under (TrailTally); undefined where they are compared row by row. */
    readonly tally: string | undefined,
  ) {}

  /**
   * A ledger where the store can read the trail tables; undefined where it cannot (a chain read through the API).
   * `tallied`: the journal's rows and the tables' compared by their tallies (the rows by id where they differ).
   */
  static async open(store: JournalStore, { tallied }: { tallied: boolean }): Promise<TrailLedger | undefined> {
    if (!store.trailSnapshot || !store.trailColumns) return undefined;
    const columns: Record<string, string[]> = {};
    for (const table of TRAIL_TABLES) columns[table] = await store.trailColumns(table);
    return new TrailLedger(store, columns, tallied ? tallyKey() : undefined);
  }

  /** Takes in an entry: the trail rows it writes or deletes. */
  follow(e: StoredEntry): void {
    this.apply(trailOps(e, this.columns, this.tally));
  }

  /** Takes in the trail rows entries write or delete, in order, as trailOps gives them (here or on another thread). */
  apply(ops: readonly TrailOp[]): void {
    for (const op of ops) {
      if (op.seq > this.settled) this.later.push(op);
      else this.put(op);
    }
  }

  private put(op: TrailOp): void {
    const rows = this.expected.get(op.table);
    if (!rows) return;
    if (op.tally) addTally(this.tallies.get(op.table)!, op.tally);
    else if (op.digests) for (let i = 0; i < op.ids.length; i++) rows.set(op.ids[i]!, op.digests[i]!);
    else if (this.tally !== undefined) this.undecided = true;
    else for (const id of op.ids) rows.delete(id);
  }

  /**
   * Starts reading the trails' snapshot (on a thread of its own where the store reads so), to be compared later;
   * answers once it has begun, before the walk of the journal begins.
   */
  async read(tenant: string): Promise<{ read: Promise<TrailSnapshot> }> {
    this.settled = (await this.store.head(tenant))?.seq ?? 0;
    const reading = await this.store.trailSnapshot!(tenant, this.columns, this.tally);
    reading.read.catch(() => undefined); // awaited by `compare`, or left where the chain is broken
    return reading; // wrapped: an async function returning the promise itself would wait for it
  }

  /**
   * Each trail's rows in the snapshot against what the journal's entries up to the snapshot's head say. Undefined
   * where tallies do not settle it (one differs, or an entry deleted rows): a ledger that compares rows by id says
   * which row differs.
   */
  async compare(tenant: string, snapshot: TrailSnapshot): Promise<TrailReport[] | undefined> {
    for (const op of this.later.splice(0)) if (op.seq <= snapshot.head) this.put(op);
    if (this.tally !== undefined) return this.compareTallies(snapshot);
    const expected = this.expected;
    const reports: TrailReport[] = [];
    for (const table of TRAIL_TABLES) {
      const columns = this.columns[table]!;
      const whole = (id: string) => this.store.trailRow?.(tenant, table, id) ?? Promise.resolve(undefined);
      const page = snapshot.tables[table] ?? { ids: [], digests: [] };
      reports.push(await compareTrail(table, columns, expected.get(table)!, page, whole));
    }
    return reports;
  }

  private compareTallies(snapshot: TrailSnapshot): TrailReport[] | undefined {
    if (this.undecided) return undefined;
    const reports: TrailReport[] = [];
    for (const table of TRAIL_TABLES) {
      // a snapshot without the tally (a store that lists rows all the same) settles nothing here
      const read = snapshot.tables[table]?.tally;
      if (!read || !sameTally(read, this.tallies.get(table)!)) return undefined;
      reports.push({ table, rows: read.rows, ok: true });
    }
    return reports;
  }
}

/**
 * The table's rows against the journal's: the first row edited, removed or added outside the journal. A row whose
 * digest differs is checked again from the row read whole, as JSON.stringify writes it (an engine's text differs in
 * lone surrogates), before it is called edited.
 */
async function compareTrail(
  table: TrailTable,
  columns: readonly string[],
  expected: Map<string, string>,
  { ids, digests }: TrailDigestPage,
  whole: (id: string) => Promise<Record<string, unknown> | undefined>,
): Promise<TrailReport> {
  let problem: TrailReport['problem'];
  for (let i = 0; i < ids.length && !problem; i++) {
    const id = ids[i]!;
    const want = expected.get(id);
    if (want === undefined)
      problem = { id, kind: 'inserted', message: `${table} ${id} is in the table but in no journal entry` };
    else if (want !== digests[i] && !holds(want, columns, await whole(id)))
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
  return { table, rows: ids.length, ok: !problem, ...(problem ? { problem } : {}) };
}

const holds = (want: string, columns: readonly string[], row: Record<string, unknown> | undefined): boolean =>
  row !== undefined && textDigest(rowText(columns, row)) === want;
