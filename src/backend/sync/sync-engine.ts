import { MIGRATION_NAMES } from '../../../migrations/names.js';
import { isoZ, type Clock, type IdSource } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import { BATCH_OP, changesOf, rowsIn, type BatchGroup } from '../../domain/journal/changes.js';
import type { JournalEntry } from '../../domain/journal/journal.schema.js';
import type { SyncConflict, SyncState } from '../../domain/sync/sync-state.port.js';
import { SYNC_PROTOCOL, type PushItem, type PushResult } from '../../domain/sync/sync.schema.js';
import { DerivedGroups } from '../../domain/sync/derived-groups.js';
import { DerivedIdSpace } from '../../domain/sync/derived-ids.js';
import { InsertBuffer } from '../../domain/sync/insert-buffer.js';
import { splitDerived, type DerivedPart } from './set-wise-pull.js';
import {
  BOOKKEEPING,
  conflictFields,
  differencesOf,
  sameContent,
  type FieldDifference,
} from '../../domain/sync/conflict-fields.js';
import type { ClaimIndex } from '../../domain/sync/claims.js';
import type { RowChange } from '../../domain/sync/row-rule.js';
import { sameRow, versionOf, type SyncRow } from '../../domain/sync/version.js';
import type { Stores, UnitOfWork } from '../../domain/unit-of-work.js';
import { wholeFile } from '../../contract/file-payload.js';
import { holds } from '../../store/media-objects.js';
import { MediaRef } from '../../domain/training/media-ref.js';
import type { Store } from '../../store/store.js';
import { forRequest } from '../../store/tenant-scope.js';
import { VERSION } from '../../version.js';
import type { Backend } from '../backend.js';

/**
 * The rules that check records (each area's row rules and those across records), loaded with the first page that has
 * records to check: they build every area's schemas, which a sync with nothing to move does not need.
 */
const recordRules = async () => {
  const [claims, door, merge, row] = await Promise.all([
    import('../../domain/sync/claims.js'),
    import('../../domain/sync/record-door.js'),
    import('../../domain/sync/merge-rules.js'),
    import('../../domain/sync/row-rule.js'),
  ]);
  return {
    ClaimIndex: claims.ClaimIndex,
    refusedChanges: door.refusedChanges,
    derivedValuesFit: door.derivedValuesFit,
    withRule: merge.withRule,
    secondRevocation: merge.secondRevocation,
    timeOf: row.timeOf,
    looksUp: door.looksUp,
  };
};

/** The area a table belongs to, as the summary counts them. */
export function areaOf(entity: string): string {
  if (entity.startsWith('dsfa')) return 'dsfa';
  if (entity.startsWith('consent')) return 'consents';
  if (entity.startsWith('legal_document')) return 'legal_documents';
  if (entity === 'cookie_banner') return 'cookie_banner';
  return 'training';
}

/** A conflict as the summary and `sync status` report it. */
export interface ConflictReport {
  id: string;
  area: string;
  entity: string;
  entity_id: string;
  reason: string;
  fields: string[];
  ours: { actor: string | null; time: string | null; deleted: boolean };
  theirs: { actor: string | null; time: string | null; deleted: boolean };
  status: SyncConflict['status'];
}

export const reportOf = (c: SyncConflict): ConflictReport => ({
  id: c.id,
  area: areaOf(c.entity),
  entity: c.entity,
  entity_id: c.entity_id,
  reason: c.reason,
  fields: c.fields.filter((f) => !BOOKKEEPING.includes(f)),
  ours: { actor: c.our_actor, time: c.our_time, deleted: c.ours === null },
  theirs: { actor: c.their_actor, time: c.their_time, deleted: c.theirs === null },
  status: c.status,
});

/** One conflict as `sync conflicts show` reports it: its summary and the contested fields side by side. */
export interface ConflictDetail extends ConflictReport {
  remote: string;
  created_at: string;
  differences: FieldDifference[];
}

export const detailOf = (c: SyncConflict): ConflictDetail => ({
  ...reportOf(c),
  remote: c.remote,
  created_at: c.created_at,
  differences: differencesOf(c.entity, c.fields, c.ours, c.theirs),
});

export interface SyncSummary {
  remote: string;
  tenant: string;
  dry_run: boolean;
  /** The first sync of this store with the server for this tenant. */
  first: boolean;
  pulled: Record<string, number>;
  pushed: Record<string, number>;
  /** Every unsettled conflict with this server after the run (exit 6 when there is one). */
  conflicts: ConflictReport[];
  pulled_seq: number;
  pushed_seq: number;
  synced_at: string | null;
}

export interface SyncOptions {
  /** The server, over HTTP. */
  remote: Backend;
  /** This store, and its unit of work. */
  store: Store;
  uow: UnitOfWork;
  clock: Clock;
  ids: IdSource;
  tenant: string;
  actor?: string;
  dryRun?: boolean;
  /** Push a tenant the server has no record of yet (else that is refused as a probable typo). */
  newTenant?: boolean;
  /** Entries asked for per page of the server's journal, records per push. */
  pageSize?: number;
  /** Row changes a pull writes per transaction at most (an entry is never split); ROWS_PER_TRANSACTION by default. */
  rowsPerTransaction?: number;
}

/**
 * Every request of a sync may be sent twice: reads, and pushes (idempotent: a record already in the pushed state
 * counts as unchanged). Once more after a connection that failed, because a connection the server closed while this
 * store was busy writing a large page is found closed only when it is used again.
 */
async function again<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof DomainError) || e.code !== 'unavailable') throw e;
    await new Promise((r) => setTimeout(r, 200));
    return fn();
  }
}

class DryRun extends Error {
  constructor() {
    super('dry run');
  }
}

const count = (m: Record<string, number>, entity: string, n = 1) => (m[areaOf(entity)] = (m[areaOf(entity)] ?? 0) + n);
const key = (entity: string, id: string) => `${entity}\u0000${id}`;

/**
 * The records a run wrote from the server, by table: ids apart, with no key text made for each of a clone's, and
 * an import batch's records written set-wise by the ids its groups make (DerivedIdSpace), not one by one.
 */
