import * as z from 'zod';
import type { SyncRow } from './version.js';

/**
 * How far a time a client sends may lie ahead of this store's clock: the stores that sync keep their own clocks,
 * which differ by seconds, rarely by minutes (the consent API allows as much, consent.rules.ts).
 */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** One record's change as a door receives it: the row held here before (null: none) and after (null: deleted). */
export interface RowChange {
  entity: string;
  id: string;
  before: SyncRow | null;
  after: SyncRow | null;
}

/**
 * The tenant's records as a rule of one record sees them: as they will be once the batch it came in (a push, a page
 * of a pull, a bundle's part) is written, and as they are held now. Only what the rule's `needs` named is at hand.
 */
export interface RecordFacts {
  readonly now: Date;
  /** A record after the batch by its journal id (null: absent or deleted). */
  row(entity: string, id: string): SyncRow | null;
  /** A record as held before the batch. */
  held(entity: string, id: string): SyncRow | null;
  /** The records of a table whose `column` holds `value`, after the batch. */
  where(entity: string, column: string, value: unknown): SyncRow[];
  /** The same, as held before the batch. */
  heldWhere(entity: string, column: string, value: unknown): SyncRow[];
}

/** What a rule looks up besides the record itself: records by journal id, and records by a column's value. */
export interface Needs {
  rows?: Array<[entity: string, id: string]>;
  where?: Array<[entity: string, column: string, value: unknown]>;
}

/** A column that names a record of another table of the same tenant (null allowed where the column is optional). */
export interface Reference {
  column: string;
  entity: string;
}

/**
 * The rules of one table's records, whatever door a record comes through (a push, a pull, `sync resolve`, a bundle):
 * the row's schema, what may change and how, what it refers to. Each area keeps its tables' rules beside its domain
 * code and builds them from its own schemas and rule functions (the ones its service applies).
 */
export interface RowRule {
  /** The row as stored, every column: an unknown or missing column is refused, values by the area's own schemas. */
  schema: z.ZodType;
  /** History: a record is inserted once and never changed; deleted only where `deletion` allows it. */
  appendOnly?: boolean;
  /**
   * Columns a record keeps for life once written, besides those the door keeps for every table: the tenant and the
   * columns its journal id is made of (a row naming another tenant or another record is refused before this).
   */
  fixed?: readonly string[];
  /** Columns holding times the sender set: none may lie in the future (beyond the clock skew). */
  times?: readonly string[];
  /** Records of other tables it names (checked after the batch: here, or written by the same batch). */
  refs?: readonly Reference[];
  /** Whether a record may be deleted (null: yes); absent: never. */
  deletion?: (c: RowChange & { before: SyncRow }, f: RecordFacts) => string | null;
  /** What `check` looks up. */
  needs?: (c: RowChange) => Needs;
  /** The rule a change (an insert or an update; deletions are `deletion`'s) breaks, or null. */
  check?: (c: RowChange & { after: SyncRow }, f: RecordFacts) => string | null;
}

/** A time as stored: ISO 8601, with Z or an offset, or without (UTC, as DSFA records keep theirs). */
export const storedTime = z.iso.datetime({ local: true, offset: true });

/** Times read lately (timeOf): a page of records holds a few times many times over. */
const timesRead = new Map<string, number>();
/** How many times timesRead holds at most: it starts again when full. */
const TIMES_HELD = 10_000;
/**
 * The longest text the remembered answers keep (timesRead, ColumnFit): a stored time, an id, a data point or a
 * version is far shorter, and a longer text (a description, or a sender's megabyte) is asked anew each time, so what
 * they hold stays small whatever a sender sends.
 */
const KEPT_LENGTH = 256;

/** Milliseconds since the epoch of a stored time (one without a zone is UTC); NaN for anything else. */
export function timeOf(t: unknown): number {
  if (typeof t !== 'string') return NaN;
  let ms = timesRead.get(t);
  if (ms !== undefined) return ms;
  ms = Date.parse(/(?:Z|[+-]\d\d:?\d\d)$/.test(t) ? t : `${t}Z`);
  if (t.length > KEPT_LENGTH) return ms;
  if (timesRead.size >= TIMES_HELD) timesRead.clear();
  timesRead.set(t, ms);
  return ms;
}

/** Whether `t` lies beyond the clock skew after `now`. */
export const inFuture = (t: unknown, now: Date): boolean => timeOf(t) > now.getTime() + CLOCK_SKEW_MS;

