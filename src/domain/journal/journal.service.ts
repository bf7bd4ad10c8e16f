import { DomainError, notFound } from '../errors.js';
import { ChainVerifier, GENESIS_HASH, type ChainProblem, type StoredEntry } from './chain.js';
import type { JournalAnchor, JournalEntry, JournalPage, JournalQuery } from './journal.schema.js';
import { TRAIL_TABLES, type JournalStore, type TrailTable } from './journal-store.port.js';
import { BATCH_OP, changesOf, groupRows, idOf, type BatchData } from './changes.js';
import { hash } from 'node:crypto';

/** The entry data a page of the journal holds at most, unless one entry alone is larger (UTF-16 code units). */
export const PAGE_BYTES = 2_000_000;

/** Entries read per query while verifying. */
const VERIFY_PAGE = 1_000;

/** What `audit verify` found for one tenant's chain. */
export interface ChainReport {
  tenant: string;
  entries: number;
  /** The last entry of the intact part of the chain. */
  head: { seq: number; hash: string };
  ok: boolean;
  problem?: ChainProblem;
  anchor?: { hash: string; seq?: number; ok: boolean; message: string };
  /** The audit trails compared with the journal (absent when the chain is broken, or read through the API). */
  trails?: TrailReport[];
}

/** One audit trail's table against what the journal says it holds. */
export interface TrailReport {
  table: TrailTable;
  rows: number;
  ok: boolean;
  problem?: { id: string; kind: 'edited' | 'deleted' | 'inserted'; message: string };
}

/** Per list of column names as rows have them: the positions in name order, each with its name as JSON and a colon. */
const digestPlans = new Map<string, DigestPlan>();
interface DigestPlan {
  order: number[];
  names: string[];
}

function digestPlan(columns: string[]): DigestPlan {
  const key = columns.join('\u0000');
  let plan = digestPlans.get(key);
  if (!plan) {
    const order = columns.map((_, i) => i).sort((a, b) => (columns[a]! < columns[b]! ? -1 : 1));
    digestPlans.set(key, (plan = { order, names: order.map((i) => `${JSON.stringify(columns[i])}:`) }));
  }
  return plan;
}

/**
 * A row as comparable text, hashed: columns in name order, an absent column the same as null. The row's values in
 * the order of `plan`'s columns; the names are sorted and quoted once per list of columns rather than once per row.
 */
function valuesDigest(plan: DigestPlan, values: unknown[]): string {
  let text = '';
  for (let j = 0; j < plan.order.length; j++) {
    const v = values[plan.order[j]!];
    if (v !== null && v !== undefined) text += `${plan.names[j]}${JSON.stringify(v)},`;
  }
  return hash('sha256', text, 'base64');
}

const rowDigest = (row: Record<string, unknown>): string => {
  const names = Object.keys(row);
  return valuesDigest(
    digestPlan(names),
    names.map((k) => row[k]),
  );
};

/** The anchor to check: a hash, or what `audit anchor --json` printed. */
export interface AnchorCheck {
  hash: string;
  seq?: number;
}

export const toWire = (e: StoredEntry): JournalEntry => ({
  seq: e.seq,
  txn: e.txn,
  time: e.time,
  actor: e.actor,
  principal: e.principal,
  origin: e.origin ?? null,
  entity: e.entity,
  entity_id: e.entity_id,
  op: e.op,
  data: e.data === null ? null : JSON.parse(e.data),
  data_hash: e.data_hash,
  prev_hash: e.prev_hash,
  hash: e.hash,
});

/** The journal as read by clients (a page at a time) and by auditors (the chain verified end to end). */
export class JournalService {
  constructor(private readonly store: JournalStore) {}

  /**
   * Up to `q.limit` entries, fewer where their data passes PAGE_BYTES: a bulk import's entries are megabytes each,
   * and a page of a thousand of them would keep a client waiting for all before it can write the first. The entries
   * are read in runs that grow while they stay small, so a page of large ones reads few more than it sends.
   */
  async page(tenant: string, q: JournalQuery): Promise<JournalPage> {
    const rows: StoredEntry[] = [];
    let bytes = 0;
    for (let run = 1; rows.length < q.limit && bytes < PAGE_BYTES; run *= 2) {
      const after = rows.length ? rows[rows.length - 1]!.seq : q.after;
      const want = Math.min(run, q.limit - rows.length);
      const read = await this.store.page(tenant, after, want);
      for (const e of read) {
        if (bytes >= PAGE_BYTES) break;
        rows.push(e);
        bytes += e.data?.length ?? 0;
      }
      if (read.length < want) break;
    }
    const head = (await this.store.head(tenant))?.seq ?? 0;
    const last = rows.length ? rows[rows.length - 1]!.seq : q.after;
    return { entries: rows.map(toWire), head_seq: head, next_after: last < head ? last : null };
  }

  async anchor(tenant: string): Promise<JournalAnchor> {
    const head = await this.store.head(tenant);
    return { tenant, seq: head?.seq ?? 0, head: head?.hash ?? GENESIS_HASH };
  }