class PulledRecords {
  private readonly byEntity = new Map<string, Set<string>>();
  private readonly spaces: DerivedIdSpace[] = [];

  constructor(private readonly counts: Record<string, number>) {}

  has(entity: string, id: string): boolean {
    return (this.byEntity.get(entity)?.has(id) ?? false) || this.spaces.some((s) => s.has(entity, id));
  }

  /** Takes a record written; the summary counts it the first time (a record changed by several transactions once). */
  add(entity: string, id: string): void {
    if (this.has(entity, id)) return;
    let ids = this.byEntity.get(entity);
    if (!ids) this.byEntity.set(entity, (ids = new Set()));
    ids.add(id);
    count(this.counts, entity);
  }

  /** Whether this run may have written a record `space` makes (a batch sent twice): errs only towards yes. */
  meets(space: DerivedIdSpace): boolean {
    if (this.spaces.some((s) => s.meets(space))) return true;
    for (const [entity] of space.counts())
      for (const id of this.byEntity.get(entity) ?? []) if (space.has(entity, id)) return true;
    return false;
  }

  /** Takes the records of a batch written set-wise, none of which this run wrote before (see meets). */
  addSpace(space: DerivedIdSpace): void {
    this.spaces.push(space);
    for (const [entity, n] of space.counts()) count(this.counts, entity, n);
  }
}

/** The user and data point a consent row holds a decision of. */
const decisionKey = (row: SyncRow) => JSON.stringify([row.user_id, row.data_point_id]);

/**
 * Row changes written per transaction of a pull at most (an entry is never split): a page of the journal may hold
 * whole import batches, and one transaction of 200,000 rows cost more per row than twenty of 10,000 (measured).
 */
const ROWS_PER_TRANSACTION = 10_000;

/**
 * A page's entries in runs of at most `limit` row changes, in order: [start, end) of each. A run ends only where a
 * transaction of the server ends (a transaction larger than the limit is one run), so the rules of the records a
 * run writes see each change whole: a revocation with its history entry, an approval with its audit entry.
 */
function byRows(entries: JournalEntry[], limit: number): Array<[number, number]> {
  const parts: Array<[number, number]> = [];
  let start = 0;
  let rows = 0;
  entries.forEach((e, i) => {
    const n = rowsIn(e);
    if (i > start && rows + n > limit && e.txn !== entries[i - 1]!.txn) {
      parts.push([start, i]);
      start = i;
      rows = 0;
    }
    rows += n;
  });
  if (start < entries.length) parts.push([start, entries.length]);
  return parts;
}

/**
 * A page's entries without the last transaction's, when the page cut that transaction off (the next page starts
 * with it whole); all of them when the page holds one transaction only.
 */
function wholeTransactions(entries: JournalEntry[]): JournalEntry[] {
  const txn = entries[entries.length - 1]!.txn;
  let end = entries.length;
  while (end > 0 && entries[end - 1]!.txn === txn) end--;
  return end === 0 ? entries : entries.slice(0, end);
}

/** Where a media record's file lives, from its ids; undefined for a row whose ids are not ids (the door refuses it). */
function mediaRefOf(tenant: string, row: SyncRow): MediaRef | undefined {
  try {
    return MediaRef.of(tenant, String(row.module_id), String(row.id), String(row.kind));
  } catch {
    return undefined;
  }
}

/** A record's last state in a page of the server's journal. */
interface Incoming {
  entity: string;
  id: string;
  row: SyncRow | null;
  echo: boolean;
  actor: string;
  time: string;
  /** The derived group of a batch entry the record's state in the page comes from (DerivedGroups). */
  from: BatchGroup | undefined;
}

/** Records changed here, by entity and id: the first and last entry that changed each. */
interface ChangedRecord {
  entity: string;
  id: string;
  first: number;
  last: number;
  /** The first change created the record: it had no state before to agree on. */
  created: boolean;
  hint?: SyncRow | null;
}
type Changed = Map<string, ChangedRecord>;
interface LocalChanges {
  own: Changed;
  foreign: Changed;
  /** Both: a record in each counts from its first change of either kind. */
  any: Changed;
}

/** Records grouped by their table, in the order met. */
function byEntity<T extends { entity: string }>(records: Iterable<T>): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of records) {
    const list = out.get(r.entity);
    if (list) list.push(r);
    else out.set(r.entity, [r]);
  }
  return out;
}

/** Notes a change of a record at entry `seq` (the first one noted decides whether it created the record). */
function noteChange(changed: Changed, entity: string, id: string, seq: number, op: string): ChangedRecord {
  const k = key(entity, id);
  const ch = changed.get(k) ?? { entity, id, first: seq, last: seq, created: op === 'insert' };
  ch.last = Math.max(ch.last, seq);
  changed.set(k, ch);
  return ch;
}

/**
 * One sync of a tenant between this store and a server: first the server's journal after the last pulled entry is
 * applied here (each page in one transaction with the new position, so a run cut off anywhere resumes where it
 * stopped), then the records this store changed since its last push are pushed, each with the version both sides
 * last agreed on. A record changed on both sides is never overwritten: it becomes a conflict holding both versions.
 */
export class SyncEngine {
  private readonly remoteUrl: string;
  private readonly entities: Set<string>;
  private readonly pageSize: number;
  private readonly summary: SyncSummary;

  constructor(private readonly o: SyncOptions) {
    this.remoteUrl = o.remote.location;
    this.entities = new Set(o.uow.read.replica.entities);
    this.pageSize = o.pageSize ?? 1000;
    this.reader = o.uow.read;
    this.summary = {
      remote: this.remoteUrl,
      tenant: o.tenant,
      dry_run: o.dryRun === true,
      first: false,
      pulled: {},
      pushed: {},
      conflicts: [],
      pulled_seq: 0,
      pushed_seq: 0,
      synced_at: null,
    };
    this.pulled = new PulledRecords(this.summary.pulled);
  }

  /** Reads of this store: outside any transaction, or inside the one a dry run holds (which is rolled back). */
  private reader: Stores;

