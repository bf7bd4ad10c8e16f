import { DomainError } from '../errors.js';
import { BOOKKEEPING, isListField, LIST_FIELDS, later, unionOf } from './conflict-fields.js';
import type { SyncConflict } from './sync-state.port.js';
import type { SyncRow } from './version.js';

/** The side a field (or a whole record) of a conflict is taken from. */
export type Side = 'ours' | 'theirs';
export const SIDES: readonly Side[] = ['ours', 'theirs'];
/** Where one field is taken from: a side, or, for a list field, both (the union of its items). */
export type FieldSource = Side | 'both';

/** How a conflict is settled: a side for every field not named, and a side per named field. */
export interface Choice {
  side?: Side;
  fields?: Record<string, string>;
}

const refuse = (message: string) => new DomainError('validation', message, [{ path: '--field', message }]);

/** The list fields of a table, for a message. */
const listsOf = (entity: string) =>
  Object.hasOwn(LIST_FIELDS, entity) ? LIST_FIELDS[entity]!.join(', ') : `none of ${entity}`;

/**
 * The record a choice of fields makes of a conflict's two versions: each named field from its side (a list field
 * named `both`: the union of both versions' items), every other from `side`; bookkeeping columns (updated_at) are
 * nobody's choice and take the later of both. Refused (validation) when either version is a deletion, when a field
 * is not one of the record's, when a side is not ours, theirs or (for a list field) both, and, without `side`, when
 * a field that differs is not named.
 */
export function mergeByField(
  c: Pick<SyncConflict, 'entity' | 'entity_id' | 'ours' | 'theirs' | 'fields'>,
  choice: Choice,
): { row: SyncRow; from: Record<string, FieldSource> } {
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
    if (BOOKKEEPING.includes(name))
      throw refuse(`--field ${name}: ${name} is bookkeeping, not a field to choose (a merge takes the later)`);
    if (side === 'both' && !isListField(c.entity, name))
      throw refuse(
        `--field ${name}=both: only a list field merges both sides (of ${c.entity}: ${listsOf(c.entity)}); the side is one of ${SIDES.join(', ')}`,
      );
    if (side !== 'both' && !SIDES.includes(side as Side))
      throw refuse(
        `--field ${name}=${side}: the side is one of ${SIDES.join(', ')}${isListField(c.entity, name) ? ', both' : ''}`,
      );
  }
  // a conflict stored by an older release may list updated_at: never a field to choose
  const contested = c.fields.filter((f) => !BOOKKEEPING.includes(f));
  if (!choice.side) {
    const missing = contested.filter((f) => !(f in named));
    if (missing.length)
      throw refuse(
        `without --ours or --theirs every field that differs needs a --field choice; missing: ${missing.join(', ')}`,
      );
  }
  const from: Record<string, FieldSource> = {};
  for (const k of contested) from[k] = (named[k] as FieldSource | undefined) ?? choice.side ?? 'ours';
  // every contested field from one side: that side's version whole, its bookkeeping too
  const sources = new Set(Object.values(from));
  const whole = sources.size <= 1 && !sources.has('both') ? ([...sources][0] ?? choice.side ?? 'ours') : undefined;
  const row: SyncRow = {};
  for (const k of columns) {
    const side = (named[k] as FieldSource | undefined) ?? choice.side ?? 'ours';
    if (BOOKKEEPING.includes(k) && !whole) row[k] = later(c.ours[k], c.theirs[k]);
    else if (BOOKKEEPING.includes(k)) row[k] = (whole === 'ours' ? c.ours : c.theirs)[k] ?? null;
    else if (side === 'both') row[k] = unionOf(c.entity, k, c.ours[k], c.theirs[k]);
    else row[k] = (side === 'ours' ? c.ours : c.theirs)[k] ?? null;
  }
  return { row, from };
}
