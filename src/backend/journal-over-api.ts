import type { StoredEntry } from '../domain/journal/chain.js';
import type { JournalEntry } from '../domain/journal/journal.schema.js';
import type { JournalStore } from '../domain/journal/journal-store.port.js';
import type { Backend } from './backend.js';

/** An entry as the API shows it back into its stored form: `data` was written by JSON.stringify, so this is exact. */
const stored = (tenant: string, e: JournalEntry): StoredEntry => ({
  ...e,
  tenant_id: tenant,
  data: e.data === null ? null : JSON.stringify(e.data),
});

/**
 * One tenant's journal read through `GET /journal`, so a client can verify a server's chain itself, trusting
 * nothing but the entries it receives.
 */
export function journalOverApi(backend: Backend, tenant: string, actor?: string): JournalStore {
  const page = async (after: number, limit: number) =>
    (await backend.journal.page({ tenant, actor, query: { after, limit: Math.min(limit, 1000) } })).entries.map((e) =>
      stored(tenant, e),
    );
  async function* all(): AsyncGenerator<StoredEntry> {
    for (let after = 0; ;) {
      const rows = await page(after, 1000);
      yield* rows;
      if (rows.length < 1000) return;
      after = rows[rows.length - 1]!.seq;
    }
  }
  const first = async (match: (e: StoredEntry) => boolean) => {
    for await (const e of all()) if (match(e)) return e.seq;
    return undefined;
  };
  return {
    page: (_t, after, limit) => page(after, limit),
    async head() {
      const a = await backend.journal.anchor({ tenant, actor });
      return a.seq === 0 ? undefined : { seq: a.seq, hash: a.head };
    },
    tenants: async () => [tenant],
    lookup: () => ({
      seqOfHash: (h) => first((e) => e.hash === h),
      seqLinkingTo: (h) => first((e) => e.prev_hash === h),
    }),
  };
}
