import type { Clock, IdSource } from '../../domain/clock.js';
import type { SyncConflict } from '../../domain/sync/sync-state.port.js';
import { uuidv7Source } from '../../store/ids.js';
import { forTenant } from '../../store/tenant-scope.js';
import { createUnitOfWork } from '../../store/unit-of-work.js';
import { createHttpBackend } from '../http/http-backend.js';
import { openStore } from '../../store/open-store.js';
import type { OpenOptions, Store } from '../../store/store.js';
import type { Choice } from '../../domain/sync/field-merge.js';
import {
  areaOf,
  detailOf,
  reportOf,
  type ConflictDetail,
  SyncEngine,
  type ConflictReport,
  type SyncOptions,
  type SyncSummary,
} from './sync-engine.js';
import { changesOf } from '../../domain/journal/changes.js';
import { sameContent, TRAIL_TABLES } from '../../domain/sync/conflict-fields.js';
import { pickConflict } from '../../domain/sync/conflict-ref.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';

/** What the sync commands need to reach: this store (a file or URL) and, for a run, the server. */
export interface SyncTarget {
  db: string;
  tenant: string;
  actor?: string;
  clock: Clock;
  /** How this store is opened (whether a missing one is created, what an upgrade tells). */
  local?: Pick<OpenOptions, 'onUpgrade' | 'ifMissing' | 'onMissing' | 'timeouts' | 'media'>;
}

/** What a sync command works on: this store and its one unit of work, with the id source behind it. */
interface Local {
  store: Store;
  uow: UnitOfWork;
  ids: IdSource;
}

/**
 * This store alone, composed once with its unit of work: a sync works on its tables and journal, not through the
 * domain services.
 */
async function withLocal<T>(t: SyncTarget, fn: (local: Local) => Promise<T>) {
  const store = await openStore(t.db, t.local);
  const ids = uuidv7Source();
  try {
    // the tenant's scope: row-level security on a PostgreSQL store lets its rows through
    return await forTenant(t.tenant, () => fn({ store, uow: createUnitOfWork(store, t.clock, ids), ids }));
  } finally {
    await store.close();
  }
}

/** Runs one sync of `t.tenant` with the server at `remote`. */
export function runSync(
  t: SyncTarget,
  remote: { url: string; apiKey?: string },
  opts: Pick<SyncOptions, 'dryRun' | 'newTenant' | 'pageSize' | 'rowsPerTransaction'> = {},
): Promise<SyncSummary> {
  return withLocal(t, async (local) => {
    const server = createHttpBackend({ url: remote.url, apiKey: remote.apiKey });
    const engine = new SyncEngine({
      remote: server,
      store: local.store,
      uow: local.uow,
      clock: t.clock,
      ids: local.ids,
      tenant: t.tenant,
      actor: t.actor,
      ...opts,
    });
    try {
      return await engine.run();
    } finally {
      await server.close();
    }
  });
}

/** Where this store stands with each server it syncs the tenant with. */
export interface SyncStatus {
  tenant: string;
  remotes: Array<{
    remote: string;
    last_sync: string | null;
    pulled_seq: number;
    pushed_seq: number;
    /** Records changed here since the last push, per area (not the entries of their audit trails). */
    unsynced: Record<string, number>;
    /** The conflicts still to settle: open (someone decides) and decided here (pushed next sync). */
    conflicts: ConflictReport[];
    /** How many of them wait for a decision. */
    open: number;
  }>;
}

export function syncStatus(t: SyncTarget, remote?: string): Promise<SyncStatus> {
  return withLocal(t, async (local) => {
    const uow = local.uow;
    const journal = uow.read.journal;
    const base = remote && createHttpBackend({ url: remote }).location;
    const states = (await uow.read.syncState.list(t.tenant)).filter((s) => !base || s.remote === base);
    const entities = new Set(uow.read.replica.entities);
    const out: SyncStatus = { tenant: t.tenant, remotes: [] };
    for (const s of states) {
      const records = new Map<string, string>();
      for (let after = s.pushed_seq; ;) {
        const entries = await journal.page(t.tenant, after, 1000);
        if (!entries.length) break;
        for (const e of entries) {
          if (e.principal.startsWith('sync:')) continue;
          const data = e.data === null ? null : (JSON.parse(e.data) as unknown);
          for (const c of changesOf({ ...e, data }))
            if (entities.has(c.entity) && !TRAIL_TABLES.includes(c.entity))
              records.set(`${c.entity}\u0000${c.id}`, areaOf(c.entity));
        }
        after = entries[entries.length - 1]!.seq;
      }
      // a conflict whose record here came to the server's version closes at the next sync: not one to settle
      const conflicts = await unsettled(uow, t.tenant, s.remote);
      const unsynced: Record<string, number> = {};
      for (const area of records.values()) unsynced[area] = (unsynced[area] ?? 0) + 1;
      out.remotes.push({
        remote: s.remote,
        last_sync: s.synced_at,
        pulled_seq: s.pulled_seq,
        pushed_seq: s.pushed_seq,
        unsynced,
        conflicts: conflicts.map(reportOf),
        open: conflicts.filter((c) => c.status === 'open').length,
      });
    }
    return out;
  });
}

/** The tenant's unsettled conflicts with a server, but those whose record here is the server's version by now. */
async function unsettled(uow: UnitOfWork, tenant: string, remote: string): Promise<SyncConflict[]> {
  const out: SyncConflict[] = [];
  for (const c of await uow.read.syncState.conflicts(tenant, remote)) {
    const here = await uow.read.replica.read(tenant, c.entity, c.entity_id, c.ours ?? c.theirs);
    if (c.status !== 'open' || !sameContent(c.entity, here, c.theirs)) out.push(c);
  }
  return out;
}

/** One unsettled conflict, by its id or its record's (whole, or its start or end), with both versions side by side. */
export function showConflict(t: SyncTarget, ref: string): Promise<ConflictDetail> {
  return withLocal(t, async ({ uow }) => {
    return detailOf(pickConflict(ref, await uow.read.syncState.findConflicts(t.tenant, ref)));
  });
}

/** Settles one conflict (by its id or its record's: whole, or its start or end): this store's version, the server's, or a choice per field. */
export function resolveSync(t: SyncTarget, id: string, choice: Choice): Promise<SyncConflict> {
  return withLocal(t, async ({ uow, ids }) => {
    // the rules a settlement must keep build every area's schemas: loaded for `sync resolve` only
    const { resolveConflict } = await import('./resolve-conflict.js');
    return resolveConflict(uow, t.clock, ids, t.tenant, id, choice, t.actor);
  });
}