  /** Runs the sync; local writes are journaled with principal sync:SERVER, so they are never pushed back. */
  run(): Promise<SyncSummary> {
    const { tenant, actor, uow } = this.o;
    return forRequest({ tenant, actor: actor ?? 'system', principal: `sync:${this.remoteUrl}` }, async () => {
      await this.checkServer();
      const known = await uow.read.syncState.get(this.remoteUrl, tenant);
      // this store's own changes are read before anything is written: what a pull writes is never pushed anyway
      const head = (await uow.read.journal.head(tenant))?.seq ?? 0;
      const changed = await this.localChanges(known?.pushed_seq ?? 0, head);
      if (!this.o.dryRun) return this.sync(known, changed, head);
      // a dry run does everything in one transaction that is rolled back, and asks the server to roll back too
      await uow
        .write(tenant, async (tx) => {
          this.reader = tx;
          await this.sync(known, changed, head);
          throw new DryRun();
        })
        .catch((e) => {
          if (!(e instanceof DryRun)) throw e;
        });
      return this.summary;
    });
  }

  private async sync(known: SyncState | undefined, changed: LocalChanges, head: number): Promise<SyncSummary> {
    const { uow, tenant } = this.o;
    for (const [k, ch] of changed.any) this.changedHere.set(k, ch);
    this.head = head;
    this.stored = await this.reader.syncState.hasBases(this.remoteUrl, tenant);
    const state: SyncState = known ?? {
      remote: this.remoteUrl,
      tenant_id: tenant,
      replica_id: this.o.ids.next(),
      pulled_seq: 0,
      pushed_seq: 0,
      synced_at: null,
    };
    this.summary.first = !known;
    if (!known && this.remoteHead === 0 && !this.o.newTenant)
      throw new DomainError(
        'not_found',
        `tenant ${tenant} has no records on ${this.remoteUrl}; to start it there from this store, run again with --new-tenant`,
      );
    // the server's journal ends where the last pull stopped (its head, told by sync.info): no page to ask for
    if (this.remoteHead > state.pulled_seq) await this.pull(state);
    await this.push(state, changed.own, head);
    state.synced_at = isoZ(this.o.clock.now());
    await uow.write(tenant, async (tx) => {
      await this.keepForeignBases(tx, [...changed.foreign.keys()]);
      await tx.syncState.save(state);
    });
    const conflicts = await this.reader.syncState.conflicts(tenant, this.remoteUrl);
    Object.assign(this.summary, {
      conflicts: conflicts.map(reportOf),
      pulled_seq: state.pulled_seq,
      pushed_seq: state.pushed_seq,
      synced_at: state.synced_at,
    });
    return this.summary;
  }

  private remoteHead = 0;
  /**
   * The records changed here since the last push, as far as a pull needs to know (see pullPage): those of
   * `localChanges` (this store's own changes and other servers' syncs), and any another command changes while this
   * sync runs (journal entries after `head`).
   */
  private readonly changedHere: Changed = new Map();
  /** Whether this store held agreed versions with the server when the sync started (a clone holds none). */
  private stored = false;
  private head = 0;
  /** The records this run wrote from the server, to count each once. */
  private readonly pulled: PulledRecords;
  /**
   * Whether each table held none of the tenant's records when the pull first asked (a clone's, when its first batch
   * comes): a record of one is held here only if this run wrote it (pulled), since another command's insert
   * meanwhile is a change besides the sync, which keeps the table out of the set-wise way (setWise).
   */
  private readonly heldNone = new Map<string, boolean>();

  /** The server must speak this protocol on the same schema, else its rows would not fit this store's tables. */
  private async checkServer(): Promise<void> {
    const { remote, tenant, actor } = this.o;
    const mine = MIGRATION_NAMES[MIGRATION_NAMES.length - 1]!;
    const info = await again(() => remote.sync.info({ tenant, actor })).catch((e: unknown) => {
      if (e instanceof DomainError && (e.code === 'not_found' || e.code === 'internal'))
        throw new DomainError(
          'conflict',
          `the server at ${this.remoteUrl} does not offer sync (compliance ${VERSION} needs /sdk/v1/sync): upgrade it`,
        );
      throw e;
    });
    if (info.protocol !== SYNC_PROTOCOL || info.schema !== mine)
      throw new DomainError(
        'conflict',
        `the server at ${this.remoteUrl} runs compliance ${info.version} (schema ${info.schema}), this is ${VERSION} (schema ${mine}): sync needs the same schema on both sides; upgrade the older one`,
      );
    this.remoteHead = info.head_seq;
  }

  /** Applies the server's entries after `state.pulled_seq`, a page per transaction. */
  private async pull(state: SyncState): Promise<void> {
    const { remote, uow, tenant, actor } = this.o;
    const fetchPage = (after: number) => {
      const query = { after, limit: Math.min(this.pageSize, 1000) };
      const page = again(() => remote.journal.page({ tenant, actor, query }));
      // a page asked for ahead fails when it is awaited, not while the one before is being written
      page.catch(() => undefined);
      return page;
    };
    for (let next = fetchPage(state.pulled_seq); ;) {
      const page = await next;
      if (!page.entries.length) return;
      if (page.entries.some((e) => e.op === BATCH_OP)) {
        const { checkBatchEntries } = await import('../../domain/journal/batch.schema.js');
        checkBatchEntries(`the server at ${this.remoteUrl}`, page.entries);
      }
      const entries = page.next_after === null ? page.entries : wholeTransactions(page.entries);
      const last = entries[entries.length - 1]!.seq;
      // the next page travels while this one is written: a turn of the event loop sends its request first
      if (page.next_after !== null) {
        next = fetchPage(last);
        await new Promise((resolve) => setImmediate(resolve));
      }
      for (const [start, end] of byRows(entries, this.o.rowsPerTransaction ?? ROWS_PER_TRANSACTION)) {
        const part = entries.slice(start, end);
        if (!this.o.dryRun) await this.fetchMedia(part);
        await uow.write(tenant, async (tx) => {
          await this.pullPage(tx, state, part);
          state.pulled_seq = part[part.length - 1]!.seq;
          await tx.syncState.save(state);
        });
      }
      if (page.next_after === null) return;
    }
  }

