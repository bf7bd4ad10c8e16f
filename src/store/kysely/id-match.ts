import { sql, type Kysely } from 'kysely';
import type { IdKind, IdMatch } from '../../domain/short-id.js';
import type { DB } from '../db-types.js';

/**
 * Where the ids of each kind live: table and column, and what every id there starts with before its hex digits (a
 * delivery's `msg_`). An assessment's trail also knows assessments since deleted.
 */
const PLACES: Record<IdKind, Array<[table: string, column: string, idPrefix?: string]>> = {
  dsfa: [['dsfa', 'id']],
  dsfa_trail: [
    ['dsfa', 'id'],
    ['dsfa_audit', 'dsfa_id'],
  ],
  consent: [['consent', 'id']],
  legal_document: [['legal_document', 'id']],
  legal_document_version: [['legal_document_version', 'id']],
  training_module: [['training_module', 'id']],
  training_assignment: [['training_assignment', 'id']],
  training_certificate: [['training_certificate', 'id']],
  training_content: [['training_content', 'id']],
  training_media: [['training_media', 'id']],
  training_block: [['training_block', 'id']],
  consent_import_run: [['consent_import_run', 'id']],
  webhook_endpoint: [['webhook_endpoint', 'id']],
  webhook_delivery: [['webhook_delivery', 'id', 'msg_']],
};

/** Tables that hold a few rows per tenant: their lookups read the tenant's rows by its index, with no tail index. */
const FEW_PER_TENANT = new Set(['webhook_endpoint']);

/** The tables and id columns an index on `(tenant_id, substr(column, 29))` serves (migrations 0015 and 0016). */
export const ID_TAIL_INDEXES: ReadonlyArray<[table: string, column: string]> = [
  ...new Map(
    Object.values(PLACES)
      .flat()
      .filter(([t]) => !FEW_PER_TENANT.has(t))
      .map(([t, c]) => [`${t}.${c}`, [t, c] as [string, string]]),
  ).values(),
];

/** Characters an id is made of sort before this one (byte order on both engines), so `[p, p~)` holds every id starting with p. */
const AFTER_ID_CHARACTERS = '~';

/**
 * The ids of one table and tenant that start or end with the part given, each on an index: a start is a range of the
 * (tenant, id) keys; an end is looked up by its last 8 characters in the index on `substr(id, 29)` (written exactly
 * so in migration 0015, so both engines use it) and checked whole on the rows found.
 */
export function idMatchQuery(
  db: Kysely<DB>,
  table: string,
  column: string,
  tenant: string,
  match: IdMatch,
  limit: number,
) {
  const ref = sql.ref(column);
  const q = (db as unknown as Kysely<Record<string, Record<string, string>>>)
    .selectFrom(table)
    .select(sql<string>`${ref}`.as('id'))
    .distinct()
    .where('tenant_id', '=', tenant);
  const matching =
    'prefix' in match
      ? q.where(column, '>=', match.prefix).where(column, '<', match.prefix + AFTER_ID_CHARACTERS)
      : q.where(sql<string>`substr(${ref}, 29)`, '=', match.suffix.slice(-8)).where(column, 'like', `%${match.suffix}`);
  return matching.orderBy('id').limit(limit);
}

/** Up to `limit` ids of one kind and tenant that start or end with the part given. */
export async function idsMatching(
  db: Kysely<DB>,
  kind: IdKind,
  tenant: string,
  match: IdMatch,
  limit: number,
): Promise<string[]> {
  const found = new Set<string>();
  for (const [table, column, idPrefix = ''] of PLACES[kind]) {
    const m = 'prefix' in match ? { prefix: idPrefix + match.prefix } : match;
    for (const r of await idMatchQuery(db, table, column, tenant, m, limit).execute()) found.add(String(r.id));
  }
  return [...found].sort().slice(0, limit);
}
