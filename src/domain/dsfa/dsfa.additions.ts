import { DSFA_ADDITIONS, type Dsfa } from './dsfa.schema.js';

const saysNothing = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** An item without its optional note when the note is empty, so an empty text is absent here too. */
function withoutEmptyNote<T extends { description?: string }>(item: T): T {
  if (item.description !== '') return item;
  const { description: _d, ...rest } = item;
  return rest as T;
}

/**
 * Settles the optional fields (our additions) of a record about to be written: an empty text or list unsets its field,
 * so it is absent from responses; `measure_details` stays in step with `measures`. When the request named details
 * (`detailsGiven`), a measure they name that `measures` lacks is appended to it; otherwise details of measures no
 * longer listed are dropped (a client of the specification that edits `measures` alone leaves no stale state behind).
 */
export function settleAdditions(record: Dsfa, detailsGiven: boolean): Dsfa {
  const next = { ...record } as Dsfa & Record<string, unknown>;
  if (next.risks) next.risks = next.risks.map(withoutEmptyNote);
  if (next.measure_details) {
    const details = next.measure_details.map(withoutEmptyNote);
    if (detailsGiven) {
      const missing = details.map((m) => m.measure).filter((m) => !next.measures.includes(m));
      if (missing.length) next.measures = [...next.measures, ...missing];
      next.measure_details = details;
    } else next.measure_details = details.filter((m) => next.measures.includes(m.measure));
  }
  for (const key of DSFA_ADDITIONS) if (saysNothing(next[key])) delete next[key];
  return next;
}
