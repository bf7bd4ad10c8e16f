import { timeOf } from './row-rule.js';
import { differingFields, type SyncRow } from './version.js';

/**
 * Columns a store keeps about a record rather than in it (when it last changed): never a field someone chooses in a
 * conflict. A record made of both versions was last changed when the later of them was.
 */
export const BOOKKEEPING: readonly string[] = ['updated_at'];

/** The audit trails of records: their entries follow the changes of records, and are not counted as changes. */
export const TRAIL_TABLES: readonly string[] = ['dsfa_audit', 'consent_history', 'training_audit'];

/** Columns that name the record: the same in both versions of it, never a difference worth showing. */
const IDENTITY: readonly string[] = ['id', 'tenant_id'];

/** Columns kept as JSON text, by table: shown and compared as the values they hold. */
const JSON_FIELDS: Record<string, readonly string[]> = {
  dsfa: [
    'data_categories',
    'recipients',
    'measures',
    'ai_use_case_modules',
    'purposes',
    'data_subjects',
    'risks',
    'measure_details',
  ],
  consent_import_run: ['options'],
  training_quiz_attempt: ['answers'],
  training_audit: ['details'],
  training_canonical_control: ['references'],
};

/** List fields, by table: their two versions may be merged into the union of both (`--field NAME=both`). */
export const LIST_FIELDS: Record<string, readonly string[]> = {
  dsfa: JSON_FIELDS.dsfa!.filter((f) => f !== 'ai_use_case_modules'),
};

/** Whether a table's field is a list whose versions may be merged. */
export const isListField = (entity: string, field: string): boolean =>
  (Object.hasOwn(LIST_FIELDS, entity) ? LIST_FIELDS[entity]! : []).includes(field);

/** A field's value as a person reads it: JSON text as the value it holds, anything else as stored. */
export function fieldValue(entity: string, field: string, stored: unknown): unknown {
  const json = Object.hasOwn(JSON_FIELDS, entity) ? JSON_FIELDS[entity]! : [];
  if (typeof stored !== 'string' || !json.includes(field)) return stored ?? null;
  try {
    return JSON.parse(stored) as unknown;
  } catch {
    return stored;
  }
}

/**
 * The fields of a conflict someone decides: those whose values differ between the two versions, without the
 * bookkeeping columns. Against a deletion, what the surviving version changed since the version both sides agreed
 * on (`base`, when this store knows it), else its content, never the columns that name the record.
 */
export function conflictFields(
  entity: string,
  ours: SyncRow | null,
  theirs: SyncRow | null,
  base?: SyncRow | null,
): string[] {
  const kept = (f: string) => !BOOKKEEPING.includes(f);
  if (ours && theirs) return differingFields(ours, theirs).filter(kept);
  const left = ours ?? theirs;
  if (!left) return [];
  if (base) return differingFields(base, left).filter(kept);
  return Object.keys(left)
    .filter((f) => kept(f) && !IDENTITY.includes(f) && left[f] !== null)
    .sort();
}

/** The union of two versions of a list field, as JSON text: the first's items, then the second's it lacks. */
export function unionOf(entity: string, field: string, a: unknown, b: unknown): string | null {
  if ((a ?? null) === null && (b ?? null) === null) return null;
  const list = (v: unknown): unknown[] => {
    const parsed = fieldValue(entity, field, v);
    return Array.isArray(parsed) ? parsed : [];
  };
  const out = [...list(a)];
  const seen = new Set(out.map((x) => JSON.stringify(x)));
  for (const x of list(b)) {
    const k = JSON.stringify(x);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(x);
  }
  return JSON.stringify(out);
}

/** The later of two stored times (either may be missing). */
export const later = (a: unknown, b: unknown): unknown => {
  if (typeof a !== 'string') return b ?? null;
  if (typeof b !== 'string') return a;
  return timeOf(b) > timeOf(a) ? b : a;
};

/** One contested field of a conflict, side by side: each version's value as a person reads it. */
export interface FieldDifference {
  field: string;
  /** A list field: `--field NAME=both` keeps the items of both. */
  list: boolean;
  ours: unknown;
  theirs: unknown;
}

/** The contested fields of a conflict with each version's value (null where a version is a deletion). */
export const differencesOf = (
  entity: string,
  fields: readonly string[],
  ours: SyncRow | null,
  theirs: SyncRow | null,
): FieldDifference[] =>
  fields
    .filter((f) => !BOOKKEEPING.includes(f))
    .map((field) => ({
      field,
      list: isListField(entity, field),
      ours: ours ? fieldValue(entity, field, ours[field]) : null,
      theirs: theirs ? fieldValue(entity, field, theirs[field]) : null,
    }));

/** Whether two versions of a record hold the same content (both absent, or equal but for their bookkeeping). */
export const sameContent = (entity: string, a: SyncRow | null, b: SyncRow | null): boolean =>
  a === null || b === null ? a === b : conflictFields(entity, a, b).length === 0;