  /**
   * The audio and video files behind the media records of a page, fetched before the records are written (as the
   * media service stores a file before its record): an object this store already holds is not fetched again, and
   * one the server no longer has (its record deleted since) is passed over.
   */
  private async fetchMedia(entries: JournalEntry[]): Promise<void> {
    const { remote, tenant, actor, store } = this.o;
    const wanted = new Map<string, MediaRef>();
    for (const e of entries)
      for (const c of changesOf(e, 'training_media')) {
        const ref = c.row && mediaRefOf(tenant, c.row);
        if (ref) wanted.set(c.id, ref);
      }
    if (!wanted.size) return;
    const objects = await store.mediaObjects();
    for (const [id, ref] of wanted) {
      if (await holds(objects, ref)) continue;
      const file = await again(() => remote.trainingMedia.download({ tenant, actor, params: { mediaId: id } })).catch(
        (e) => {
          if (e instanceof DomainError && e.code === 'not_found') return undefined;
          throw e;
        },
      );
      // a piece at a time, checked against the size the server announced
      if (file) await objects.put(ref, wholeFile(file, `the file of media ${id}`));
    }
  }

  /** Sends the files behind media records this store pushed; a file this store does not hold is passed over. */
  private async sendMedia(items: PushItem[]): Promise<void> {
    if (!items.length) return;
    const { remote, tenant, actor, store } = this.o;
    const objects = await store.mediaObjects();
    for (const item of items) {
      const ref = mediaRefOf(tenant, item.data!);
      if (!ref || !(await holds(objects, ref))) continue;
      await again(async () =>
        remote.sync.media({
          tenant,
          actor,
          params: { mediaId: item.entity_id },
          stream: { body: await objects.open(ref), content_type: String(item.data!.content_type) },
        }),
      );
    }
  }

  /**
   * Applies a page of the server's journal: its import batches set-wise where this store can take them so (setWise),
   * the rest record by record (applyEntries), all in the page's transaction.
   */
  private async pullPage(tx: Stores, state: SyncState, entries: JournalEntry[]): Promise<void> {
    const { tenant } = this.o;
    const pending = new Map(
      (await tx.syncState.conflicts(tenant, this.remoteUrl)).map((c) => [key(c.entity, c.entity_id), c]),
    );
    // what another command changed here while this sync runs counts as this store's change
    for (const e of await tx.syncState.changesBesides(tenant, this.head))
      for (const c of changesOf(e)) noteChange(this.changedHere, c.entity, c.id, e.seq, c.op);
    const split = await this.setWise(tx, state, entries, pending);
    if (!split) return this.applyEntries(tx, state, entries, pending);
    if (split.rest.length) await this.applyEntries(tx, state, split.rest, pending);
    if (!(await this.insertDerived(tx, split.derived)))
      await this.applyEntries(
        tx,
        state,
        split.derived.map((p) => p.entry),
        pending,
      );
  }

  /**
   * The page split for writing its import batches set-wise (splitDerived), where this store can take them so: it
   * holds no agreed versions with the server and nothing here changed or waits in a conflict in their tables, so
   * each of their records is agreed as it comes, as the record-by-record way would find.
   */
  private async setWise(
    tx: Stores,
    state: SyncState,
    entries: JournalEntry[],
    pending: Map<string, SyncConflict>,
  ): Promise<ReturnType<typeof splitDerived>> {
    if (this.stored || !entries.some((e) => e.op === BATCH_OP)) return undefined;
    const { looksUp } = await recordRules();
    const split = splitDerived(entries, {
      travels: (entity) => this.entities.has(entity),
      ruled: (entity) => tx.replica.ruled(entity),
      looksUp,
      echo: (e) => e.origin === `sync:${state.replica_id}`,
    });
    if (!split) return undefined;
    const tables = new Set(split.derived.flatMap((p) => p.records.groups.map((g) => g.group.entity)));
    const busy = (r: { entity: string }) => tables.has(r.entity);
    if ([...pending.values()].some(busy) || [...this.changedHere.values()].some(busy)) return undefined;
    return split;
  }

  /**
   * Writes the derived records of a page's import batches set-wise: all of them new to this tenant and none refused
   * by the door (the same door as the record-by-record way, over all of them at once), each batch's in statements of
   * many rows and journaled in its compact form. False, writing nothing, where any is held here or refused.
   */
  private async insertDerived(tx: Stores, parts: DerivedPart[]): Promise<boolean> {
    const { tenant } = this.o;
    const changes: RowChange[] = [];
    const spaces: Array<DerivedIdSpace | undefined> = [];
    for (const part of parts) {
      const space = DerivedIdSpace.of(
        part.records.data,
        part.records.groups.map((g) => g.group),
      );
      spaces.push(space);
      for (const { group, changes: records } of part.records.groups) {
        if (await this.holdsAnyOf(tx, group.entity, records, space)) return false;
        for (const c of records) changes.push({ entity: c.entity, id: c.id, before: null, after: c.row });
      }
    }
    // the values once per rule's cell where they can be (the same answers as row by row, a fraction of the time)
    const { derivedValuesFit } = await recordRules();
    const now = this.o.clock.now();
    const valuesChecked = parts.every((p) =>
      derivedValuesFit(
        now,
        p.records.data,
        p.records.groups.map((g) => g.group),
      ),
    );
    if ((await this.refused(tx, changes, { valuesChecked, now })).size) return false;
    for (const { entry, records } of parts)
      await tx.replica.asOneEntry('sync_pull', `${this.remoteUrl}#${entry.seq}-${entry.seq}`, (one) =>
        one.insertDerived(tenant, records),
      );
    parts.forEach((part, i) => {
      const space = spaces[i];
      if (space) this.pulled.addSpace(space);
      else for (const g of part.records.groups) for (const c of g.changes) this.pulled.add(c.entity, c.id);
    });
    return true;
  }

