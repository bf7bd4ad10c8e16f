import { DomainError } from '../errors.js';
import { MIN_ID_PART, shortId } from '../short-id.js';
import type { SyncConflict } from './sync-state.port.js';

/**
 * How commands name a conflict: its id, or the id of its record (a DSFA, a consent), whole or by its start or end
 * of 8 characters or more (the short ids commands show), as other commands take ids.
 */
export const conflictRef = (ref: string): { whole: string; part?: string } => ({
  whole: ref,
  part: ref.length >= MIN_ID_PART ? ref.toLowerCase() : undefined,
});

/** Whether a conflict is the one `ref` names (see conflictRef). */
export function names(c: Pick<SyncConflict, 'id' | 'entity_id'>, ref: string): boolean {
  const { whole, part } = conflictRef(ref);
  return [c.id, c.entity_id].some(
    (id) =>
      id === whole || (part !== undefined && (id.toLowerCase().startsWith(part) || id.toLowerCase().endsWith(part))),
  );
}

/**
 * The one unsettled conflict among `found` that `ref` names: not found when none is, and a usage error listing the
 * candidates (conflict, record) when several are.
 */
export function pickConflict(ref: string, found: SyncConflict[]): SyncConflict {
  const exact = found.filter((c) => c.id === ref);
  const fits = exact.length ? exact : found.filter((c) => names(c, ref));
  if (fits.length === 1) return fits[0]!;
  if (!fits.length)
    throw new DomainError(
      'not_found',
      `conflict ${ref} not found: no open conflict has that id, nor a record of that id (sync status lists them)`,
    );
  const shown = fits.slice(0, 10).map((c) => `${shortId(c.id)} (${c.entity} ${shortId(c.entity_id)})`);
  throw new DomainError(
    'bad_request',
    `conflict ${ref} is ambiguous: it fits ${shown.join(', ')}${fits.length > shown.length ? ', …' : ''}; give more of the id`,
    fits.slice(0, 10).map((c) => ({ path: 'id', message: `candidate ${c.id} (${c.entity} ${c.entity_id})` })),
  );
}
