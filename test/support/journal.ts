import { expect } from 'vitest';
import type { Backend } from '../../src/backend/backend.js';
import type { LocalBackend } from '../../src/backend/local/local-backend.js';
import type { JournalEntry } from '../../src/domain/journal/journal.schema.js';

/** A tenant's journal entries after `after`, through the backend under test (any face), every page. */
export async function journalAfter(backend: Backend, tenant: string, after = 0): Promise<JournalEntry[]> {
  const all: JournalEntry[] = [];
  for (let from = after; ;) {
    const page = await backend.journal.page({ tenant, query: { after: from, limit: 1000 } });
    all.push(...page.entries);
    if (page.next_after === null) return all;
    from = page.next_after;
  }
}

/** The tenant's head sequence number now: entries written by what follows come after it. */
export async function journalHead(backend: Backend, tenant: string): Promise<number> {
  return (await backend.journal.anchor({ tenant })).seq;
}

/**
 * What an operation wrote to the journal: runs `op`, then answers the entries it appended as `[entity, op]` pairs in
 * order, and the entries themselves. The pairs are what a test compares first; the entries' data second.
 */
export async function journalled<T>(
  backend: Backend,
  tenant: string,
  op: () => Promise<T>,
): Promise<{ result: T; pairs: string[]; entries: JournalEntry[] }> {
  const before = await journalHead(backend, tenant);
  const result = await op();
  const entries = await journalAfter(backend, tenant, before);
  // one unit of work: every entry of one operation shares its transaction id
  expect(new Set(entries.map((e) => e.txn)).size).toBeLessThanOrEqual(1);
  return { result, pairs: entries.map((e) => `${e.entity} ${e.op}`), entries };
}

/** The data of the last entry about one record (its state after the change), or null for a tombstone. */
export function lastState(entries: JournalEntry[], entity: string, id: string): Record<string, unknown> | null {
  const e = entries.filter((x) => x.entity === entity && x.entity_id === id).at(-1);
  expect(e, `an entry for ${entity} ${id}`).toBeDefined();
  return e!.data as Record<string, unknown> | null;
}

/** The tenant's chain verified end to end, as `audit verify --tenant` does it: every hash and link must hold. */
export async function expectChainIntact(local: LocalBackend, tenant: string): Promise<void> {
  const reports = await (await local.auditor()).verify(tenant);
  expect(reports.map((r) => ({ tenant: r.tenant, ok: r.ok, problem: r.problem }))).toEqual([
    { tenant, ok: true, problem: undefined },
  ]);
}

/** The `[entity op]` pairs counted, for operations whose entries come in no set order (one user's rows, then the next). */
export function tally(pairs: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of pairs) out[p] = (out[p] ?? 0) + 1;
  return out;
}

/** A table and how the journal names its rows (the primary key without the tenant, as the stores record it). */
export type JournaledTable = [table: string, id: (row: Record<string, unknown>) => string];

/**
 * Replays a tenant's journal (entries as stored: `data` is JSON text) and expects exactly the stored rows of each
 * table: every live row is the last state its entries recorded, every row deleted ended in a tombstone, no row was
 * written without an entry, and none was inserted twice. `rows` runs SQL on the database (as a role that sees the tenant's rows).
 */
export async function expectReplayEqualsTables(
  rows: (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>,
  tenant: string,
  tables: JournaledTable[],
): Promise<void> {
  const state = new Map<string, Map<string, unknown>>();
  const twice: string[] = [];
  for (const e of await rows(`select entity, entity_id, op, data from journal where tenant_id = $1 order by seq`, [
    tenant,
  ])) {
    const of = state.get(e.entity as string) ?? state.set(e.entity as string, new Map()).get(e.entity as string)!;
    // a record inserted while it exists: a run that did not commit left its entry, or a row was written twice
    if (e.op === 'insert' && of.has(e.entity_id as string)) twice.push(`${e.entity} ${e.entity_id}`);
    if (e.data === null) of.delete(e.entity_id as string);
    else of.set(e.entity_id as string, JSON.parse(e.data as string));
  }
  expect(twice, 'records inserted twice').toEqual([]);
  for (const [table, id] of tables) {
    // control links carry no tenant: theirs is their block's
    const stored =
      table === 'training_block_control'
        ? await rows(
            `select l.* from training_block_control l join training_block b on b.id = l.block_id where b.tenant_id = $1`,
            [tenant],
          )
        : await rows(`select * from ${table} where tenant_id = $1`, [tenant]);
    expect(state.get(table) ?? new Map(), table).toEqual(new Map(stored.map((r) => [id(r), r])));
  }
}
