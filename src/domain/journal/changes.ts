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
 */
export interface BatchGroup {
  entity: string;
  op: 'insert' | 'update' | 'delete';
  key: string[];
  columns: string[];
  rows: unknown[][];
}
export interface BatchData {
  groups: BatchGroup[];
}

export const BATCH_OP = 'batch';

/** How many row changes an entry records: one, or each row of a batch. */
export const rowsIn = (e: { op: string; data: unknown }): number =>
  e.op === BATCH_OP ? (e.data as BatchData).groups.reduce((n, g) => n + g.rows.length, 0) : 1;

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
  for (const g of (e.data as BatchData).groups) {
    if (only !== undefined && g.entity !== only) continue;
    const keyAt = g.key.map((k) => g.columns.indexOf(k));
    for (const values of g.rows) {
      const row = g.op === 'delete' ? null : rowOf(g.columns, values);
      out.push({ entity: g.entity, id: idOf(keyAt.map((i) => values[i])), op: g.op, row });
    }
  }
  return out;
}