/** Whether stored time `a` comes before `b` (false when either is missing). */
export const before = (a: unknown, b: unknown): boolean => timeOf(a) < timeOf(b);

/** Booleans as stored: 0 or 1. */
export const flag = z.literal([0, 1]);

/** A text column checked by the schema the API takes its field with (a pipe: a row's parse is kept from hot paths). */
export const textBy = (schema: z.ZodType) => z.string().pipe(schema as z.ZodType<unknown, string>);

/**
 * A JSON text column whose value is the area's own schema (a DSFA's data categories: a list of texts). The text is
 * kept as sent; its value only checked, so both sides of a sync hold the same bytes.
 */
export function jsonText<T extends z.ZodType>(schema: T) {
  return z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.issues.push({ code: 'custom', message: 'must be JSON text', input: text });
        return z.NEVER;
      }
    })
    .pipe(schema as z.ZodType<unknown, unknown>);
}

/** The first of `columns` (none: no column) whose value differs between two versions of a row, if any. */
export const changedColumn = (columns: readonly string[] | undefined, a: SyncRow, b: SyncRow): string | undefined =>
  columns?.find((c) => JSON.stringify(a[c] ?? null) !== JSON.stringify(b[c] ?? null));

/** The first of `columns` (none: no column) holding a time beyond the clock skew, if any (null is no time). */
export const futureColumn = (columns: readonly string[] | undefined, row: SyncRow, now: Date): string | undefined =>
  columns?.find((c) => inFuture(row[c], now));

/** The refusal of a time beyond the clock skew. */
export const futureRule = (what: string, column: string, now: Date): string =>
  `${what}: ${column} lies in the future (more than ${CLOCK_SKEW_MS / 60_000} minutes after ${now.toISOString()})`;

const columnsOfSchema = new WeakMap<z.ZodType, readonly string[]>();
const fitsBySchema = new WeakMap<z.ZodType, ColumnFit>();
/** Every table's ColumnFit, for heldAnswers. */
const allFits: ColumnFit[] = [];

/**
 * The schema of a table's rows: exactly these columns (an unknown one is refused, and so is a missing one, also
 * where the column's schema has a default), each value by its schema; `refine` adds rules across columns.
 */
export function storedRow<S extends z.ZodRawShape>(
  shape: S,
  refine?: (row: z.output<z.ZodObject<S>>, ctx: z.RefinementCtx) => void,
): z.ZodType {
  const columns = Object.keys(shape);
  const object = refine ? z.strictObject(shape).superRefine(refine) : z.strictObject(shape);
  const schema = z.preprocess((row, ctx) => {
    if (row && typeof row === 'object')
      for (const c of columns)
        if (!(c in row))
          ctx.addIssue({ code: 'custom', path: [c], message: 'missing: every column of the table is sent' });
    return row;
  }, object);
  columnsOfSchema.set(schema, columns);
  if (!refine) {
    const fit = new ColumnFit(shape);
    fitsBySchema.set(schema, fit);
    allFits.push(fit);
  }
  return schema;
}

/**
 * Whether `row` fits a table's schema (storedRow), answered column by column where the table has no rule across
 * columns: exactly its columns, each value passing its column's schema. A column's answer for a value does not depend
 * on the row, and a page of records asks the same few values many times (an import's data points, versions and
 * times), so each column keeps its answers while its values repeat. True only where the schema would parse the row;
 * false where the schema must say (it names what is wrong).
 */
export function fitsColumns(schema: z.ZodType, row: SyncRow): boolean {
  const fit = fitsBySchema.get(schema);
  return fit ? fit.fits(row) : schema.safeParse(row).success;
}

/** A table's schema asked one column at a time (see columnChecks). */
export interface ColumnChecks {
  /** The table's columns, each once. */
  readonly columns: readonly string[];
  /** The check of `column` (one of `columns`): whether a value passes its schema. */
  of(column: string): (value: unknown) => boolean;
  /** Whether every text passes the schema of `column`, so that the column's answer for a text is known unasked. */
  takesAnyText(column: string): boolean;
}

/**
 * The schema of a table's rows (storedRow) as checks of one column at a time, where it has no rule across columns
 * (undefined where it has): a row whose columns are exactly `columns` fits the schema if and only if each of its
 * values fits its column, which lets a batch of rows made by rules (an import's derived groups) be checked value by
 * value instead of row by row.
 */
export const columnChecks = (schema: z.ZodType): ColumnChecks | undefined => fitsBySchema.get(schema);