  /**
   * Every chain of the store (or the tenant's), each walked from its first entry to its head; the audit trails are
   * compared with it unless `trails` is false (`db status` checks the chains alone).
   */
  async verify(tenant?: string, anchor?: AnchorCheck, { trails = true } = {}): Promise<ChainReport[]> {
    const tenants = tenant === undefined ? await this.store.tenants() : [tenant];
    if (anchor && tenants.length !== 1)
      throw new DomainError('bad_request', 'an anchor belongs to one tenant: name it with --tenant', [
        { path: 'tenant', message: 'required with --anchor' },
      ]);
    if (tenant !== undefined && !(await this.store.head(tenant)) && !anchor)
      throw notFound('journal of tenant', JSON.stringify(tenant));
    const reports: ChainReport[] = [];
    for (const t of tenants) reports.push(await this.verifyOne(t, anchor, trails));
    return reports;
  }

  private async verifyOne(tenant: string, anchor: AnchorCheck | undefined, withTrails: boolean): Promise<ChainReport> {
    const v = new ChainVerifier();
    const trails = new Map<string, Map<string, string>>(TRAIL_TABLES.map((t) => [t, new Map()]));
    let anchored: number | undefined;
    let after = 0;
    const read = this.store.verifyPage?.bind(this.store) ?? this.store.page.bind(this.store);
    walk: for (;;) {
      // a page may hold fewer entries than asked for (the API's pages are smaller): the walk ends on an empty one
      const rows = await read(tenant, after, VERIFY_PAGE);
      if (!rows.length) break;
      for (const e of rows) {
        if (!v.push(e)) {
          // an entry read with the store's preimage: read it whole and hash it here before calling it broken
          const whole = e.preimage === undefined ? undefined : (await this.store.page(tenant, e.seq - 1, 1))[0];
          if (!whole || !v.retry(whole)) break walk;
        }
        if (anchor && e.hash === anchor.hash) anchored = e.seq;
        if (withTrails && (trails.has(e.entity) || e.op === BATCH_OP)) followTrails(trails, e);
      }
      after = rows[rows.length - 1]!.seq;
    }
    const problem = await v.diagnose(this.store.lookup(tenant));
    const report: ChainReport = { tenant, entries: v.count, head: v.head, ok: !problem };
    if (problem) report.problem = problem;
    if (anchor) report.anchor = anchorResult(anchor, anchored, problem);
    if (report.anchor && !report.anchor.ok) report.ok = false;
    const rows = this.store.trailRows?.bind(this.store);
    if (!problem && rows && withTrails) {
      report.trails = [];
      for (const [table, expected] of trails)
        report.trails.push(await compareTrail(table as TrailTable, expected, rows(tenant, table as TrailTable)));
      if (report.trails.some((t) => !t.ok)) report.ok = false;
    }
    return report;
  }
}

/**
 * Keeps, per audit-trail table, each row's digest as the journal's entries leave it. A batch's groups of other tables
 * (an import's consents) are skipped unread, and its rows are digested from their values, without a row object.
 */
function followTrails(trails: Map<string, Map<string, string>>, e: StoredEntry): void {
  const data = e.data === null ? null : JSON.parse(e.data);
  if (e.op !== BATCH_OP || data === null) {
    for (const c of changesOf({ ...e, data })) {
      const rows = trails.get(c.entity);
      if (!rows) continue;
      if (c.row === null) rows.delete(c.id);
      else rows.set(c.id, rowDigest(c.row));
    }
    return;
  }
  const batch = data as BatchData;
  for (const g of batch.groups) {
    const rows = trails.get(g.entity);
    if (!rows) continue;
    const keyAt = g.key.map((k) => g.columns.indexOf(k));
    const plan = digestPlan(g.columns);
    for (const values of groupRows(batch, g)) {
      const id = idOf(keyAt.map((i) => values[i]));
      if (g.op === 'delete') rows.delete(id);
      else rows.set(id, valuesDigest(plan, values));
    }
  }
}

/** The table's rows against the journal's: the first row edited, removed or added outside the journal. */
async function compareTrail(
  table: TrailTable,
  expected: Map<string, string>,
  rows: AsyncIterable<Record<string, unknown>>,
): Promise<TrailReport> {
  let n = 0;
  let problem: TrailReport['problem'];
  for await (const row of rows) {
    n++;
    if (problem) continue;
    const id = String(row.id);
    const digest = expected.get(id);
    if (digest === undefined)
      problem = { id, kind: 'inserted', message: `${table} ${id} is in the table but in no journal entry` };
    else if (digest !== rowDigest(row))
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

function anchorResult(
  anchor: AnchorCheck,
  found: number | undefined,
  problem: ChainProblem | undefined,
): NonNullable<ChainReport['anchor']> {
  const base = { hash: anchor.hash, ...(found !== undefined ? { seq: found } : {}) };
  if (found !== undefined && (anchor.seq === undefined || anchor.seq === found))
    return { ...base, ok: true, message: `nothing up to entry ${found} changed since the anchor was taken` };
  if (found !== undefined)
    return {
      ...base,
      ok: false,
      message: `the anchored hash is entry ${found}'s, not entry ${anchor.seq}'s: entries were renumbered`,
    };
  if (problem && (anchor.seq === undefined || problem.seq <= anchor.seq))
    return { ...base, ok: false, message: `the chain is broken at entry ${problem.seq}, before the anchored entry` };
  return {
    ...base,
    ok: false,
    message: `no entry carries the anchored hash${anchor.seq !== undefined ? ` (entry ${anchor.seq})` : ''}: entries up to it were changed or removed since the anchor was taken`,
  };
}
