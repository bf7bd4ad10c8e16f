import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { dataHash, entryHash, GENESIS_HASH } from './frozen/0017-chain.js';
import { APP_ROLE, columnTypes, isolateTenant, isPostgres } from './dialect.js';

/**
 * The journal: one ordered, hash-chained record of every change of a tenant's data, written in the transaction of
 * the change. `(tenant_id, seq)` is unique and gapless per tenant; the store's own changes (API keys) form the chain
 * of the empty tenant id, which no request can name.
 *
 * Existing stores are chained on upgrade: every record already stored gets a `genesis` entry with its row, tenant by
 * tenant, table by table in the order below (parents first), by key. The list is frozen here: later tables add
 * their own genesis in their own migration. An entry's id is the key, or `id` where the key holds the tenant beside
 * other columns: the tenant is the chain's, and the stores name these records the same way in their later entries.
 */
const GENESIS_TABLES: Array<{ table: string; key: string[]; id?: string[]; omit?: string[] }> = [
  { table: 'api_key', key: ['id'], omit: ['hash'] },
  { table: 'dsfa_setting', key: ['tenant_id'] },
  { table: 'dsfa', key: ['id'] },
  { table: 'dsfa_audit', key: ['id'] },
  { table: 'consent', key: ['id'] },
  { table: 'consent_history', key: ['id'] },
  { table: 'consent_import_run', key: ['id'] },
  { table: 'legal_document', key: ['id'] },
  { table: 'legal_document_version', key: ['id'] },
  { table: 'cookie_banner', key: ['tenant_id'] },
  { table: 'training_canonical_control', key: ['tenant_id', 'id'], id: ['id'] },
  { table: 'training_module', key: ['id'] },
  { table: 'training_question', key: ['id'] },
  { table: 'training_content', key: ['id'] },
  { table: 'training_matrix', key: ['tenant_id', 'role_code', 'module_id'], id: ['role_code', 'module_id'] },
  { table: 'training_assignment', key: ['id'] },
  { table: 'training_quiz_attempt', key: ['id'] },
  { table: 'training_certificate', key: ['id'] },
  { table: 'training_audit', key: ['id'] },
  { table: 'training_media', key: ['id'] },
  { table: 'training_block', key: ['id'] },
  { table: 'training_block_control', key: ['block_id', 'control_id'] },
];

const PAGE = 5000;

export async function up(db: Kysely<any>): Promise<void> {
  const { text } = columnTypes(db);
  const pg = isPostgres(db);
  await db.schema
    .createTable('journal')
    .addColumn('tenant_id', text, (c) => c.notNull())
    .addColumn('seq', pg ? 'bigint' : 'integer', (c) => c.notNull())
    .addColumn('txn', text, (c) => c.notNull())
    .addColumn('time', text, (c) => c.notNull())
    .addColumn('actor', text, (c) => c.notNull())
    .addColumn('principal', text, (c) => c.notNull())
    .addColumn('entity', text, (c) => c.notNull())
    .addColumn('entity_id', text, (c) => c.notNull())
    .addColumn('op', text, (c) => c.notNull())
    .addColumn('data', text)
    .addColumn('data_hash', text, (c) => c.notNull())
    .addColumn('prev_hash', text, (c) => c.notNull())
    .addColumn('hash', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('journal_pk', ['tenant_id', 'seq'])
    .execute();
  await isolateTenant(db, 'journal');
  // the application appends and reads; it never rewrites or removes an entry (the owner can: db copy --force)
  if (pg) await sql`revoke update, delete, truncate on journal from ${sql.raw(APP_ROLE)}`.execute(db);
  await chainExistingRecords(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('journal').execute();
}

/** The key's value as the journal names a record: one column as is, several as a JSON array (`compositeId`). */
const entityId = (row: Record<string, any>, id: string[]): string =>
  id.length === 1 ? String(row[id[0]!]) : JSON.stringify(id.map((k) => row[k]));

interface Head {
  seq: number;
  hash: string;
  txn: string;
}

/** Genesis entries for every record already stored, each tenant's chain in the order of GENESIS_TABLES. */
async function chainExistingRecords(db: Kysely<any>): Promise<void> {
  const heads = new Map<string, Head>();
  const time = new Date().toISOString();
  for (const spec of GENESIS_TABLES) {
    for await (const rows of pages(db, spec.table, spec.key)) {
      const entries = [];
      for (const row of rows) {
        const tenant = spec.table === 'api_key' ? '' : String(row.tenant_id ?? row.__tenant);
        const head = heads.get(tenant) ?? { seq: 0, hash: GENESIS_HASH, txn: randomUUID() };
        const { __tenant: _t, ...stored } = row;
        for (const c of spec.omit ?? []) delete stored[c];
        const data = JSON.stringify(stored);
        const entry = {
          tenant_id: tenant,
          seq: head.seq + 1,
          txn: head.txn,
          time,
          actor: 'system',
          principal: 'upgrade',
          entity: spec.table,
          entity_id: entityId(row, spec.id ?? spec.key),
          op: 'genesis',
          data,
          data_hash: dataHash(data),
          prev_hash: head.hash,
        };
        const hash = entryHash(entry);
        entries.push({ ...entry, hash });
        heads.set(tenant, { seq: entry.seq, hash, txn: head.txn });
      }
      for (let i = 0; i < entries.length; i += 500)
        await db
          .insertInto('journal')
          .values(entries.slice(i, i + 500))
          .execute();
    }
  }
}

/**
 * The rows of a table in key order, a page at a time (by key where it is one column; by offset for the small
 * tables with composite keys). Control links carry no tenant of their own: theirs is their block's.
 */
async function* pages(db: Kysely<any>, table: string, key: string[]): AsyncGenerator<Array<Record<string, any>>> {
  const base = () =>
    table === 'training_block_control'
      ? db
          .selectFrom('training_block_control as l')
          .innerJoin('training_block as b', 'b.id', 'l.block_id')
          .selectAll('l')
          .select('b.tenant_id as __tenant')
      : db.selectFrom(table).selectAll();
  const qualified = (k: string) => (table === 'training_block_control' ? `l.${k}` : k);
  if (key.length === 1) {
    let after: unknown = undefined;
    for (;;) {
      let q = base().orderBy(qualified(key[0]!)).limit(PAGE);
      if (after !== undefined) q = q.where(qualified(key[0]!), '>', after);
      const rows = await q.execute();
      if (!rows.length) return;
      yield rows;
      after = rows[rows.length - 1]![key[0]!];
    }
  }
  for (let offset = 0; ; offset += PAGE) {
    let q = base();
    for (const k of key) q = q.orderBy(qualified(k));
    const rows = await q.limit(PAGE).offset(offset).execute();
    if (!rows.length) return;
    yield rows;
  }
}
