import { isoLocal, type IdSource } from '../clock.js';
import { BOOKKEEPING, fieldValue } from './conflict-fields.js';
import type { FieldSource } from './field-merge.js';
import type { SyncRow } from './version.js';

/** A row a resolution adds to a record's audit trail: its table, its journal id and the row as stored. */
export interface TrailEntry {
  entity: string;
  id: string;
  row: SyncRow;
}

/** What a conflict's resolution did to its record, as its audit trail records it. */
export interface Resolution {
  tenant: string;
  entity: string;
  entity_id: string;
  /** Who resolved it. */
  actor: string;
  at: Date;
  ours: SyncRow | null;
  theirs: SyncRow | null;
  /** The record as resolved (null: deleted). */
  result: SyncRow | null;
  /** Where each contested field was taken from. */
  from: Record<string, FieldSource>;
}

const IDENTITY = new Set(['id', 'tenant_id']);

/** A version's content as an audit entry records it: its fields' values, without the columns naming the record. */
function contentOf(entity: string, row: SyncRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (!IDENTITY.has(k)) out[k] = fieldValue(entity, k, v);
  return out;
}

/**
 * The entries a resolution adds to its record's audit trail, written with it in one transaction, as the service's
 * edit would (so its events follow too): the resolution is a change by the one who resolves. A DSFA gets one entry:
 * DELETE when the resolution keeps a deletion (the record is gone, whichever side deleted it); UPDATE with each
 * contested field's value on the side not taken (old; this store's where both were merged) and the value now
 * (new) when it keeps a version, also one restored over the other side's deletion. Tables without an audit trail of
 * their own get none: their changes are their own history.
 */
export function resolutionTrail(r: Resolution, ids: IdSource): TrailEntry[] {
  if (r.entity !== 'dsfa') return [];
  const kept = r.result ?? r.ours ?? r.theirs;
  if (!kept) return [];
  const changed_at = isoLocal(r.at);
  let action: 'UPDATE' | 'DELETE';
  let old_values: Record<string, unknown> = {};
  let new_values: Record<string, unknown> = {};
  if (r.result === null) {
    action = 'DELETE';
    old_values = contentOf(r.entity, (r.ours ?? r.theirs)!);
  } else if (r.ours === null || r.theirs === null) {
    action = 'UPDATE';
    new_values = contentOf(r.entity, r.result);
  } else {
    action = 'UPDATE';
    for (const [field, side] of Object.entries(r.from)) {
      if (BOOKKEEPING.includes(field)) continue;
      const other = side === 'ours' ? r.theirs : r.ours;
      old_values[field] = fieldValue(r.entity, field, other[field]);
      new_values[field] = fieldValue(r.entity, field, r.result[field]);
    }
  }
  const id = ids.next();
  return [
    {
      entity: 'dsfa_audit',
      id,
      row: {
        id,
        tenant_id: r.tenant,
        dsfa_id: r.entity_id,
        action,
        changed_by: r.actor,
        old_values: JSON.stringify(old_values),
        new_values: JSON.stringify(new_values),
        created_at: changed_at,
      },
    },
  ];
}