  /**
   * Whether this store holds any of a table's records (the derived records of a page, all new if it holds none);
   * where the table held none when the pull began, whether this run wrote any of them (by their ids' space, if any).
   */
  private async holdsAnyOf(
    tx: Stores,
    entity: string,
    records: Array<{ id: string; row: SyncRow | null }>,
    space?: DerivedIdSpace,
  ) {
    if (!this.heldNone.has(entity)) this.heldNone.set(entity, !(await tx.replica.holdsAny(this.o.tenant, entity)));
    if (this.heldNone.get(entity))
      return space ? this.pulled.meets(space) : records.some((c) => this.pulled.has(entity, c.id));
    const held = await tx.replica.readMany(
      this.o.tenant,
      entity,
      records.map((c) => ({ id: c.id, hint: c.row })),
    );
    return held.size > 0;
  }

  /**
   * Applies entries of a page record by record: each record's last state in them, read and written in a few
   * statements per table (a record's earlier states in the page are passed over, as a replay would end the same).
   *
   * A record not changed here since the last push, with no agreed version stored, is agreed as it is: the pull
   * stores an agreed version only for records changed here or in conflict, and forgets the one it finds stored for
   * any other record it settles. So a clone writes the records and nothing per record beside them.
   */
  private async applyEntries(
    tx: Stores,
    state: SyncState,
    entries: JournalEntry[],
    pending: Map<string, SyncConflict>,
  ): Promise<void> {
    const { tenant } = this.o;
    const records = new Map<string, Incoming>();
    const derived = new DerivedGroups();
    for (const e of entries) {
      // an entry the server wrote because this store pushed it: the record is already in that state here
      const echo = e.origin === `sync:${state.replica_id}`;
      for (const { from, changes } of derived.changesOf(e))
        for (const c of changes) {
          if (!this.entities.has(c.entity)) continue;
          const k = key(c.entity, c.id);
          const next: Incoming = { entity: c.entity, id: c.id, row: c.row, echo, actor: e.actor, time: e.time, from };
          const known = records.get(k);
          if (known) Object.assign(known, next);
          else records.set(k, next);
        }
    }
    const tables = byEntity(records.values());
    const local = new Map<string, SyncRow>();
    // the agreed versions of the records that have one to compare with: stored, or derived from the journal
    const bases = new Map<string, string | null>();
    for (const [entity, list] of tables) {
      const rows = await tx.replica.readMany(
        tenant,
        entity,
        list.map((r) => ({ id: r.id, hint: r.row })),
      );
      for (const [id, row] of rows) local.set(key(entity, id), row);
      // a store that holds none reads them only for the records it changed or has a conflict on (none in a clone)
      const asked = this.stored
        ? list
        : list.filter((r) => this.changedHere.has(key(entity, r.id)) || pending.has(key(entity, r.id)));
      if (!asked.length) continue;
      const ids = asked.map((r) => r.id);
      for (const [id, v] of await tx.syncState.basesOf(this.remoteUrl, tenant, entity, ids))
        bases.set(key(entity, id), v);
    }
    const unstored = [...records.keys()].flatMap((k) => {
      const ch = this.changedHere.get(k);
      return ch && !bases.has(k) && !pending.has(k) ? [ch] : [];
    });
    for (const [k, v] of await this.derivedBases(tx, unstored)) bases.set(k, v);
    // the rules across records: who holds what the page's rows claim, kept current as the page is written
    const claims = new Map<string, ClaimIndex>();
    for (const [entity, list] of tables) {
      if (!tx.replica.ruled(entity)) continue;
      const rows = list.flatMap((r) => (r.row ? [r.row] : []));
      const { ClaimIndex } = await recordRules();
      claims.set(entity, new ClaimIndex(entity, await tx.replica.claimants(tenant, entity, rows)));
    }
    // without an agreed version to compare with, the record was not changed here: agreed as it is
    // both sides changed the record into the same content (but its bookkeeping, updated_at): nothing to decide, the
    // server's version is taken as any other, and a conflict of the record closes itself
    const converged = (k: string, r: Incoming) => sameContent(r.entity, local.get(k) ?? null, r.row);
    const agreed = (k: string, r: Incoming) =>
      converged(k, r) || (!pending.has(k) && (!bases.has(k) || versionOf(local.get(k) ?? null) === bases.get(k)));
    const settled: Incoming[] = [];
    const inserts = new InsertBuffer(tx.replica, tenant);
    const flush = () => inserts.flush();
    // the page's writes are journaled as one entry, named by the server's entries they came from
    const span = `${this.remoteUrl}#${entries[0]!.seq}-${entries[entries.length - 1]!.seq}`;
    await tx.replica.asOneEntry('sync_pull', span, async (entry) => {
      await this.takeSharedRevocations(tx, records, local, pending);
      const refused = await this.refused(
        tx,
        [...records].flatMap(([k, r]) =>
          r.echo || sameRow(local.get(k) ?? null, r.row) || !agreed(k, r)
            ? []
            : [{ entity: r.entity, id: r.id, before: local.get(k) ?? null, after: r.row }],
        ),
      );
      for (const [k, r] of records) {
        const mine = local.get(k) ?? null;
        const open = pending.get(k);
        if (r.echo || sameRow(mine, r.row)) {
          // both sides came to the same version: its conflict closes itself
          if (open && sameRow(mine, r.row)) await this.closeSame(tx, open);
          settled.push(r);
          continue;
        }
        let reason = 'changed on both sides since the last sync';
        if (agreed(k, r)) {
          const broken = refused.get(k) ?? claims.get(r.entity)?.broken(r.id, r.row) ?? null;
          if (!broken) {
            if (open) await this.closeSame(tx, open);
            claims.get(r.entity)?.moved(r.id, mine, r.row);
            // new records of one table are inserted together; anything else is written in its place in the order
            if (mine === null && r.row !== null) {
              inserts.add(r.entity, r.id, r.row);
            } else {
              await flush();
              await tx.replica.apply(tenant, r.entity, r.id, r.row);
            }
            settled.push(r);
            derived.written(r.from);
            this.pulled.add(r.entity, r.id);
            continue;
          }
          reason = broken;
        }
        await flush();
        await this.conflict(tx, open, {
          entity: r.entity,
          entity_id: r.id,
          reason,
          // a record without an agreed version to compare with is agreed as it is here
          base: bases.has(k) ? bases.get(k)! : versionOf(mine),
          ours: mine,
          theirs: r.row,
          their_actor: r.actor,
          their_time: r.time,
        });
      }
      await flush();
      // an import's batch written whole is kept in its compact form, not as a second copy of every row
      const adopted = derived.adoptable(records.values());
      if (adopted) entry.adopt(adopted);
    });
    // a settled record changed here (or in conflict) keeps the server's version as agreed; any other is agreed as
    // it now is here, and a version stored for it goes
    const keep: Array<{ entity: string; id: string; version: string | null }> = [];
    const drop: Incoming[] = [];
    for (const r of settled) {
      const k = key(r.entity, r.id);
      if (this.changedHere.has(k) || pending.has(k))
        keep.push({ entity: r.entity, id: r.id, version: versionOf(r.row) });
      else if (bases.has(k)) drop.push(r);
    }
    await tx.syncState.setBases(this.remoteUrl, tenant, keep);
    await tx.syncState.dropBases(this.remoteUrl, tenant, drop);
    await this.settleDecisions(tx, settled);
  }

