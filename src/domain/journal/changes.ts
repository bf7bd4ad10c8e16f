/** One row's change as a journal entry records it: the row after an insert or update, or null for a deletion. */
export interface RowChange {
  entity: string;
  id: string;
  op: string;
  row: Record<string, unknown> | null;
}

/**
 * Rows written together by a bulk path (an import's batch of consents and their history, a revert), recorded as one
 * entry (op `batch`) to keep the journal's cost per row small: groups of rows of one table and one operation, each
 * row as its values in `columns` order, keyed by the columns in `key`. A deletion's rows hold only their key.
 *
 * A group may instead `derive` its rows from the entry's `staged` rows (the values a bulk path was given, which it
 * wrote by set-based statements): each staged row makes one row per rule whose `when` value is present. An import
 * batch's entry then holds its input once instead of every consent and history row it wrote (a quarter of the size,
 * and no second reading of the rows to write it); `changesOf` gives the same rows either way.
 */
export interface BatchGroup {
  entity: string;
  op: 'insert' | 'update' | 'delete';
  key: string[];
  columns: string[];
  rows?: unknown[][];
  derive?: DeriveRule[];
}
export interface BatchData {
  groups: BatchGroup[];
  staged?: StagedRows;
}

/**
 * How a derived row's value is made, per column: `["v", i]` the staged row's value i, `["or", i, x]` that value or x
 * where it is null, `["c", x]` the constant x, `["id", k]` the id `prefix` + the hex digits (12) of start + step × n + k,
 * n being the staged row's number.
 */
export type DeriveCell = ['v', number] | ['or', number, unknown] | ['c', unknown] | ['id', number];
export interface DeriveRule {
  /** Only staged rows whose value `when` is not null make a row. */
  when?: number;
  /** One cell per column of the group, in `columns` order. */
  cells: DeriveCell[];
}
/** The rows a bulk path was given: each its number n, then its values; and how the ids it wrote were made. */
export interface StagedRows {
  ids: { prefix: string; start: number; step: number };
  rows: unknown[][];
}

export const BATCH_OP = 'batch';

const HEX_BYTES: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** Counters below this are 12 hex digits (48 bits); an id's counter is (RFC 9562 6.2, method 1). */
const COUNTER_END = 2 ** 48;

/**
 * An id of a bulk path: `prefix` and the 12 hex digits of `counter` (`["id", k]` of DeriveCell). A byte at a time from
 * a table, five times quicker than `toString(16)` of a double (a batch's ids were most of what expanding it cost);
 * a counter that is no integer in 48 bits (none a store writes, but a batch from elsewhere may hold one) is written
 * as `toString(16)` writes it, as before.
 */
export function counterId(prefix: string, counter: number): string {
  if (!(Number.isInteger(counter) && counter >= 0 && counter < COUNTER_END))
    return prefix + counter.toString(16).padStart(12, '0');
  const hi = Math.floor(counter / 0x1000000);
  const lo = counter - hi * 0x1000000;
  // the digits joined first: a text under 13 characters is flat, where joining each to the prefix would nest six
  const digits =
    HEX_BYTES[hi >>> 16]! +
    HEX_BYTES[(hi >>> 8) & 255]! +
    HEX_BYTES[hi & 255]! +
    HEX_BYTES[lo >>> 16]! +
    HEX_BYTES[(lo >>> 8) & 255]! +
    HEX_BYTES[lo & 255]!;
  return prefix + digits;
}

/** The value a derived row's cell takes from staged row `s` (number `n`). */
export function cellValue(c: DeriveCell, s: unknown[], n: number, ids: StagedRows['ids']): unknown {
  switch (c[0]) {
    case 'v':
      return s[1 + c[1]] ?? null;
    case 'or':
      return s[1 + c[1]] ?? c[2];
    case 'c':
      return c[1];
    case 'id':
      return counterId(ids.prefix, ids.start + ids.step * n + c[1]);
  }
}

/** Whether staged row `s` makes a row by `rule` (a rule with `when` only where that value is not null). */
export const makes = (rule: DeriveRule, s: unknown[]) => rule.when === undefined || (s[1 + rule.when] ?? null) !== null;

/** The rows of one group of a batch: its own, or those it derives from the entry's staged rows. */
export function groupRows(data: BatchData, g: BatchGroup): unknown[][] {
  if (g.rows) return g.rows;
  if (!g.derive || !data.staged) return [];
  const { ids, rows: staged } = data.staged;
  const out: unknown[][] = [];
  for (const s of staged) {
    const n = s[0] as number;
    for (const rule of g.derive) if (makes(rule, s)) out.push(rule.cells.map((c) => cellValue(c, s, n, ids)));
  }
  return out;
}

