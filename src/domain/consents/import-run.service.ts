import { isoZ, type Clock } from '../clock.js';
import { conflict, notFound, type ErrorDetail } from '../errors.js';
import type { ChangedRenewal, ImportRunStore, LaterEntry, MovedRevocation } from './import-run-store.port.js';
import type { UnitOfWork } from '../unit-of-work.js';
import type { ImportRevert, ImportRun, ImportRunQuery } from './import-run.schema.js';

/** How many of the records that block a revert the refusal lists. */
export const LISTED_BLOCKERS = 100;

const who = (e: { user_id: string | null; data_point_id: string | null }) =>
  e.user_id === null ? '' : ` (${e.user_id}, ${e.data_point_id})`;

/** Why a consent the run created may not be removed: what was done to it since. */
const laterDetail = (e: LaterEntry): ErrorDetail => ({
  path: e.consent_id,
  message: `consent${who(e)} ${e.action === 'version_update' ? 'renewed with a new version' : e.action} at ${e.created_at} ${
    e.import_run_id ? `by import run ${e.import_run_id} (revert that run first)` : 'by a request'
  }`,
});

/** Why a revocation by the run may not be undone. */
const movedDetail = (m: MovedRevocation): ErrorDetail => ({
  path: m.consent_id,
  message:
    m.user_id === null
      ? `consent revoked by this run at ${m.revoked_by_run_at} no longer exists`
      : `consent${who(m)} revoked by this run at ${m.revoked_by_run_at} now says ${m.revoked_at === null ? 'active' : `revoked at ${m.revoked_at}`}`,
});

/** Why a renewal by the run may not be undone. */
const renewalDetail = (r: ChangedRenewal): ErrorDetail => ({
  path: r.consent_id,
  message:
    r.user_id === null
      ? `consent renewed by this run at ${r.renewed_by_run_at} no longer exists`
      : `consent${who(r)} renewed by this run at ${r.renewed_by_run_at} was ${r.action === 'version_update' ? 'renewed with a new version' : r.action} at ${r.created_at} ${
          r.import_run_id ? `by import run ${r.import_run_id} (revert that run first)` : 'by a request'
        }`,
});

/** Bulk import runs of consents: listed newest first, and reverted as a whole or not at all. */
export class ImportRunService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  private get store(): ImportRunStore {
    return this.uow.read.consentImports;
  }

  async list(
    tenant: string,
    q: ImportRunQuery,
  ): Promise<{ total: number; offset: number; limit: number; runs: ImportRun[] }> {
    const { total, rows } = await this.store.list(tenant, q);
    return { total, offset: q.offset, limit: q.limit, runs: rows };
  }

  async get(tenant: string, id: string): Promise<ImportRun> {
    const run = await this.store.get(tenant, id);
    if (!run) throw notFound('import run', id);
    return run;
  }

  /**
   * Removes the consents the run created, makes the consents it revoked active again and gives those it renewed their
   * version from before, in one transaction. Refused (409, listing them) when any of them changed since: a consent it
   * created was renewed or revoked (by a request or another run), a consent it revoked is gone or revoked at another
   * time, a consent it renewed is gone or has a later entry. A run that is still writing is stopped:
   * its next batch finds it reverted and writes nothing.
   */
  revert(tenant: string, actor: string, id: string): Promise<ImportRevert> {
    return this.uow.write(tenant, async ({ consentImports: s }) => {
      const run = await s.get(tenant, id);
      if (!run) throw notFound('import run', id);
      if (run.status === 'reverted')
        throw conflict(`import run ${id} was already reverted at ${run.reverted_at} by ${run.reverted_by}`);
      const later = await s.laterEntries(tenant, id, LISTED_BLOCKERS + 1);
      const moved = await s.movedRevocations(tenant, id, LISTED_BLOCKERS + 1);
      const renewed = await s.changedRenewals(tenant, id, LISTED_BLOCKERS + 1);
      const details = [...later.map(laterDetail), ...moved.map(movedDetail), ...renewed.map(renewalDetail)];
      if (details.length === 1)
        throw conflict(
          `import run ${id} cannot be reverted: ${details[0]!.message.replace(/^consent/, `consent ${details[0]!.path}`)}; nothing was reverted`,
          details,
        );
      if (details.length) {
        const many = [later, moved, renewed].some((l) => l.length > LISTED_BLOCKERS);
        throw conflict(
          `import run ${id} cannot be reverted: ${many ? 'more than ' + LISTED_BLOCKERS : details.length} of its records changed since it ran${
            many ? ` (the first ${LISTED_BLOCKERS} are listed)` : ''
          }; nothing was reverted`,
          details.slice(0, LISTED_BLOCKERS),
        );
      }
      const consents_removed = await s.removeCreated(tenant, id);
      const revocations_undone = await s.undoRevocations(tenant, id);
      const renewals_undone = await s.undoRenewals(tenant, id);
      const reverted: ImportRun = {
        ...run,
        status: 'reverted',
        reverted_at: isoZ(this.clock.now()),
        reverted_by: actor,
      };
      await s.update(reverted);
      return { run: reverted, consents_removed, revocations_undone, renewals_undone };
    });
  }
}
