import { DomainError } from '../errors.js';
import type { SyncConflict } from './sync-state.port.js';
import type { SyncRow } from './version.js';

/** The side a field (or a whole record) of a conflict is taken from. */
export type Side = 'ours' | 'theirs';
export const SIDES: readonly Side[] = ['ours', 'theirs'];

/** How a conflict is settled: a side for every field not named, and a side per named field. */
export interface Choice {
  side?: Side;
  fields?: Record<string, string>;
}

const refuse = (message: string) => new DomainError('validation', message, [{ path: '--field', message }]);

/**
 * The record a choice of fields makes of a conflict's two versions: each named field from its side, every other
 * from `side`. Refused (validation) when either version is a deletion, when a field is not one of the record's,
 * when a side is neither ours nor theirs, and, without `side`, when a field that differs is not named.
 */
export function mergeByField(
  c: Pick<SyncConflict, 'entity' | 'entity_id' | 'ours' | 'theirs' | 'fields'>,
  choice: Choice,
): { row: SyncRow; from: Record<string, Side> } {
  const named = choice.fields ?? {};
  if (c.ours === null || c.theirs === null)
    throw refuse(
      `${c.entity} ${c.entity_id} is deleted ${c.ours === null ? 'here' : 'on the other side'}: a choice per field needs both versions; settle it with --ours or --theirs`,
    );
  const columns = [...new Set([...Object.keys(c.ours), ...Object.keys(c.theirs)])].sort();
  for (const [name, side] of Object.entries(named)) {
    if (!columns.includes(name))
      throw refuse(
        `--field ${name}: ${c.entity} has no field ${name}; the fields that differ: ${c.fields.join(', ') || 'none'}`,
      );
    if (!SIDES.includes(side as Side)) throw refuse(`--field ${name}=${side}: the side is one of ${SIDES.join(', ')}`);
  }
  if (!choice.side) {
    const missing = c.fields.filter((f) => !(f in named));
    if (missing.length)
      throw refuse(
        `without --ours or --theirs every field that differs needs a --field choice; missing: ${missing.join(', ')}`,
      );
  }
  const row: SyncRow = {};
  const from: Record<string, Side> = {};
  for (const k of columns) {
    const side = (named[k] as Side | undefined) ?? choice.side ?? 'ours';
    row[k] = (side === 'ours' ? c.ours : c.theirs)[k] ?? null;
    if (c.fields.includes(k)) from[k] = side;
  }
  return { row, from };
}