/**
 * Each row of a group of a batch, in order, for a reader that is done with it when `fn` returns (a verification
 * digests it): a derived group's rows are made in one array per rule, written over for each staged row, where
 * groupRows makes an array of each (a verification of a large import spent a third of its collector's time on them).
 */
export function eachGroupRow(data: BatchData, g: BatchGroup, fn: (row: unknown[]) => void): void {
  if (g.rows) {
    for (const row of g.rows) fn(row);
    return;
  }
  if (!g.derive || !data.staged) return;
  const { ids, rows: staged } = data.staged;
  const rules = g.derive;
  const rows = rules.map(() => [] as unknown[]);
  for (const s of staged) {
    const n = s[0] as number;
    for (let r = 0; r < rules.length; r++) {
      if (!makes(rules[r]!, s)) continue;
      const row = rows[r]!;
      row.length = 0;
      for (const c of rules[r]!.cells) row.push(cellValue(c, s, n, ids));
      fn(row);
    }
  }
}

/** How many rows each group of a batch holds. */
export function groupCounts(data: BatchData): Array<{ entity: string; op: string; count: number }> {
  return data.groups.map((g) => {
    let count = g.rows?.length ?? 0;
    if (!g.rows && g.derive && data.staged)
      for (const rule of g.derive)
        count +=
          rule.when === undefined
            ? data.staged.rows.length
            : data.staged.rows.filter((s) => (s[1 + rule.when!] ?? null) !== null).length;
    return { entity: g.entity, op: g.op, count };
  });
}

/** How many row changes an entry records: one, or each row of a batch. */
export const rowsIn = (e: { op: string; data: unknown }): number =>
  e.op === BATCH_OP ? groupCounts(e.data as BatchData).reduce((n, g) => n + g.count, 0) : 1;

/** The id of a row by its key columns: the value itself for one column, else the values as a JSON array. */
export const idOf = (values: unknown[]): string => (values.length === 1 ? String(values[0]) : JSON.stringify(values));

/** A row of a batch group as an object (a plain loop: Object.fromEntries cost twice as much, measured). */
export function rowOf(columns: string[], values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
  return row;
}

/** The row changes an entry records: itself, or each row of a batch; only those of table `only` when named. */
export function changesOf(
  e: { entity: string; entity_id: string; op: string; data: unknown },
  only?: string,
): RowChange[] {
  if (e.op !== BATCH_OP) {
    if (only !== undefined && e.entity !== only) return [];
    return [{ entity: e.entity, id: e.entity_id, op: e.op, row: e.data as RowChange['row'] }];
  }
  const out: RowChange[] = [];
  const data = e.data as BatchData;
  for (const g of data.groups) if (only === undefined || g.entity === only) pushGroupChanges(out, data, g);
  return out;
}

/** The row changes of a batch, group by group (changesOf gives them as one list). */
export function changesByGroup(data: BatchData): Array<{ group: BatchGroup; changes: RowChange[] }> {
  return data.groups.map((group) => {
    const changes: RowChange[] = [];
    pushGroupChanges(changes, data, group);
    return { group, changes };
  });
}

function pushGroupChanges(out: RowChange[], data: BatchData, g: BatchGroup, rows = groupRows(data, g)): void {
  const keyAt = g.key.map((k) => g.columns.indexOf(k));
  for (const values of rows) {
    const row = g.op === 'delete' ? null : rowOf(g.columns, values);
    out.push({ entity: g.entity, id: idOf(keyAt.map((i) => values[i])), op: g.op, row });
  }
}

/**
 * Groups of another batch entry that derive their rows from its staged rows, taken into a new batch entry as they
 * are (a sync's pull that wrote exactly those rows): the groups, the staged rows, and the ids of the records they
 * cover by table, whose rows the new entry then holds only in this form.
 */
export interface AdoptedGroups {
  groups: BatchGroup[];
  staged: StagedRows;
  covers: Map<string, Set<string>>;
}

/**
 * The records a batch entry's derived groups make, each group's rows made once: what a sync's pull writes set-wise
 * (ReplicaStore's OneEntry.insertDerived) and checks as records (`changes`), with the entry's data they come from.
 */
export interface DerivedRecords {
  data: BatchData;
  groups: Array<{ group: BatchGroup; rows: unknown[][]; changes: RowChange[] }>;
}

/** The records of the derived groups of a batch entry (none: it has no staged rows, or no such group). */
export function derivedRecords(data: BatchData): DerivedRecords {
  const groups: DerivedRecords['groups'] = [];
  if (!data.staged) return { data, groups };
  for (const group of data.groups) {
    if (!group.derive || group.rows) continue;
    const rows = groupRows(data, group);
    const changes: RowChange[] = [];
    pushGroupChanges(changes, data, group, rows);
    groups.push({ group, rows, changes });
  }
  return { data, groups };
}
