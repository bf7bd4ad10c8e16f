import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from '../db-types.js';
import { engineFor } from '../engine.js';
import { executeHeld } from '../transaction.js';

/**
 * The statement of a tenant's last entry (its number and hash), as SQL of one text per engine: read before every
 * append (prepared once on SQLite rather than built and compiled by kysely for each write), and in a verification's
 * snapshot of the audit trails, on this thread or another.
 */
export const headQuery = (db: Kysely<DB>, tenant: string): CompiledQuery<{ seq: number | string; hash: string }> =>
  CompiledQuery.raw(
    `select "seq", "hash" from "journal" where "tenant_id" = ${engineFor(db).placeholder(1)} order by "seq" desc limit 1`,
    [tenant],
  );

/** A tenant's last entry (its number and hash), or undefined before its first. */
export async function readHead(db: Kysely<DB>, tenant: string): Promise<{ seq: number; hash: string } | undefined> {
  const [row] = (await executeHeld(db, headQuery(db, tenant))).rows;
  return row && { seq: Number(row.seq), hash: row.hash };
}
