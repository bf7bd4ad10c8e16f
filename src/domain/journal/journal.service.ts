import { DomainError, notFound } from '../errors.js';
import { ChainVerifier, GENESIS_HASH, type ChainProblem, type StoredEntry } from './chain.js';
import type { JournalAnchor, JournalEntry, JournalPage, JournalQuery } from './journal.schema.js';
import type { JournalStore } from './journal-store.port.js';
import { TrailLedger, type TrailReport } from './trails.js';

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
   * compared with it unless `trails` is false (`db status` checks the chains alone), by their tallies first unless
   * `tallied` is false (then row by row from the start).
   */
  async verify(tenant?: string, anchor?: AnchorCheck, { trails = true, tallied = true } = {}): Promise<ChainReport[]> {
    const tenants = tenant === undefined ? await this.store.tenants() : [tenant];
    if (anchor && tenants.length !== 1)
      throw new DomainError('bad_request', 'an anchor belongs to one tenant: name it with --tenant', [
        { path: 'tenant', message: 'required with --anchor' },
      ]);
    if (tenant !== undefined && !(await this.store.head(tenant)) && !anchor)
      throw notFound('journal of tenant', JSON.stringify(tenant));
    const reports: ChainReport[] = [];
    for (const t of tenants) reports.push(await this.verifyOne(t, anchor, trails, tallied));
    return reports;
  }

  /**
   * One tenant's chain and trails. The trails are compared by their tallies first (TrailTally: no row held in memory
   * by id); where those differ, or an entry deleted trail rows, the verification runs again comparing them row by row,
   * which names the row edited, removed or added.
   */
  private async verifyOne(
    tenant: string,
    anchor: AnchorCheck | undefined,
    withTrails: boolean,
    tallied: boolean,
  ): Promise<ChainReport> {
    const trails = withTrails ? await TrailLedger.open(this.store, { tallied }) : undefined;
    // the trails' snapshot is read beside the walk where the store has threads (on SQLite's one connection, first)
    const snapshot = (await trails?.read(tenant))?.read;
    const checked = await this.store.checkChain?.(tenant, trails?.columns ?? {}, anchor?.hash, trails?.tally);
    if (checked) trails?.apply(checked.trailOps);
    let chain: Walked = checked ?? (await this.walk(tenant, anchor, trails));
    const snap = !chain.problem && snapshot ? await snapshot : undefined;
    // the snapshot was taken after the walk's last entry (a write committed meanwhile): follow the chain up to it
    if (snap && snap.head > chain.head.seq) chain = await this.walk(tenant, anchor, trails, chain);
    const { problem } = chain;
    const report: ChainReport = { tenant, entries: chain.count, head: chain.head, ok: !problem };
    if (problem) report.problem = problem;
    if (anchor) report.anchor = anchorResult(anchor, chain.anchored, problem);
    if (report.anchor && !report.anchor.ok) report.ok = false;
    if (!problem && trails && snap) {
      const compared = await trails.compare(tenant, snap);
      if (!compared) return this.verifyOne(tenant, anchor, withTrails, false);
      report.trails = compared;
      if (compared.some((t) => !t.ok)) report.ok = false;
    }
    return report;
  }

  /**
   * The chain walked on one thread to its end or its first broken link (and what broke it): from its first entry, or
   * on from where a walk or a check in ranges ended (`from`).
   */
  private async walk(tenant: string, anchor: AnchorCheck | undefined, trails: TrailLedger | undefined, from?: Walked) {
    const v = new ChainVerifier(from?.head);
    let anchored = from?.anchored;
    let after = from?.head.seq ?? 0;
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
        if (anchor && e.hash === anchor.hash) anchored ??= e.seq;
        trails?.follow(e);
      }
      after = rows[rows.length - 1]!.seq;
    }
    const problem = await v.diagnose(this.store.lookup(tenant));
    return { count: (from?.count ?? 0) + v.count, head: v.head, anchored, problem } satisfies Walked;
  }
}

/** A chain followed so far: its entries, its last entry that held, the anchored entry, the first broken link. */
interface Walked {
  count: number;
  head: { seq: number; hash: string };
  anchored?: number;
  problem?: ChainProblem;
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
