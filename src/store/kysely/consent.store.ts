import { sql, type Kysely } from 'kysely';
import type { StoredDecision } from '../../domain/consents/consent.rules.js';
import type { Consent, ConsentHistoryEntry, ConsentListQuery } from '../../domain/consents/consent.schema.js';
import type { ConsentCountRow, ConsentStore } from '../../domain/consents/consent-store.port.js';
import { engineFor } from '../engine.js';
import type { DB } from '../db-types.js';
import type { ConsentTables } from '../db-types-consents.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';

type ConsentRow = ConsentTables['consent'];

/** Up to this many matching consents, a list filtered by data point sorts them instead of walking the id index. */
const FEW = 5_000;

/** A consent as the API shows it: which import run created it stays in the store (revert finds it there). */
export const consentFromRow = ({ import_run_id: _r, ...r }: ConsentRow): Consent => ({
  ...r,
  granted: r.granted === 1,
});
export const consentToRow = (c: Consent): ConsentRow => ({ ...c, granted: c.granted ? 1 : 0, import_run_id: null });
const historyFromRow = ({
  tenant_id: _t,
  import_run_id: _r,
  ...h
}: ConsentTables['consent_history']): ConsentHistoryEntry => h as ConsentHistoryEntry;

/** ConsentStore written once with kysely's builders; statistics read PostgreSQL's tallies where it has them. */
export class KyselyConsentStore implements ConsentStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly journal: Recorder = readOnly,
  ) {}

  async insert(consent: Consent, history: ConsentHistoryEntry[]): Promise<void> {
    const row = consentToRow(consent);
    await this.db.insertInto('consent').values(row).execute();
    this.journal.put('consent', row.id, row, 'insert');
    for (const h of history) await this.appendHistory(consent.tenant_id, h);
  }

  async get(tenant: string, id: string): Promise<Consent | undefined> {
    const r = await this.db
      .selectFrom('consent')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    return r && consentFromRow(r);
  }

  async update(c: Consent): Promise<void> {
    const { id, tenant_id, import_run_id: _r, ...rest } = consentToRow(c);
    const row = await this.db
      .updateTable('consent')
      .set(rest)
      .where('tenant_id', '=', tenant_id)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (row) this.journal.put('consent', id, row);
  }

  async markRevoked(tenant: string, id: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('consent')
      .set({ revoked_at: at })
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .where('granted', '=', 1)
      .where('revoked_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (r) this.journal.put('consent', id, r);
    return r !== undefined;
  }

  async appendHistory(tenant: string, h: ConsentHistoryEntry): Promise<void> {
    const row = { ...h, tenant_id: tenant, import_run_id: null };
    await this.db.insertInto('consent_history').values(row).execute();
    this.journal.put('consent_history', row.id, row, 'insert');
  }

  async decisions(tenant: string, user_id: string, data_point_id: string): Promise<StoredDecision[]> {
    const rows = await this.db
      .selectFrom('consent')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('user_id', '=', user_id)
      .where('data_point_id', '=', data_point_id)
      .execute();
    const granted = rows.filter((r) => r.granted === 1).map((r) => r.id);
    const entries = granted.length
      ? await this.db
          .selectFrom('consent_history')
          .select(['consent_id', 'created_at', 'consent_version'])
          .where('tenant_id', '=', tenant)
          .where('consent_id', 'in', granted)
          .where('action', 'in', ['granted', 'renewed', 'version_update'])
          .execute()
      : [];
    return rows.map((r) => ({
      ...consentFromRow(r),
      affirmations: entries
        .filter((e) => e.consent_id === r.id)
        .map((e) => ({ at: e.created_at, consent_version: e.consent_version })),
    }));
  }

  async list(tenant: string, q: ConsentListQuery): Promise<{ total: number; rows: Consent[] }> {
    let base = this.db.selectFrom('consent').where('tenant_id', '=', tenant);
    if (q.user_id) base = base.where('user_id', '=', q.user_id);
    if (q.data_point_id) base = base.where('data_point_id', '=', q.data_point_id);
    if (q.granted !== undefined) base = base.where('granted', '=', q.granted ? 1 : 0);
    const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    // Newest first walks the (tenant_id, id) index and skips rows of other data points: quick for a common data point,
    // a scan of the whole tenant for a rare one. A data point with few consents is read through its own index and
    // sorted instead (`+id` keeps SQLite from ordering by the id index; PostgreSQL's planner weighs both plans itself
    // and has no unary + on text).
    const sortFew = q.data_point_id !== undefined && q.user_id === undefined && total <= FEW;
    const rows = await base
      .selectAll()
      .orderBy(sortFew ? engineFor(this.db).orderOffIndex('id') : 'id', 'desc')
      .limit(q.limit)
      .offset(q.offset)
      .execute();
    return { total, rows: rows.map(consentFromRow) };
  }

  async histories(tenant: string, ids: string[]): Promise<Map<string, ConsentHistoryEntry[]>> {
    const out = new Map<string, ConsentHistoryEntry[]>();
    if (ids.length === 0) return out;
    const rows = await this.db
      .selectFrom('consent_history')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('consent_id', 'in', ids)
      .orderBy('consent_id')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const r of rows) {
      const list = out.get(r.consent_id) ?? [];
      list.push(historyFromRow(r));
      out.set(r.consent_id, list);
    }
    return out;
  }

  async counts(tenant: string): Promise<ConsentCountRow[]> {
    // PostgreSQL keeps tallies by trigger (migration 0013): a few rows instead of a walk over every consent
    if (engineFor(this.db).consentTallies) {
      const rows = await this.db
        .selectFrom('consent_tally')
        .select((eb) => ['data_point_id', 'granted', 'revoked', eb.fn.sum<number>('n').as('n')])
        .where('tenant_id', '=', tenant)
        .groupBy(['data_point_id', 'granted', 'revoked'])
        .execute();
      return rows
        .map((r) => ({
          data_point_id: r.data_point_id,
          granted: r.granted === 1,
          revoked: r.revoked === 1,
          n: Number(r.n),
        }))
        .filter((r) => r.n !== 0);
    }
    // grouped in the order of the statistics index, so SQLite walks it once without a temporary b-tree
    const rows = await this.db
      .selectFrom('consent')
      .select((eb) => [
        'data_point_id',
        'granted',
        eb.fn.countAll<number>().as('n'),
        eb.fn.count<number>('revoked_at').as('revoked'),
      ])
      .where('tenant_id', '=', tenant)
      .groupBy(['data_point_id', 'granted'])
      .execute();
    return rows.flatMap((r) => [
      { data_point_id: r.data_point_id, granted: r.granted === 1, revoked: false, n: Number(r.n) - Number(r.revoked) },
      { data_point_id: r.data_point_id, granted: r.granted === 1, revoked: true, n: Number(r.revoked) },
    ]);
  }

  async uniqueUsers(tenant: string): Promise<number> {
    if (engineFor(this.db).consentTallies) {
      const r = await this.db
        .selectFrom('consent_user_tally')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), sql<number>`0`).as('n'))
        .where('tenant_id', '=', tenant)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    }
    // SQLite counts distinct values along the user index (88 ms on 1M consents)
    const r = await this.db
      .selectFrom('consent')
      .where('tenant_id', '=', tenant)
      .select((eb) => eb.fn.count<number>('user_id').distinct().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** A row of `setting`, like the certificate key (training.store.ts): created once, by whichever writer comes first. */
  async receiptSigningKey(generate: () => string): Promise<string> {
    const read = () =>
      this.db.selectFrom('setting').select('value').where('key', '=', 'consent_receipt_key').executeTakeFirst();
    const row = await read();
    if (row) return row.value;
    await this.db
      .insertInto('setting')
      .values({ key: 'consent_receipt_key', value: generate() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await read())!.value;
  }
}
