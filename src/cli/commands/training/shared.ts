import { guardedCell, opensFormula } from '../../../domain/spreadsheet-cells.js';
import type { CliContext } from '../../context.js';
import type { Backend } from '../../../backend/backend.js';
import { DomainError } from '../../../domain/errors.js';
import { MIN_ID_PART } from '../../../domain/short-id.js';

/**
 * A point in time from the command line: a date (2026-12-01) or an ISO timestamp with a zone. A date means the start
 * of that day in UTC, or its last second with `endOfDay` (a deadline given as a day lasts the whole day).
 */
export function parseWhen(v: string, flag: string, path: string, { endOfDay = false } = {}): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(v);
  const iso = day ? `${v}T${endOfDay ? '23:59:59' : '00:00:00'}Z` : v;
  const ms = Date.parse(iso);
  const sameDay = !day || new Date(ms).toISOString().slice(0, 10) === v; // 2027-02-30 is not a day
  if (Number.isNaN(ms) || !sameDay || !/[zZ]|[+-]\d\d:?\d\d$/.test(iso))
    throw new DomainError('validation', `${flag} ${v}: expected a date (2026-12-01) or an ISO timestamp with a zone`, [
      { path, message: 'invalid date' },
    ]);
  return new Date(ms).toISOString();
}

/** `--as-of`: a point in time (parseWhen), or none. */
export const asOf = (v: string | undefined) => (v === undefined ? undefined : parseWhen(v, '--as-of', 'as_of'));

export const req = (ctx: CliContext) => ({ tenant: ctx.config().tenant, actor: ctx.config().user });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Commands take a module id, its short form, or its module_code (a code wins over a short id that reads alike). */
export async function moduleId(ctx: CliContext, b: Backend, idOrCode: string): Promise<string> {
  if (UUID.test(idOrCode)) return idOrCode;
  const all = await b.training.listModules(req(ctx));
  const m = all.find((x) => x.module_code.toLowerCase() === idOrCode.toLowerCase());
  if (m) return m.id;
  // the store resolves a short id where the id is used
  if (idOrCode.length >= MIN_ID_PART && /^[0-9a-f-]+$/i.test(idOrCode)) return idOrCode;
  throw new DomainError('not_found', `training module ${idOrCode} not found (neither an id nor a module_code)`);
}

/**
 * A CSV cell, quoted when needed; one a spreadsheet would run as a formula gets a ' in front and quotes, unless `raw`
 * (spreadsheet-cells.ts).
 */
export const csvCell = (v: unknown, raw = false): string => {
  const s = v === null || v === undefined ? '' : String(v);
  if (!raw && opensFormula(s)) return `"${guardedCell(s).replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** Parses CSV text with a header row; returns rows with the line each starts on. */
export async function parseCsv(
  text: string,
): Promise<{ fields: string[]; rows: Array<{ line: number; row: Record<string, string> }> }> {
  const { default: Papa } = await import('papaparse');
  const rows: Array<{ line: number; row: Record<string, string> }> = [];
  let fields: string[] = [];
  let offset = 0;
  let consumed = 0; // line breaks before the next row; the cursor of a row includes its own line break
  const body = text.replace(/^\uFEFF/, '');
  Papa.parse<Record<string, string>>(body, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim().toLowerCase(),
    step: (r) => {
      fields = r.meta.fields ?? fields;
      const start = rows.length === 0 ? 2 : consumed + 1;
      for (let i = offset; i < r.meta.cursor; i++) if (body.charCodeAt(i) === 10) consumed++;
      offset = r.meta.cursor;
      rows.push({ line: start, row: r.data });
    },
  });
  if (!fields.length) fields = (body.split(/\r?\n/, 1)[0] ?? '').split(',').map((h) => h.trim().toLowerCase());
  return { fields, rows };
}

/** A whole number given as text becomes a number; anything else stays text, for validation to name. */
export const num = (v?: string) => (v === undefined ? undefined : /^-?\d+$/.test(v) ? Number(v) : v);
