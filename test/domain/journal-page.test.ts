import { describe, expect, it } from 'vitest';
import type { StoredEntry } from '../../src/domain/journal/chain.js';
import { JournalService, PAGE_BYTES } from '../../src/domain/journal/journal.service.js';
import type { JournalStore } from '../../src/domain/journal/journal-store.port.js';

// A page of the journal holds up to `limit` entries, fewer once their data passes PAGE_BYTES (an import's batch entry
// is megabytes): the client continues at next_after. The store is asked for few entries past the cut.
const entry = (seq: number, size: number): StoredEntry =>
  ({
    seq,
    txn: `t${seq}`,
    time: '2026-11-26T10:00:00.000Z',
    actor: 'sam',
    principal: 'os:sam',
    entity: 'consent_import_run',
    entity_id: `r${seq}`,
    op: 'update',
    data: JSON.stringify({ pad: 'x'.repeat(size) }),
    data_hash: '',
    prev_hash: '',
    hash: '',
  }) as StoredEntry;

function storeOf(entries: StoredEntry[]) {
  const asked: number[] = [];
  const store = {
    page: async (_t: string, after: number, limit: number) => {
      asked.push(limit);
      return entries.filter((e) => e.seq > after).slice(0, limit);
    },
    head: async () => ({ seq: entries.length, hash: '' }),
  } as unknown as JournalStore;
  return { store, asked, read: () => asked.reduce((a, b) => a + b, 0) };
}

describe('a page of the journal', () => {
  it('stops after the entry that takes its data past PAGE_BYTES, and says where to go on', async () => {
    const entries = Array.from({ length: 50 }, (_, i) => entry(i + 1, PAGE_BYTES / 4));
    const s = storeOf(entries);
    const page = await new JournalService(s.store).page('t', { after: 0, limit: 1000 });
    expect(page.entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(page.next_after).toBe(4);
    // the runs grow 1, 2, 4, …: at most twice what the page holds is read
    expect(s.read()).toBeLessThanOrEqual(8);
    const rest = await new JournalService(s.store).page('t', { after: page.next_after!, limit: 1000 });
    expect(rest.entries[0]!.seq).toBe(5);
  });

  it('holds one entry larger than PAGE_BYTES alone', async () => {
    const s = storeOf([entry(1, PAGE_BYTES * 2), entry(2, 10)]);
    const page = await new JournalService(s.store).page('t', { after: 0, limit: 1000 });
    expect(page.entries.map((e) => e.seq)).toEqual([1]);
    expect(page.next_after).toBe(1);
  });

  it('holds `limit` small entries, and reaches the head without a next page', async () => {
    const entries = Array.from({ length: 1500 }, (_, i) => entry(i + 1, 100));
    const s = storeOf(entries);
    const page = await new JournalService(s.store).page('t', { after: 0, limit: 1000 });
    expect(page.entries).toHaveLength(1000);
    expect(page.next_after).toBe(1000);
    expect(s.asked.length).toBeLessThanOrEqual(11);
    const last = await new JournalService(s.store).page('t', { after: 1000, limit: 1000 });
    expect(last.entries).toHaveLength(500);
    expect(last.next_after).toBeNull();
  });
});
