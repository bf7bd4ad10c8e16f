import { bindHandlers } from '../../contract/bind.js';
import { journalContract } from '../../contract/journal.contract.js';
import { JournalService } from '../../domain/journal/journal.service.js';
import { KyselyJournalStore } from '../../store/journal/journal.store.js';
import type { Store } from '../../store/store.js';

/** The journal routes: a tenant reads its own chain (row-level security applies on PostgreSQL). */
export function createJournalArea(store: Store) {
  const svc = new JournalService(new KyselyJournalStore(store.db));
  return bindHandlers(journalContract, {
    page: (r) => svc.page(r.tenant, r.query),
    anchor: (r) => svc.anchor(r.tenant),
  });
}

/** The journal of every tenant, read as the store's owner: `audit verify` across tenants, `db status`. */
export const createAuditor = (store: Store): JournalService =>
  new JournalService(new KyselyJournalStore(store.admin, store.journalVerifyPage?.bind(store)));
