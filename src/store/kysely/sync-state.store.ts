import type { Kysely } from 'kysely';
import { BATCH_OP, changesOf } from '../../domain/journal/changes.js';
import { conflictRef } from '../../domain/sync/conflict-ref.js';
import type { SyncConflict, SyncState, SyncStateStore } from '../../domain/sync/sync-state.port.js';
import type { SyncRow } from '../../domain/sync/version.js';
import type { DB } from '../db-types.js';
import type { SyncTables } from '../db-types-sync.js';
import { KyselyJournalStore } from '../journal/journal.store.js';
import { insertRows } from './bulk-insert.js';

const BASE_KEY = ['remote', 'tenant_id', 'entity', 'entity_id'];
const BASE_COLUMNS = [...BASE_KEY, 'version'];

const key = (entity: string, id: string) => `${entity}\u0000${id}`;

/** Journal entries read per statement while looking back for records' earlier states (their data apart). */
const LOOKBACK_PAGE = 1000;

const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as Record<string, unknown>));

const conflictOf = (r: SyncTables['sync_conflict']): SyncConflict => ({
  ...r,
  ours: parse(r.ours),
  theirs: parse(r.theirs),
  fields: JSON.parse(r.fields) as string[],
  status: r.status as SyncConflict['status'],
  resolution: r.resolution as SyncConflict['resolution'],
});

/** The sync bookkeeping with kysely's builders; written inside the unit of work of the change it goes with. */
export class KyselySyncStateStore implements SyncStateStore {
  private readonly journal: KyselyJournalStore;

  constructor(private readonly db: Kysely<DB>) {
    this.journal = new KyselyJournalStore(db);
  }

  async get(remote: string, tenant: string): Promise<SyncState | undefined> {
    const r = await this.db
      .selectFrom('sync_state')
      .selectAll()
      .where('remote', '=', remote)
      .where('tenant_id', '=', tenant)
      .executeTakeFirst();
    return r && { ...r, pulled_seq: Number(r.pulled_seq), pushed_seq: Number(r.pushed_seq) };
  }

  async list(tenant: string): Promise<SyncState[]> {
    const rows = await this.db
      .selectFrom('sync_state')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .orderBy('remote')
      .execute();
    return rows.map((r) => ({ ...r, pulled_seq: Number(r.pulled_seq), pushed_seq: Number(r.pushed_seq) }));
  }

  async save(s: SyncState): Promise<void> {
    await this.db
      .insertInto('sync_state')
      .values(s)
      .onConflict((oc) =>
        oc.columns(['remote', 'tenant_id']).doUpdateSet({
          replica_id: s.replica_id,
          pulled_seq: s.pulled_seq,
          pushed_seq: s.pushed_seq,
          synced_at: s.synced_at,
        }),
      )
      .execute();
  }

  async base(remote: string, tenant: string, entity: string, id: string): Promise<string | null> {
    const r = await this.db
      .selectFrom('sync_base')
      .select('version')
      .where('remote', '=', remote)
      .where('tenant_id', '=', tenant)
      .where('entity', '=', entity)
      .where('entity_id', '=', id)
      .executeTakeFirst();
    return r?.version ?? null;
  }

  async setBase(remote: string, tenant: string, entity: string, id: string, version: string | null): Promise<void> {
    await this.db
      .insertInto('sync_base')
      .values({ remote, tenant_id: tenant, entity, entity_id: id, version })
      .onConflict((oc) => oc.columns(['remote', 'tenant_id', 'entity', 'entity_id']).doUpdateSet({ version }))
      .execute();
  }

  async basesOf(remote: string, tenant: string, entity: string, ids: string[]): Promise<Map<string, string | null>> {
    const out = new Map<string, string | null>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('sync_base')
        .select(['entity_id', 'version'])
        .where('remote', '=', remote)
        .where('tenant_id', '=', tenant)
        .where('entity', '=', entity)
        .where('entity_id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) out.set(r.entity_id, r.version);
    }
    return out;
  }

  async setBases(
    remote: string,
    tenant: string,
    bases: Array<{ entity: string; id: string; version: string | null }>,
  ): Promise<void> {
    // the last word on a record wins: one row per record in a statement
    const unique = new Map(bases.map((b) => [`${b.entity}\u0000${b.id}`, b]));
    const rows = [...unique.values()].map((b) => [remote, tenant, b.entity, b.id, b.version]);
    await insertRows(this.db, 'sync_base', BASE_COLUMNS, rows, { key: BASE_KEY, set: ['version'] });
  }

  async dropBases(remote: string, tenant: string, records: Array<{ entity: string; id: string }>): Promise<void> {
    const byEntity = new Map<string, string[]>();
    for (const r of records) byEntity.set(r.entity, [...(byEntity.get(r.entity) ?? []), r.id]);
    for (const [entity, ids] of byEntity)
      for (let i = 0; i < ids.length; i += 500)
        await this.db
          .deleteFrom('sync_base')
          .where('remote', '=', remote)
          .where('tenant_id', '=', tenant)
          .where('entity', '=', entity)
          .where('entity_id', 'in', ids.slice(i, i + 500))
          .execute();
  }

  async hasBases(remote: string, tenant: string): Promise<boolean> {
    const r = await this.db
      .selectFrom('sync_base')
      .select('entity_id')
      .where('remote', '=', remote)
      .where('tenant_id', '=', tenant)
      .limit(1)
      .executeTakeFirst();
    return r !== undefined;
  }

