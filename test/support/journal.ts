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