  /**
   * A consent revoked here and on the server at another time (secondRevocation) takes the server's revocation,
   * shared already, while its own was never shared: its own `revoked` entry goes and the consent takes the server's
   * row, so both sides end with one revocation and the server's entry arrives as any other. The only door where a
   * revocation entry goes or a revocation moves: a push or a bundle that tries it is refused (consent.row-rules.ts).
   */
  private async takeSharedRevocations(
    tx: Stores,
    records: Map<string, Incoming>,
    local: Map<string, SyncRow>,
    pending: Map<string, SyncConflict>,
  ): Promise<void> {
    const { tenant } = this.o;
    for (const [k, r] of records) {
      const mine = local.get(k) ?? null;
      if (r.echo || r.entity !== 'consent' || !mine?.revoked_at || !r.row?.revoked_at) continue;
      const history = await tx.replica.rowsWhere(tenant, 'consent_history', 'consent_id', [r.id]);
      const { secondRevocation, timeOf } = await recordRules();
      if (!secondRevocation(r.entity, mine, r.row, history)) continue;
      const own = history.filter((h) => h.action === 'revoked' && timeOf(h.created_at) === timeOf(mine.revoked_at));
      const entry = own.length === 1 ? tx.replica.idOf(tenant, 'consent_history', own[0]!) : null;
      if (entry === null || !(await this.unshared(tx, entry, pending))) continue;
      await tx.replica.apply(tenant, 'consent_history', entry, null);
      await tx.replica.apply(tenant, r.entity, r.id, r.row);
      this.changedHere.delete(key('consent_history', entry));
      local.set(k, r.row!);
      this.pulled.add(r.entity, r.id);
    }
  }

  /**
   * Whether a history entry of this store was never shared with the server: no version of it agreed, and created
   * here since the last push, kept waiting for its consent's conflict, or refused by a push (no version there).
   */
  private async unshared(tx: Stores, id: string, pending: Map<string, SyncConflict>): Promise<boolean> {
    const k = key('consent_history', id);
    const refused = pending.get(k);
    const agreed = await tx.syncState.basesOf(this.remoteUrl, this.o.tenant, 'consent_history', [id]);
    if ((agreed.get(id) ?? null) !== null) return false;
    return agreed.has(id) || this.changedHere.get(k)?.created === true || refused?.theirs === null;
  }

  /** The history entries of a consent that waited for its conflict (stored as agreed on no version: unshared). */
  private async waitingEntries(consent: string): Promise<string[]> {
    const { tenant } = this.o;
    const entries = await this.reader.replica.rowsWhere(tenant, 'consent_history', 'consent_id', [consent]);
    const ids = entries.map((h) => this.reader.replica.idOf(tenant, 'consent_history', h));
    if (!ids.length) return [];
    const agreed = await this.reader.syncState.basesOf(this.remoteUrl, tenant, 'consent_history', ids);
    return ids.filter((id) => agreed.has(id) && agreed.get(id) === null);
  }

  /** The users and data points of the consents changed here since the last push (read once, when first needed). */
  private decidedHere?: Set<string>;

  /** What a settlement of decisions wrote here during the pull: pushed in the same run. */
  private readonly settledHere: Changed = new Map();

  /**
   * Keeps one decision in force per user and data point where the page brought a decision of a user and data
   * point this store decided on too (a refusal here against a grant there, two grants): the same rule the server
   * applies to a push (settleDecisions), in the page's transaction. What it writes is this store's change, pushed in
   * this run; a consent it revokes keeps the server's version as agreed.
   */
  private async settleDecisions(tx: Stores, settled: Incoming[]): Promise<void> {
    const pulled = settled.flatMap((r) => (r.entity === 'consent' && r.row ? [r.row] : []));
    if (!pulled.length) return;
    const { tenant } = this.o;
    if (!this.decidedHere) {
      const ids = [...this.changedHere.values()].flatMap((ch) => (ch.entity === 'consent' ? [{ id: ch.id }] : []));
      const rows = ids.length ? await tx.replica.readMany(tenant, 'consent', ids) : new Map<string, SyncRow>();
      this.decidedHere = new Set([...rows.values()].map(decisionKey));
    }
    if (!this.decidedHere.size) return;
    const contested = pulled.filter((row) => this.decidedHere!.has(decisionKey(row)));
    // loaded with the first decision to settle: it builds the consents' rules, which an idle sync does not need
    const { settleDecisions } = await import('./settle-decisions.js');
    for (const s of await settleDecisions(tx, tenant, contested)) {
      const k = key(s.entity, s.id);
      if (s.before && !this.changedHere.has(k))
        await tx.syncState.setBase(this.remoteUrl, tenant, s.entity, s.id, versionOf(s.before));
      this.settledHere.set(
        k,
        noteChange(this.changedHere, s.entity, s.id, this.head + 1, s.before ? 'update' : 'insert'),
      );
    }
  }

