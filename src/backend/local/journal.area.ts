import { bindHandlers } from '../../contract/bind.js';
import { journalContract } from '../../contract/journal.contract.js';
import type { JournalStore } from '../../domain/journal/journal-store.port.js';
import { JournalService } from '../../domain/journal/journal.service.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';

/** The journal routes: a tenant reads its own chain (row-level security applies on PostgreSQL). */
export function createJournalArea(uow: UnitOfWork) {
  const svc = new JournalService(uow.read.journal);
  return bindHandlers(journalContract, {
    page: (r) => svc.page(r.tenant, r.query),
    anchor: (r) => svc.anchor(r.tenant),
  });
}

/** The journal of every tenant, read as the store's owner (`everyTenant`): `audit verify` across tenants, `db status`. */
export const createAuditor = (everyTenant: JournalStore): JournalService => new JournalService(everyTenant);
