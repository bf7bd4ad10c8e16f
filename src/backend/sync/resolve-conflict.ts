import { isoZ, type Clock } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import { mergeByField, type Choice, type Side } from '../../domain/sync/field-merge.js';
import { BUNDLE_SIDES, mergeBreaks, ruleField, SERVER_SIDES } from '../../domain/sync/merge-rules.js';
import type { SyncConflict } from '../../domain/sync/sync-state.port.js';
import { refusedChanges } from '../../domain/sync/record-door.js';
import { versionOf, type SyncRow } from '../../domain/sync/version.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';
import { forRequest } from '../../store/tenant-scope.js';
import { osPrincipal } from '../local/os-principal.js';

const other = (side: Side): Side => (side === 'ours' ? 'theirs' : 'ours');

/**
 * Settles a conflict. `ours` keeps this store's version and pushes it at the next sync; `theirs` writes the other
 * side's version here now; a choice per field that takes from both writes the record it makes here as a change of
 * this store (journaled and chained like any, and pushed at the next sync over the version of the other side it was
 * made from). Refused (conflict) when the result would break a rule of the record against either version
 * (`mergeBreaks`: a revoked consent, an escalation level) or a rule across the tenant's records (`broken`).
 */
export async function resolveConflict(
  uow: UnitOfWork,
  clock: Clock,
  tenant: string,
  id: string,
  choice: Choice,
  actor?: string,
): Promise<SyncConflict> {
  const c = await uow.read.syncState.conflict(tenant, id);
  if (!c || c.status === 'resolved') throw new DomainError('not_found', `conflict ${id} not found`);
  const bundle = c.remote.startsWith('bundle:');
  let side = choice.side;
  let merged: { row: SyncRow; resolution: `fields:${string}` } | undefined;
  if (choice.fields && Object.keys(choice.fields).length) {
    const { row, from } = mergeByField(c, choice);
    // a choice that makes one side's version is that side's
    if (versionOf(row) === versionOf(c.theirs)) side = 'theirs';
    else if (versionOf(row) === versionOf(c.ours)) side = 'ours';
    else {
      side = undefined;
      const sources = Object.entries(from).map(([k, s]) => `${k}=${s}`);
      merged = { row, resolution: `fields:${sources.join(',')}` };
    }
  }
  if (!side && !merged)
    throw new DomainError('validation', 'say which version wins: --ours, --theirs or a --field choice per field', [
      { path: '--ours', message: 'one of --ours, --theirs, --field NAME=ours|theirs' },
    ]);
  const result = merged ? merged.row : side === 'ours' ? c.ours : c.theirs;
  const taking = merged ? 'write this choice of fields' : side === 'ours' ? 'keep this version' : 'take their version';
  const rule = mergeBreaks(c.entity, result, c.ours, c.theirs, bundle ? BUNDLE_SIDES : SERVER_SIDES);
  if (rule) {
    const field = ruleField(c.entity);
    const hint =
      side && field ? `; choose per field instead: sync resolve ${c.id} --${side} --field ${field}=${other(side)}` : '';
    throw new DomainError('conflict', `cannot ${taking}: ${rule}${hint}`);
  }

  const run = () =>
    uow.write(tenant, async (tx) => {
      // what is written here passes the same door as any record a sync or a bundle brings: the rules of its table
      if (side !== 'ours') {
        const before = await tx.replica.read(tenant, c.entity, c.entity_id, c.ours ?? result);
        const refused = await refusedChanges(tx.replica, tenant, clock.now(), [
          { entity: c.entity, id: c.entity_id, before, after: result },
        ]);
        const rule =
          refused.values().next().value ?? (result && (await tx.replica.broken(tenant, c.entity, c.entity_id, result)));
        if (rule) throw new DomainError('conflict', `cannot ${taking}: ${rule}`);
      }
      const now = isoZ(clock.now());
      if (side === 'theirs') {
        await tx.replica.apply(tenant, c.entity, c.entity_id, c.theirs);
        await tx.syncState.setBase(c.remote, tenant, c.entity, c.entity_id, c.theirs_version);
        const next: SyncConflict = { ...c, status: 'resolved', resolution: 'theirs', resolved_at: now };
        await tx.syncState.putConflict(next);
        return next;
      }
      if (merged) await tx.replica.apply(tenant, c.entity, c.entity_id, merged.row);
      // a bundle's conflict is settled here for good; a server's waits for the next sync to push this version (over
      // theirs_version, the server's version it was decided against)
      const next: SyncConflict = {
        ...c,
        status: bundle ? 'resolved' : 'ours',
        resolution: merged ? merged.resolution : 'ours',
        resolved_at: now,
      };
      await tx.syncState.putConflict(next);
      return next;
    });
  // taking the other side's version is a write of the sync (not pushed back); a choice of fields is a change of this
  // store, pushed at the next sync
  return side === 'theirs'
    ? forRequest({ tenant, actor: actor ?? 'system', principal: `sync:${c.remote}` }, run)
    : forRequest({ tenant, actor: actor ?? 'system', principal: osPrincipal() }, run);
}