  /**
   * The records of a pull this store's rules refuse, each with the rule: a server's row passes the same door as a
   * client's push there (refusedChanges), so a poisoned server neither breaks this store's rules nor its commands.
   * A new record whose id another tenant of this store holds is refused too.
   */
  private async refused(
    tx: Stores,
    changes: RowChange[],
    opts: { valuesChecked?: boolean; now?: Date } = {},
  ): Promise<Map<string, string>> {
    const { tenant, clock } = this.o;
    const out = new Map<string, string>();
    const fresh = changes.filter((c) => c.before === null && c.after !== null);
    for (const [entity, list] of byEntity(fresh))
      for (const id of await tx.replica.heldElsewhere(
        tenant,
        entity,
        list.map((c) => c.id),
      ))
        out.set(key(entity, id), `${entity} ${id} cannot be written: the id is taken`);
    const rest = out.size ? changes.filter((c) => !out.has(key(c.entity, c.id))) : changes;
    const { refusedChanges } = await recordRules();
    const now = opts.now ?? clock.now();
    for (const [k, reason] of await refusedChanges(tx.replica, tenant, now, rest, opts)) out.set(k, reason);
    return out;
  }

  /**
   * The agreed versions of records changed here that have none stored: their state in the journal before their
   * first change since the last push (none for a record that change created).
   */
  private async derivedBases(tx: Stores, records: ChangedRecord[]): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    const wanted: Array<{ entity: string; id: string; before: number }> = [];
    for (const ch of records)
      if (ch.created) out.set(key(ch.entity, ch.id), null);
      else wanted.push({ entity: ch.entity, id: ch.id, before: ch.first });
    if (!wanted.length) return out;
    for (const [k, row] of await tx.syncState.statesBefore(this.o.tenant, wanted)) out.set(k, versionOf(row));
    return out;
  }

  /**
   * Records another server's sync changed here since the last push are not pushed to this one (a store does not
   * relay), so they stay unagreed with it: each keeps, stored, the version it had before that change.
   */
  private async keepForeignBases(tx: Stores, foreign: string[]): Promise<void> {
    // from the first change of the record here, whoever made it
    const unstored: ChangedRecord[] = [];
    for (const [entity, list] of byEntity(foreign.map((k) => this.changedHere.get(k)!))) {
      const ids = list.map((ch) => ch.id);
      const stored = await tx.syncState.basesOf(this.remoteUrl, this.o.tenant, entity, ids);
      for (const ch of list) if (!stored.has(ch.id)) unstored.push(ch);
    }
    const derived = await this.derivedBases(tx, unstored);
    const bases = unstored.map((ch) => ({
      entity: ch.entity,
      id: ch.id,
      version: derived.get(key(ch.entity, ch.id)) ?? null,
    }));
    await tx.syncState.setBases(this.remoteUrl, this.o.tenant, bases);
  }

  /** Closes a conflict whose two sides came to the same version (a later pull, or an edit here): nothing to decide. */
  private async closeSame(tx: Stores, c: SyncConflict): Promise<void> {
    await tx.syncState.putConflict({
      ...c,
      status: 'resolved',
      resolution: 'same',
      resolved_at: isoZ(this.o.clock.now()),
    });
  }

  /** Records (or updates) the conflict of a record; both versions stay reachable until it is resolved. */
  private async conflict(
    tx: Stores,
    pending: SyncConflict | undefined,
    c: Pick<
      SyncConflict,
      'entity' | 'entity_id' | 'reason' | 'base' | 'ours' | 'theirs' | 'their_actor' | 'their_time'
    >,
  ): Promise<void> {
    const { tenant, clock, ids } = this.o;
    const { withRule } = await recordRules();
    const mine = await tx.syncState.lastChange(tenant, c.entity, c.entity_id);
    // against a deletion, the fields to show are what the surviving version changed since both sides agreed
    const k = key(c.entity, c.entity_id);
    const ch = this.changedHere.get(k);
    const agreedRow =
      (c.ours === null || c.theirs === null) && ch && !ch.created && ch.first > 0
        ? (await tx.syncState.statesBefore(tenant, [{ entity: c.entity, id: c.entity_id, before: ch.first }])).get(k)
        : undefined;
    await tx.syncState.putConflict({
      id: pending?.id ?? ids.next(),
      remote: this.remoteUrl,
      tenant_id: tenant,
      ...c,
      // a record changed on both sides is a merge: say which rule of the record taking one side whole would break
      reason: withRule(c.reason, c.entity, c.ours, c.theirs),
      base: pending?.base ?? c.base,
      theirs_version: versionOf(c.theirs),
      fields: conflictFields(c.entity, c.ours, c.theirs, agreedRow),
      our_actor: mine?.actor ?? null,
      our_time: mine?.time ?? null,
      status: 'open',
      created_at: pending?.created_at ?? isoZ(clock.now()),
      resolved_at: null,
      resolution: null,
    });
  }

  /**
   * The records this store changed itself since its last push (not those a sync wrote), oldest change first; and
   * apart, those another server's sync changed here meanwhile.
   */
  private async localChanges(pushed: number, head: number): Promise<LocalChanges> {
    const journal = this.o.uow.read.journal;
    const own: Changed = new Map();
    const foreign: Changed = new Map();
    const any: Changed = new Map();
    const mine = `sync:${this.remoteUrl}`;
    for (let after = pushed; after < head;) {
      const entries = await journal.page(this.o.tenant, after, 1000);
      if (!entries.length) break;
      for (const e of entries) {
        if (e.seq > head) break;
        if (e.principal === mine) continue;
        const seen = e.principal.startsWith('sync:') ? foreign : own;
        const data = e.data === null ? null : (JSON.parse(e.data) as unknown);
        for (const c of changesOf({ ...e, data })) {
          if (!this.entities.has(c.entity)) continue;
          const ch = noteChange(seen, c.entity, c.id, e.seq, c.op);
          noteChange(any, c.entity, c.id, e.seq, c.op);
          if (c.row) ch.hint = c.row;
        }
      }
      after = entries[entries.length - 1]!.seq;
    }
    return { own, foreign, any };
  }

  /** Pushes what changed here since the last push, and the conflicts settled for this side. */
  private async push(state: SyncState, changed: Changed, head: number): Promise<void> {
    const { uow, tenant, actor, remote } = this.o;
    const decided = new Map<string, SyncConflict>();
    const undecided = new Set<string>();
    for (const [k, ch] of this.settledHere) if (!changed.has(k)) changed.set(k, ch);
    for (const c of await this.reader.syncState.conflicts(tenant, this.remoteUrl)) {
      const k = key(c.entity, c.entity_id);
      // a record changed here into the server's version: its conflict closes itself, the version is agreed
      const here = await this.reader.replica.read(tenant, c.entity, c.entity_id, c.ours ?? c.theirs);
      if (c.status === 'open' && sameContent(c.entity, here, c.theirs)) {
        await uow.write(tenant, async (tx) => {
          await this.closeSame(tx, c);
          await tx.syncState.setBase(this.remoteUrl, tenant, c.entity, c.entity_id, c.theirs_version);
        });
        changed.delete(k);
        continue;
      }
      // an undecided conflict waits for `sync resolve`; a decided one is pushed with the server's version as base
      if (c.status === 'open') undecided.add(k);
      if (c.status !== 'ours') continue;
      decided.set(k, c);
      if (!changed.has(k)) changed.set(k, { entity: c.entity, id: c.entity_id, first: 0, last: 0, created: false });
      // the history entries that waited for this consent's conflict go with it
      if (c.entity === 'consent')
        for (const id of await this.waitingEntries(c.entity_id))
          if (!changed.has(key('consent_history', id)))
            changed.set(key('consent_history', id), {
              entity: 'consent_history',
              id,
              first: 0,
              last: 0,
              created: true,
            });
    }
    // a consent's history goes with its row: the entries of a consent whose conflict is open wait for it, kept as
    // unshared (no version agreed), so a revocation entry never reaches a server that keeps the consent unrevoked
    const waitFor = new Set(
      [...undecided].filter((k) => k.startsWith(key('consent', ''))).map((k) => k.slice(key('consent', '').length)),
    );
    // the changed records and their agreed versions, read a table at a time
    const tables = byEntity([...changed].flatMap(([k, ch]) => (undecided.has(k) ? [] : [ch])));
    const items: Array<PushItem & { last: number; first: number; decided?: SyncConflict }> = [];
    const waiting: Array<{ entity: string; id: string; version: null }> = [];
    for (const [entity, list] of tables) {
      const ids = list.map((ch) => ch.id);
      const rows = await this.reader.replica.readMany(
        tenant,
        entity,
        list.map((ch) => ({ id: ch.id, hint: ch.hint })),
      );
      const stored = await this.reader.syncState.basesOf(this.remoteUrl, tenant, entity, ids);
      const unstored = list.filter((ch) => !stored.has(ch.id) && !decided.has(key(entity, ch.id)));
      const derived = await this.derivedBases(this.reader, unstored);
      for (const ch of list) {
        const data = rows.get(ch.id) ?? null;
        const own = decided.get(key(entity, ch.id));
        const base = own
          ? own.theirs_version
          : stored.has(ch.id)
            ? stored.get(ch.id)!
            : (derived.get(key(entity, ch.id)) ?? null);
        if (versionOf(data) === base) continue;
        if (entity === 'consent_history' && data && waitFor.has(String(data.consent_id))) {
          waiting.push({ entity, id: ch.id, version: null });
          continue;
        }
        items.push({ entity, entity_id: ch.id, data, base, first: ch.first, last: ch.last, decided: own });
      }
    }
    // parents before children: records in the order they were first changed, deletions last, children first
    items.sort(
      (a, b) => (a.data === null ? 1 : 0) - (b.data === null ? 1 : 0) || (a.data ? a.first - b.first : b.last - a.last),
    );
    const size = Math.min(this.pageSize, 1000);
    type Item = (typeof items)[number];
    const refusedItems: Array<{ item: Item; no: PushResult['conflicts'][number] }> = [];
    const send = async (chunk: Item[]) => {
      const body = {
        replica: state.replica_id,
        items: chunk.map(({ entity, entity_id, data, base }) => ({ entity, entity_id, data, base })),
        dry_run: this.o.dryRun === true,
      };
      const res = await again(() => remote.sync.push({ tenant, actor, body }));
      const refused = new Map(res.conflicts.map((c) => [key(c.entity, c.entity_id), c]));
      // the files behind media records the server now holds, before their records count as agreed (so a run cut
      // off here sends them again)
      if (!this.o.dryRun)
        await this.sendMedia(
          chunk.filter((i) => i.entity === 'training_media' && i.data && !refused.has(key(i.entity, i.entity_id))),
        );
      await uow.write(tenant, async (tx) => {
        for (const item of chunk) {
          const no = refused.get(key(item.entity, item.entity_id));
          if (no) {
            refusedItems.push({ item, no });
            continue;
          }
          await tx.syncState.setBase(this.remoteUrl, tenant, item.entity, item.entity_id, versionOf(item.data));
          if (item.decided)
            await tx.syncState.putConflict({
              ...item.decided,
              status: 'resolved',
              resolved_at: isoZ(this.o.clock.now()),
            });
          count(this.summary.pushed, item.entity);
        }
      });
    };
    for (let i = 0; i < items.length; i += size) await send(items.slice(i, i + size));
    // a record refused in one request may rest on records a later one brought (its attempt, its certificate): the
    // refused are sent once more, and what the server still refuses is a conflict
    if (items.length > size && refusedItems.length && !this.o.dryRun) {
      const retry = refusedItems.splice(0).map((r) => r.item);
      for (let i = 0; i < retry.length; i += size) await send(retry.slice(i, i + size));
    }
    await uow.write(tenant, async (tx) => {
      if (waiting.length) await tx.syncState.setBases(this.remoteUrl, tenant, waiting);
      for (const { item, no } of refusedItems)
        await this.conflict(tx, item.decided, {
          entity: item.entity,
          entity_id: item.entity_id,
          reason: no.reason,
          base: item.base,
          ours: item.data,
          theirs: no.theirs,
          their_actor: null,
          their_time: null,
        });
    });
    state.pushed_seq = Math.max(state.pushed_seq, head);
  }
}
