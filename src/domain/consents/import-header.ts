import { DomainError } from '../errors.js';
import { CONSENT_FIELDS, REQUIRED_IMPORT_FIELDS } from './consent.schema.js';

const isField = (h: string) => (CONSENT_FIELDS as readonly string[]).includes(h);

/**
 * The consent field each column of a CSV header row feeds (undefined: a column the import ignores). Refuses, before
 * any row is read, a header a person has to fix: the same name twice, two columns for one field, a `map` entry for a
 * column the file does not have, a required field without a column.
 */
export function resolveHeader(row: string[], map: Map<string, string>): Array<string | undefined> {
  const names = row.map((h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h).trim().toLowerCase());
  const shown = names.join(', ');
  const seen = new Map<string, number>();
  names.forEach((n, i) => {
    if (!n) return;
    const first = seen.get(n);
    if (first !== undefined)
      throw new DomainError(
        'bad_request',
        `the header row names column "${n}" twice (columns ${first + 1} and ${i + 1}): rename one of them`,
        [{ path: n, message: 'duplicate column name' }],
      );
    seen.set(n, i);
  });
  const unknown = [...map.keys()].filter((col) => !seen.has(col));
  if (unknown.length)
    throw new DomainError(
      'bad_request',
      `the file has no column ${unknown.map((c) => `"${c}"`).join(', ')} to map (map ${unknown.map((c) => `${c}=${map.get(c)}`).join(', ')}); its columns are: ${shown}`,
      unknown.map((c) => ({ path: 'map', message: `no column "${c}" in the header row` })),
    );
  const fields = names.map((h) => map.get(h) ?? (isField(h) ? h : undefined));
  fields.forEach((f, i) => {
    const j = f ? fields.indexOf(f) : i;
    if (j !== i)
      throw new DomainError(
        'bad_request',
        `columns "${names[j]}" and "${names[i]}" both give ${f}: map only one of them`,
        [{ path: f!, message: 'two columns for one field' }],
      );
  });
  const missing = REQUIRED_IMPORT_FIELDS.filter((f) => !fields.includes(f));
  if (missing.length) {
    const hint = names.length === 1 && /[;,\t|]/.test(names[0]!) ? ' (is the delimiter right? see --delimiter)' : '';
    throw new DomainError(
      'bad_request',
      `missing required column(s) ${missing.join(', ')} in the header row; found: ${shown}${hint}; map other names with --map column=field`,
      missing.map((m) => ({ path: m, message: 'required column' })),
    );
  }
  return fields;
}
