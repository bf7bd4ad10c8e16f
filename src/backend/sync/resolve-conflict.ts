import { isoZ, type Clock, type IdSource } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import { pickConflict } from '../../domain/sync/conflict-ref.js';
import { mergeByField, SIDES, type Choice, type FieldSource, type Side } from '../../domain/sync/field-merge.js';
import {
  BUNDLE_SIDES,
  historyKept,
  mergeBreaks,
  revokedBeforeRenewal,
  ruleField,
  SERVER_SIDES,
} from '../../domain/sync/merge-rules.js';
import { resolutionTrail } from '../../domain/sync/resolution-audit.js';
import type { SyncConflict } from '../../domain/sync/sync-state.port.js';
import { refusedChanges } from '../../domain/sync/record-door.js';
import { versionOf, type SyncRow } from '../../domain/sync/version.js';
import type { UnitOfWork } from '../../domain/unit-of-work.js';
import { forRequest } from '../../store/tenant-scope.js';
import { osPrincipal } from '../local/os-principal.js';

const other = (side: Side): Side => (side === 'ours' ? 'theirs' : 'ours');

/** Each contested field taken from one side. */
const allFrom = (c: SyncConflict, side: Side): Record<string, FieldSource> =>
  Object.fromEntries(c.fields.map((f) => [f, side]));

/**
 * The server's history of a consent as this store knows it: the entries it holds (agreed, or its own) and those
 * its open conflicts hold from the server.
 */
async function serverHistory(uow: UnitOfWork, tenant: string, c: SyncConflict): Promise<SyncRow[]> {
  const held = await uow.read.replica.rowsWhere(tenant, 'consent_history', 'consent_id', [c.entity_id]);
  const open = (await uow.read.syncState.conflicts(tenant, c.remote))
    .filter((o) => o.entity === 'consent_history' && o.theirs?.consent_id === c.entity_id)
    .map((o) => o.theirs!);
  return [...held, ...open];
}

/**
 * Settles a conflict, named by its id or its record's (whole, or by its start or end: pickConflict). `ours` keeps
 * this store's version and pushes it at the next sync; `theirs` writes the other side's version here now; a choice
 * per field that takes from both writes the record it makes here. Each is a change by the one who resolves: written
 * with the audit entry its record's trail takes (resolutionTrail) in one transaction, journaled and chained like
 * any command's; what this store now holds and the server lacks (the entry, a record made of both) is pushed at the
 * next sync, a version taken from the server is agreed as the server's. Refused (conflict) when the result would
 * break a rule of the record against either version (`mergeBreaks`: a revoked consent, an escalation level) or a
 * rule of its table or across the tenant's records (the door every synced record passes).
 */