  async statesBefore(
    tenant: string,
    wanted: Array<{ entity: string; id: string; before: number }>,
  ): Promise<Map<string, SyncRow | null>> {
    const out = new Map<string, SyncRow | null>();
    const open = new Map(wanted.map((w) => [key(w.entity, w.id), w]));
    // a loop, not Math.max(...): a large offline change looks back for more records than a call takes arguments
    let below = 0;
    for (const w of wanted) below = Math.max(below, w.before);
    while (open.size && below > 1) {
      const heads = await this.journal.headersBefore(tenant, below, LOOKBACK_PAGE);
      if (!heads.length) break;
      for (const h of heads) {
        const seq = Number(h.seq);
        const found =
          h.op === BATCH_OP ? await this.batchStates(tenant, seq, open) : await this.entryState(tenant, seq, h, open);
        for (const [k, row] of found) {
          out.set(k, row);
          open.delete(k);
        }
        if (!open.size) break;
      }
      below = Number(heads[heads.length - 1]!.seq);
    }
    for (const k of open.keys()) out.set(k, null);
    return out;
  }

  /** The state a single entry left, when it changed a wanted record before the record's bound. */
  private async entryState(
    tenant: string,
    seq: number,
    h: { entity: string; entity_id: string },
    open: Map<string, { before: number }>,
  ): Promise<Map<string, SyncRow | null>> {
    const k = key(h.entity, h.entity_id);
    const w = open.get(k);
    if (!w || seq >= w.before) return new Map();
    return new Map([[k, parse(await this.dataAt(tenant, seq))]]);
  }

  /** The data of one entry of the journal. */
  private dataAt(tenant: string, seq: number): Promise<string | null> {
    return this.journal.dataAt(tenant, seq);
  }

  /** The last state of each wanted record a batch entry holds (its data read only when it may hold one). */
  private async batchStates(
    tenant: string,
    seq: number,
    open: Map<string, { entity: string; id: string; before: number }>,
  ): Promise<Map<string, SyncRow | null>> {
    const found = new Map<string, SyncRow | null>();
    // a few records are looked for in the text first: a batch's data runs to megabytes
    const few = open.size <= 16 ? [...open.values()].filter((w) => seq < w.before) : undefined;
    if (few?.length === 0) return found;
    const data = await this.dataAt(tenant, seq);
    if (data === null) return found;
    // derived rows (an import's staged form) carry ids that are not in the text
    const plain = few?.every((w) => !w.id.startsWith('[')) && !data.includes('"derive":');
    if (plain && !few!.some((w) => data.includes(JSON.stringify(w.id)))) return found;
    for (const c of changesOf({ entity: '', entity_id: '', op: BATCH_OP, data: JSON.parse(data) as unknown })) {
      const k = key(c.entity, c.id);
      const w = open.get(k);
      if (w && seq < w.before) found.set(k, c.row);
    }
    return found;
  }

  async pending(remote: string, tenant: string, entity: string, id: string): Promise<SyncConflict | undefined> {
    const r = await this.db
      .selectFrom('sync_conflict')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('remote', '=', remote)
      .where('entity', '=', entity)
      .where('entity_id', '=', id)
      .where('status', 'in', ['open', 'ours'])
      .executeTakeFirst();
    return r && conflictOf(r);
  }

  async putConflict(c: SyncConflict): Promise<void> {
    const row = {
      ...c,
      ours: c.ours && JSON.stringify(c.ours),
      theirs: c.theirs && JSON.stringify(c.theirs),
      fields: JSON.stringify(c.fields),
    };
    const { id: _id, ...rest } = row;
    await this.db
      .insertInto('sync_conflict')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet(rest))
      .execute();
  }

  async conflicts(tenant: string, remote?: string): Promise<SyncConflict[]> {
    let q = this.db
      .selectFrom('sync_conflict')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('status', 'in', ['open', 'ours']);
    if (remote !== undefined) q = q.where('remote', '=', remote);
    return (await q.orderBy('created_at').orderBy('id').execute()).map(conflictOf);
  }

  async findConflicts(tenant: string, ref: string): Promise<SyncConflict[]> {
    const { whole, part } = conflictRef(ref);
    const like = part?.replace(/[%_\\]/g, '');
    const rows = await this.db
      .selectFrom('sync_conflict')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('status', 'in', ['open', 'ours'])
      .where((eb) =>
        eb.or([
          eb('id', '=', whole),
          eb('entity_id', '=', whole),
          ...(like
            ? [
                eb('id', 'like', `${like}%`),
                eb('id', 'like', `%${like}`),
                eb('entity_id', 'like', `${like}%`),
                eb('entity_id', 'like', `%${like}`),
              ]
            : []),
        ]),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(11)
      .execute();
    return rows.map(conflictOf);
  }

  async changesBesides(tenant: string, after: number) {
    const rows = await this.journal.changesBesides(tenant, after);
    return rows.map((r) => ({ ...r, data: parse(r.data) as unknown }));
  }

  lastChange(tenant: string, entity: string, id: string): Promise<{ actor: string; time: string } | undefined> {
    return this.journal.lastChange(tenant, entity, id);
  }
}
