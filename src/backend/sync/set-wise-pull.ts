import {
  BATCH_OP,
  changesOf,
  derivedRecords,
  type BatchData,
  type BatchGroup,
  type DerivedRecords,
  type RowChange,
} from '../../domain/journal/changes.js';
import type { JournalEntry } from '../../domain/journal/journal.schema.js';
import { compactForm } from '../../domain/sync/derived-groups.js';

/** An entry of a pulled page reduced to its derived groups, with the records they make. */
export interface DerivedPart {
  entry: JournalEntry;
  records: DerivedRecords;
}

/** What the split asks of the sync and of the rules. */
export interface SplitScope {
  /** Whether the records of a table travel (the pull passes over the others). */
  travels(entity: string): boolean;
  /** Whether a table has rules across records (claims), which the set-wise write does not keep. */
  ruled(entity: string): boolean;
  /** Whether a table's rule looks up records besides those its row names by id (its `needs`). */
  looksUp(entity: string): boolean;
  /** An entry the server wrote because this store pushed it. */
  echo(e: JournalEntry): boolean;
}

/**
 * A page's entries split for a pull that writes import batches set-wise: the derived groups of each batch entry (the
 * consents and history entries an import made, as rules over its staged rows) apart, and the rest of the page as
 * entries of their own (an import's run record among them). The pull writes the rest first, record by record, then
 * checks the derived records together at the door and writes them in statements of many rows; where the door
 * refuses any, they go the record-by-record way after all.
 *
 * The door then sees the derived records after the rest is written instead of beside it. It answers the same as long
 * as nothing of the page names a derived record (by id or in any column), the derived records name the rest's
 * records only where those records' rules look nothing up, and the derived records are new to this store (the pull
 * checks that, and that nothing here changed or holds a conflict in their tables). Undefined where no entry has such
 * groups or any of this does not hold: the page goes the record-by-record way.
 */
export function splitDerived(
  entries: JournalEntry[],
  scope: SplitScope,
): { rest: JournalEntry[]; derived: DerivedPart[] } | undefined {
  const rest: JournalEntry[] = [];
  const derived: DerivedPart[] = [];
  for (const e of entries) {
    const groups = setWiseGroups(e, scope);
    if (!groups) {
      rest.push(e);
      continue;
    }
    const data = e.data as BatchData;
    const others = data.groups.filter((g) => !groups.includes(g));
    if (others.length) rest.push({ ...e, data: { groups: others } });
    const alone: BatchData = { groups, staged: data.staged! };
    derived.push({ entry: { ...e, data: alone }, records: derivedRecords(alone) });
  }
  if (!derived.length || !separate(rest, derived, scope)) return undefined;
  return { rest, derived };
}

/** The derived groups of a batch entry that may be written set-wise: every one of them, or none (undefined). */
function setWiseGroups(e: JournalEntry, scope: SplitScope): BatchGroup[] | undefined {
  if (e.op !== BATCH_OP || scope.echo(e)) return undefined;
  const data = e.data as BatchData;
  const groups = data.groups.filter((g) => g.derive && !g.rows);
  if (!data.staged || !groups.length) return undefined;
  const fits = (g: BatchGroup) =>
    g.op === 'insert' && scope.travels(g.entity) && !scope.ruled(g.entity) && g.columns.includes('tenant_id');
  if (!groups.every(fits) || !compactForm(data, groups)) return undefined;
  return groups;
}

/**
 * Whether the derived records stand apart from the rest of the page: each derived record once, no other change of
 * the page to one of them or naming one, and a derived record naming only those of the rest whose rules look
 * nothing up.
 */
function separate(rest: JournalEntry[], derived: DerivedPart[], scope: SplitScope): boolean {
  const ids = new Set<string>();
  let count = 0;
  for (const part of derived)
    for (const g of part.records.groups)
      for (const c of g.changes) {
        ids.add(c.id);
        count++;
      }
  if (ids.size !== count) return false;
  // the rest's records by id: whether each may be named (a record deleted, or one whose rule looks up, may not)
  const named = new Map<string, boolean>();
  for (const e of rest)
    for (const c of changesOf(e)) {
      if (!scope.travels(c.entity)) continue;
      if (ids.has(c.id) || mentions(c, ids)) return false;
      named.set(c.id, (named.get(c.id) ?? true) && c.row !== null && !scope.looksUp(c.entity));
    }
  // a page's rest is small (an import's run record), and most often every record of it may be named
  if (![...named.values()].includes(false)) return true;
  for (const part of derived)
    for (const g of part.records.groups)
      for (const c of g.changes)
        for (const k in c.row) {
          const may = named.get(c.row[k] as string);
          if (may === false) return false;
        }
  return true;
}

/** Whether a change's row holds one of `ids` in any column. */
function mentions(c: RowChange, ids: Set<string>): boolean {
  for (const k in c.row) if (typeof c.row[k] === 'string' && ids.has(c.row[k] as string)) return true;
  return false;
}