/** What a column answered for the values asked lately (see ColumnFit). */
interface ColumnAnswers {
  name: string;
  schema: z.ZodType;
  /** The whole check of a column that takes any text (an id, mostly: its values never repeat), without zod. */
  text?: (value: unknown) => boolean;
  /** null: the column's values seldom repeat (ids, users), and each is asked of its schema. */
  known: Map<unknown, boolean> | null;
  asked: number;
  repeated: number;
}

/** Whether an answer for `value` may be kept: a scalar, a text no longer than KEPT_LENGTH. */
const keepable = (value: unknown): boolean =>
  typeof value === 'string' ? value.length <= KEPT_LENGTH : value === null || typeof value !== 'object';

/** After this many values a column keeps its answers only if half of them were asked before. */
const TRIAL = 1000;
/** How many answers a column holds at most: it starts again when full. */
const ANSWERS_HELD = 10_000;

/** `z.string()` with nothing more: no check, no coercion. */
const plainText = (s: z.ZodType): boolean => s instanceof z.ZodString && !s.def.checks?.length && !s.def.coerce;

/** The check of a column that takes any text, or any text and null; undefined for every other column. */
function anyText(schema: z.ZodType): ((value: unknown) => boolean) | undefined {
  if (plainText(schema)) return (value) => typeof value === 'string';
  if (schema instanceof z.ZodNullable && plainText(schema.unwrap() as z.ZodType))
    return (value) => value === null || typeof value === 'string';
  return undefined;
}

class ColumnFit implements ColumnChecks {
  private readonly names: Set<string>;
  private readonly answers: ColumnAnswers[];
  private readonly byName: Map<string, ColumnAnswers>;
  readonly columns: readonly string[];

  constructor(shape: z.ZodRawShape) {
    this.columns = Object.keys(shape);
    this.names = new Set(this.columns);
    this.answers = Object.entries(shape).map(([name, schema]) => {
      const text = anyText(schema as z.ZodType);
      // a text column keeps no answers: its type is the whole check
      return { name, schema: schema as z.ZodType, text, known: text ? null : new Map(), asked: 0, repeated: 0 };
    });
    this.byName = new Map(this.answers.map((a) => [a.name, a]));
  }

  fits(row: SyncRow): boolean {
    let count = 0;
    for (const name in row) {
      if (!this.names.has(name)) return false;
      count++;
    }
    if (count !== this.columns.length) return false;
    for (const column of this.answers) if (!this.answer(column, row[column.name])) return false;
    return true;
  }

  of(name: string): (value: unknown) => boolean {
    const column = this.byName.get(name)!;
    return (value) => this.answer(column, value);
  }

  takesAnyText(column: string): boolean {
    return this.byName.get(column)!.text?.('') === true;
  }

  /** What the columns hold: their answers, and the characters of the texts they are kept by. */
  held(): { answers: number; chars: number } {
    let answers = 0;
    let chars = 0;
    for (const { known } of this.answers)
      for (const value of known?.keys() ?? []) {
        answers++;
        if (typeof value === 'string') chars += value.length;
      }
    return { answers, chars };
  }

  private answer(column: ColumnAnswers, value: unknown): boolean {
    if (column.text) return column.text(value);
    const kept = column.known;
    if (!kept || !keepable(value)) return column.schema.safeParse(value).success;
    const known = kept.get(value);
    if (known !== undefined) {
      column.repeated++;
      return known;
    }
    const ok = column.schema.safeParse(value).success;
    if (++column.asked === TRIAL && column.repeated < TRIAL / 2) column.known = null;
    else {
      if (kept.size >= ANSWERS_HELD) kept.clear();
      kept.set(value, ok);
    }
    return ok;
  }
}

/** The columns of a table's rows, as its schema (storedRow) names them. */
export const columnsOf = (schema: z.ZodType): readonly string[] => columnsOfSchema.get(schema) ?? [];

/**
 * What the remembered answers hold in this process (timeOf's times, every table's column answers), with the
 * characters of the texts they are kept by: bounded, whatever senders send.
 */
export function heldAnswers(): { times: number; answers: number; chars: number } {
  let chars = 0;
  for (const t of timesRead.keys()) chars += t.length;
  let answers = 0;
  for (const fit of allFits) {
    const held = fit.held();
    answers += held.answers;
    chars += held.chars;
  }
  return { times: timesRead.size, answers, chars };
}
