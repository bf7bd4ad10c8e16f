import { sql, type Kysely } from 'kysely';
import type { Dsfa, DsfaAuditEntry, DsfaSettings } from '../../domain/dsfa/dsfa.schema.js';
import { DSFA_ADDITIONS } from '../../domain/dsfa/dsfa.values.js';
import type { DsfaWorkflow } from '../../domain/dsfa/dsfa.workflow.js';
import type { DsfaFilter, DsfaStore } from '../../domain/dsfa/dsfa-store.port.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';
import { KyselyJournalStore } from '../journal/journal.store.js';
import type { DB, DsfaAuditRow, DsfaRow } from '../db-types.js';
import { rowColumns } from '../row-columns.js';

const JSON_COLUMNS = ['data_categories', 'recipients', 'measures', 'ai_use_case_modules'] as const;
/** The optional fields kept as JSON text; the others are plain text. NULL in a column means the field is unset. */
const OPTIONAL_JSON = new Set<string>(['purposes', 'data_subjects', 'risks', 'measure_details']);

export const dsfaFromRow = (row: DsfaRow): Dsfa => {
  const out = { ...row } as unknown as Record<string, unknown>;
  for (const c of JSON_COLUMNS) out[c] = JSON.parse(row[c]);
  for (const c of DSFA_ADDITIONS) {
    const v = row[c];
    if (v === null || v === undefined) delete out[c];
    else if (OPTIONAL_JSON.has(c)) out[c] = JSON.parse(v);
  }
  return out as unknown as Dsfa;
};

/** The columns of table dsfa; a record is written column by column, so a field left unset is written as NULL. */
const DSFA_COLUMNS = rowColumns<DsfaRow>({
  id: true,
  tenant_id: true,
  title: true,
  description: true,
  status: true,
  risk_level: true,
  processing_activity: true,
  data_categories: true,
  recipients: true,
  measures: true,
  approved_by: true,
  approved_at: true,
  created_by: true,
  created_at: true,
  updated_at: true,
  ai_use_case_modules: true,
  controller: true,
  purposes: true,
  data_subjects: true,
  necessity_assessment: true,
  risks: true,
  measure_details: true,
  dpo_opinion: true,
  dpo_name: true,
  dpo_opinion_date: true,
  review_date: true,
});
const JSON_TEXT = new Set<string>([...JSON_COLUMNS, ...OPTIONAL_JSON]);

export const dsfaToRow = (d: Dsfa): DsfaRow => {
  const record = d as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const c of DSFA_COLUMNS) {
    const v = record[c];
    out[c] = v === undefined || v === null ? null : JSON_TEXT.has(c) ? JSON.stringify(v) : v;
  }
  return out as unknown as DsfaRow;
};

const auditFromRow = (r: DsfaAuditRow): DsfaAuditEntry => ({
  ...r,
  action: r.action as DsfaAuditEntry['action'],
  old_values: JSON.parse(r.old_values),
  new_values: JSON.parse(r.new_values),
});

/** DsfaStore written once with kysely's builders: the same queries on SQLite and PostgreSQL. */
export class KyselyDsfaStore implements DsfaStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly journal: Recorder = readOnly,
  ) {}

  async list(tenant: string, f: DsfaFilter): Promise<Dsfa[]> {
    let q = this.db.selectFrom('dsfa').selectAll().where('tenant_id', '=', tenant);
    if (f.status) q = q.where('status', '=', f.status);
    if (f.risk_level) q = q.where('risk_level', '=', f.risk_level);
    if (f.search) {
      // lower() folds ASCII only on both engines (PostgreSQL text is COLLATE "C"), so both find the same rows.
      const pattern = `%${f.search.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/[\\%_]/g, (c) => '\\' + c)}%`;
      const like = (column: 'title' | 'description' | 'processing_activity') =>
        sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
      q = q.where((eb) => eb.or([like('title'), like('description'), like('processing_activity')]));
    }
    const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).offset(f.skip).execute();
    return rows.map(dsfaFromRow);
  }

  async get(tenant: string, id: string): Promise<Dsfa | undefined> {
    const row = await this.db
      .selectFrom('dsfa')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && dsfaFromRow(row);
  }

  async insert(record: Dsfa): Promise<void> {
    const row = dsfaToRow(record);
    this.journal.put('dsfa', row.id, row, 'insert');
    await this.db.insertInto('dsfa').values(row).execute();
  }

  async replace(record: Dsfa): Promise<void> {
    const row = dsfaToRow(record);
    this.journal.put('dsfa', row.id, row);
    const { id, tenant_id, ...rest } = row;
    await this.db.updateTable('dsfa').set(rest).where('tenant_id', '=', tenant_id).where('id', '=', id).execute();
  }

  async remove(tenant: string, id: string): Promise<void> {
    this.journal.remove('dsfa', id);
    await this.db.deleteFrom('dsfa').where('tenant_id', '=', tenant).where('id', '=', id).execute();
  }

  async countByStatusAndRisk(tenant: string) {
    const rows = await this.db
      .selectFrom('dsfa')
      .select(['status', 'risk_level', (eb) => eb.fn.countAll<number>().as('n')])
      .where('tenant_id', '=', tenant)
      .groupBy(['status', 'risk_level'])
      .execute();
    return rows.map((r) => ({ status: r.status, risk_level: r.risk_level, n: Number(r.n) }));
  }

  async appendAudit(e: DsfaAuditEntry): Promise<void> {
    const row = { ...e, old_values: JSON.stringify(e.old_values), new_values: JSON.stringify(e.new_values) };
    this.journal.put('dsfa_audit', row.id, row, 'insert');
    await this.db.insertInto('dsfa_audit').values(row).execute();
  }

  async changesBy(tenant: string, id: string): Promise<Array<{ principal: string; status: string | null }>> {
    const rows = await new KyselyJournalStore(this.db).recordEntries(tenant, 'dsfa', id);
    return rows.map((r) => ({
      principal: r.principal,
      status: r.data === null ? null : ((JSON.parse(r.data) as { status?: string }).status ?? null),
    }));
  }

  async auditLog(tenant: string, q: { limit: number; offset: number; dsfa_id?: string }): Promise<DsfaAuditEntry[]> {
    let s = this.db.selectFrom('dsfa_audit').selectAll().where('tenant_id', '=', tenant);
    if (q.dsfa_id) s = s.where('dsfa_id', '=', q.dsfa_id);
    const rows = await s.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute();
    return rows.map(auditFromRow);
  }

  async settings(tenant: string): Promise<DsfaSettings | undefined> {
    const row = await this.db
      .selectFrom('dsfa_setting')
      .select(['workflow', 'updated_by', 'updated_at'])
      .where('tenant_id', '=', tenant)
      .executeTakeFirst();
    return row && { ...row, workflow: row.workflow as DsfaWorkflow };
  }

  async workflow(tenant: string): Promise<DsfaWorkflow> {
    return (await this.settings(tenant))?.workflow ?? 'open';
  }

  async saveSettings(tenant: string, s: DsfaSettings): Promise<void> {
    const values = { workflow: s.workflow, updated_by: s.updated_by ?? 'system', updated_at: s.updated_at ?? '' };
    this.journal.put('dsfa_setting', tenant, { tenant_id: tenant, ...values });
    await this.db
      .insertInto('dsfa_setting')
      .values({ tenant_id: tenant, ...values })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet(values))
      .execute();
  }
}