export async function resolveConflict(
  uow: UnitOfWork,
  clock: Clock,
  ids: IdSource,
  tenant: string,
  ref: string,
  choice: Choice,
  actor?: string,
): Promise<SyncConflict> {
  const c = pickConflict(ref, await uow.read.syncState.findConflicts(tenant, ref));
  const bundle = c.remote.startsWith('bundle:');
  let side = choice.side;
  let from: Record<string, FieldSource> = side ? allFrom(c, side) : {};
  let merged: { row: SyncRow; resolution: `fields:${string}` } | undefined;
  if (choice.fields && Object.keys(choice.fields).length) {
    const made = mergeByField(c, choice);
    from = made.from;
    // a choice that makes one side's version is that side's
    if (versionOf(made.row) === versionOf(c.theirs)) side = 'theirs';
    else if (versionOf(made.row) === versionOf(c.ours)) side = 'ours';
    else {
      side = undefined;
      const sources = Object.entries(from).map(([k, s]) => `${k}=${s}`);
      merged = { row: made.row, resolution: `fields:${sources.join(',')}` };
    }
  }
  if (!side && !merged)
    throw new DomainError('validation', 'say which version wins: --ours, --theirs or a --field choice per field', [
      { path: '--ours', message: 'one of --ours, --theirs, --field NAME=ours|theirs' },
    ]);
  const result = merged ? merged.row : side === 'ours' ? c.ours : c.theirs;
  const taking = merged ? 'write this choice of fields' : side === 'ours' ? 'keep this version' : 'take their version';
  const sides = bundle ? BUNDLE_SIDES : SERVER_SIDES;
  // a server takes what is settled here at the next sync: it must hold there too (a bundle takes nothing back)
  const history = !bundle && c.entity === 'consent' ? await serverHistory(uow, tenant, c) : [];
  // what this store's door refuses of a version written here (the rules of its table and across its records)
  const doorRefuses = async (row: SyncRow | null): Promise<string | null> => {
    const change = { entity: c.entity, id: c.entity_id, before: c.ours, after: row };
    const refused = await refusedChanges(uow.read.replica, tenant, clock.now(), [change]);
    return refused.values().next().value ?? null;
  };
  // what a choice breaks: a rule of the record against either version, a rule the server keeps, and, for a
  // version written here (not one kept), the door of this store
  const breaks = async (row: SyncRow | null, kept: boolean): Promise<string | null> =>
    mergeBreaks(c.entity, row, c.ours, c.theirs, sides) ??
    revokedBeforeRenewal(c.entity, row, c.theirs, history, sides) ??
    (bundle ? null : historyKept(c.entity, c.entity_id, row, c.theirs, sides)) ??
    (kept ? null : await doorRefuses(row));
  const rule = await breaks(result, side === 'ours');
  if (rule) {
    const field = ruleField(c.entity);
    // the choices of versions that keep the rules on both sides
    const choices: Array<[string, Choice]> = [
      ['--ours', { side: 'ours' }],
      ['--theirs', { side: 'theirs' }],
      ...(field && c.ours && c.theirs
        ? SIDES.map((s): [string, Choice] => [
            `--${s} --field ${field}=${other(s)}`,
            { side: s, fields: { [field]: other(s) } },
          ])
        : []),
    ];
    const remain: string[] = [];
    for (const [flags, ch] of choices) {
      const row = ch.fields ? mergeByField(c, ch).row : ch.side === 'ours' ? c.ours : c.theirs;
      if (!(await breaks(row, !ch.fields && ch.side === 'ours'))) remain.push(`sync resolve ${c.id} ${flags}`);
    }
    const perField =
      side && field ? remain.find((r) => r.endsWith(`--${side} --field ${field}=${other(side)}`)) : undefined;
    const hint = perField
      ? `; choose per field instead: ${perField}`
      : remain.length
        ? `; the choices that remain: ${remain.join(', ')}`
        : '; no choice of versions holds on both sides, so the conflict stays open';
    throw new DomainError('conflict', `cannot ${taking}: ${rule}${hint}`);
  }
  const who = actor ?? 'system';
  const at = clock.now();
  const { entity, entity_id, ours, theirs } = c;
  const trail = resolutionTrail({ tenant, entity, entity_id, actor: who, at, ours, theirs, result, from }, ids);

  const run = () =>
    uow.write(tenant, async (tx) => {
      // what is written here passes the same door as any record a sync or a bundle brings: the rules of its table
      const before = await tx.replica.read(tenant, c.entity, c.entity_id, c.ours ?? result);
      const changes = [
        ...(side === 'ours' ? [] : [{ entity: c.entity, id: c.entity_id, before, after: result }]),
        ...trail.map((t) => ({ entity: t.entity, id: t.id, before: null, after: t.row })),
      ];
      const refused = await refusedChanges(tx.replica, tenant, clock.now(), changes);
      const broken =
        refused.values().next().value ??
        (side !== 'ours' && result && (await tx.replica.broken(tenant, c.entity, c.entity_id, result)));
      if (broken) throw new DomainError('conflict', `cannot ${taking}: ${broken}`);
      const now = isoZ(clock.now());
      if (side !== 'ours') await tx.replica.apply(tenant, c.entity, c.entity_id, result);
      for (const t of trail) await tx.replica.apply(tenant, t.entity, t.id, t.row);
      if (side === 'theirs') {
        // the server's version, agreed: not pushed back
        await tx.syncState.setBase(c.remote, tenant, c.entity, c.entity_id, c.theirs_version);
        const next: SyncConflict = { ...c, status: 'resolved', resolution: 'theirs', resolved_at: now };
        await tx.syncState.putConflict(next);
        return next;
      }
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
  // a resolution is a change of this store by whoever resolves it (pushed at the next sync where the server lacks
  // it); a bundle's version taken stays the bundle's write, as its import's
  const principal = bundle && side === 'theirs' ? `sync:${c.remote}` : osPrincipal();
  return forRequest({ tenant, actor: who, principal }, run);
}
