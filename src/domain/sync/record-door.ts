import { DomainError } from '../errors.js';
import { cellValue, makes, type BatchData, type BatchGroup } from '../journal/changes.js';
import { detailsFromZod } from '../validation.js';
import {
  changedColumn,
  columnChecks,
  fitsColumns,
  futureColumn,
  futureRule,
  inFuture,
  type Needs,
  type RecordFacts,
  type RowChange,
} from './row-rule.js';
import { ROW_RULES } from './row-rules.js';
import { sameRow, type SyncRow } from './version.js';

/** What the door reads of the tenant's records: the replica store's reads (ReplicaStore). */
export interface DoorReader {
  readMany(
    tenant: string,
    entity: string,
    wanted: Array<{ id: string; hint?: SyncRow | null }>,
  ): Promise<Map<string, SyncRow>>;
  rowsWhere(tenant: string, entity: string, column: string, values: unknown[]): Promise<SyncRow[]>;
  idOf(tenant: string, entity: string, row: SyncRow): string;
}

const key = (entity: string, id: string) => `${entity}\u0000${id}`;
const whereKey = (entity: string, column: string, value: unknown) =>
  `${entity}\u0000${column}\u0000${JSON.stringify(value)}`;

/** The rules of a table's records, for a table that travels (undefined for any other name). */
const ruleOf = (entity: string) => (Object.hasOwn(ROW_RULES, entity) ? ROW_RULES[entity] : undefined);

/** A change that writes a row (not a deletion). */
type Write = RowChange & { after: SyncRow };
const writes = (c: RowChange): c is Write => c.after !== null;

/** The first problem of a row with its table's schema, in one line. */
function schemaProblem(c: Write): string | null {
  const schema = ROW_RULES[c.entity]!.schema;
  // checked column by column first (the fast path of a bulk pull); a row that fails is parsed to name what it was
  if (fitsColumns(schema, c.after)) return null;
  const details = detailsFromZod(schema.safeParse(c.after, { reportInput: true }).error!);
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return `${c.entity} ${c.id} does not fit its table: ${details[0]!.path}: ${details[0]!.message}${more}`;
}

/**
 * The rules a change breaks on its own, before anything is looked up: the schema, the tenant and the record the row
 * names, history, fixed columns and times. `valuesChecked`: the row's columns and values (the schema and the times)
 * were checked already, by derivedValuesFit.
 */
function ownProblem(
  c: RowChange,
  reader: DoorReader,
  tenant: string,
  now: Date,
  valuesChecked: boolean,
): string | null {
  const rule = ruleOf(c.entity);
  if (!rule) return `${c.entity} records do not travel: the tables that do are ${Object.keys(ROW_RULES).join(', ')}`;
  if (!writes(c)) {
    if (c.before === null) return null;
    return rule.deletion ? null : `${c.entity} ${c.id} cannot be deleted: ${c.entity} records are never deleted`;
  }
  const after = c.after;
  const problem = valuesChecked ? null : schemaProblem(c);
  if (problem) return problem;
  if ('tenant_id' in after && after.tenant_id !== tenant)
    return `${c.entity} ${c.id} belongs to tenant ${String(after.tenant_id)}, not ${tenant}`;
  if (reader.idOf(tenant, c.entity, after) !== c.id) return `the row of ${c.entity} ${c.id} names another record`;
  if (c.before !== null && rule.appendOnly && !sameRow(c.before, after))
    return `${c.entity} ${c.id} cannot be changed: ${c.entity} is history, written once and never changed`;
  const fixed = c.before === null ? undefined : changedColumn(rule.fixed, c.before, after);
  if (fixed) return `${c.entity} ${c.id} cannot change ${fixed}: it is fixed once the record is written`;
  const future = valuesChecked ? undefined : futureColumn(rule.times, after, now);
  return future ? futureRule(`${c.entity} ${c.id}`, future, now) : null;
}

/**
 * Whether every row that derived groups of a batch make (an import's consents and history entries, see DeriveRule)
 * passes the checks of its values that ownProblem makes of each row: exactly its table's columns, each value by its
 * column's schema, no time in the future. Asked of each rule's cells instead of each row: a constant once, the batch's
 * ids not at all where their column takes any text, a staged value for each row that takes it (a column's answers for
 * values that repeat are kept, see ColumnFit). False where any row may not pass, and for a table whose schema has
 * rules across columns: its rows are then checked one by one, which names what is wrong.
 */
export function derivedValuesFit(now: Date, data: BatchData, groups: BatchGroup[]): boolean {
  const staged = data.staged;
  if (!staged) return false;
  for (const g of groups) {
    const rule = ruleOf(g.entity);
    const checks = rule && columnChecks(rule.schema);
    if (!checks || g.op !== 'insert' || !g.derive || g.rows) return false;
    const names = new Set(g.columns);
    if (names.size !== checks.columns.length || !checks.columns.every((c) => names.has(c))) return false;
    const times = new Set(rule.times);
    for (const d of g.derive) {
      if (d.cells.length !== g.columns.length) return false;
      for (const [i, cell] of d.cells.entries()) {
        const column = g.columns[i]!;
        const schema = checks.of(column);
        const fits = times.has(column) ? (v: unknown) => schema(v) && !inFuture(v, now) : schema;
        if (cell[0] === 'c') {
          if (fits(cell[1])) continue;
          return false;
        }
        if (cell[0] === 'id' && checks.takesAnyText(column) && !times.has(column)) continue;
        for (const s of staged.rows)
          if (makes(d, s) && !fits(cellValue(cell, s, s[0] as number, staged.ids))) return false;
      }
    }
  }
  return true;
}

/** Whether the rules of a table's records look up other records besides those a row names by id (its `needs`). */
export const looksUp = (entity: string): boolean => {
  const rule = ruleOf(entity);
  return !rule || rule.needs !== undefined;
};

/** Everything a change's rules look up: its references, and what its table's rule names. */
function needsOf(c: RowChange): Needs {
  const rule = ROW_RULES[c.entity]!;
  const own = rule.needs?.(c);
  const rows: NonNullable<Needs['rows']> = [];
  // the row fits its table's schema by now: every column is there, an optional reference is null
  if (c.after && rule.refs)
    for (const ref of rule.refs) if (c.after[ref.column] !== null) rows.push([ref.entity, String(c.after[ref.column])]);
  if (own?.rows) rows.push(...own.rows);
  return { rows, where: own?.where ?? [] };
}

/**
 * The records a batch of changes (a push, a page of a pull, a choice of `sync resolve`, a bundle's part) may not
 * write, each with the rule it breaks: its table's schema, its history, its fixed columns and times, the records it
 * names (in this tenant, here or in the same batch) and the rules of its area (ROW_RULES). A record refused takes no
 * part in the batch from then on: the records are checked again without it, until none is refused anew (deletions
 * first, as a refused deletion puts its record back for the records checked after it).
 * Answers reasons by `entity NUL id`; the records not named may be written. `valuesChecked`: every change is an insert
 * whose values derivedValuesFit passed (they are not asked again row by row).
 */
export async function refusedChanges(
  reader: DoorReader,
  tenant: string,
  now: Date,
  changes: RowChange[],
  opts: { valuesChecked?: boolean } = {},
): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  const live: RowChange[] = [];
  const valuesChecked = opts.valuesChecked === true;
  for (const c of changes) {
    const problem = ownProblem(c, reader, tenant, now, valuesChecked);
    if (problem) refused.set(key(c.entity, c.id), problem);
    else if (c.before !== null || c.after !== null) live.push(c);
  }
  const facts = await BatchFacts.load(reader, tenant, now, live);
  // deletions first: a deletion refused puts its record back, which the records checked after it may rest on
  const order = [...live.filter((c) => c.after === null), ...live.filter((c) => c.after !== null)];
  const out = new Set<RowChange>();
  for (let again = true; again;) {
    again = false;
    for (const c of order) {
      if (out.has(c)) continue;
      const problem = ruleProblem(c, facts);
      if (problem === null) continue;
      refused.set(key(c.entity, c.id), problem);
      out.add(c);
      facts.withdraw(c);
      again = true;
    }
  }
  return refused;
}

/** The rules of a change that need the other records: references, then the area's own. */
function ruleProblem(c: RowChange, f: RecordFacts): string | null {
  const rule = ROW_RULES[c.entity]!;
  if (!writes(c)) return rule.deletion!({ ...c, before: c.before! }, f);
  for (const ref of rule.refs ?? []) {
    const value = c.after[ref.column];
    if (value === null) continue;
    if (!f.row(ref.entity, String(value)))
      return `${c.entity} ${c.id} names ${ref.entity} ${String(value)} (${ref.column}), which this tenant does not hold`;
  }
  return rule.check?.(c, f) ?? null;
}

/** Rows by table, then by journal id. */
class Tables<T> {
  private readonly byEntity = new Map<string, Map<string, T>>();

  of(entity: string): Map<string, T> | undefined {
    return this.byEntity.get(entity);
  }

  /** The value held for a record (undefined: none). */
  get(entity: string, id: string): T | undefined {
    return this.byEntity.get(entity)?.get(id);
  }

  set(entity: string, id: string, value: T): void {
    const m = this.byEntity.get(entity);
    if (m) m.set(id, value);
    else this.byEntity.set(entity, new Map([[id, value]]));
  }

  delete(entity: string, id: string): void {
    this.byEntity.get(entity)!.delete(id);
  }
}

/** The facts of one batch: what was looked up, with the batch's own records over it. */
class BatchFacts implements RecordFacts {
  private readonly heldRows = new Tables<SyncRow | null>();
  private readonly heldLists = new Map<string, SyncRow[]>();
  /** The batch's records that are still written: the row after each (null: deleted). */
  private readonly batch = new Tables<SyncRow | null>();

  private constructor(
    private readonly reader: DoorReader,
    private readonly tenant: string,
    readonly now: Date,
  ) {}

  static async load(reader: DoorReader, tenant: string, now: Date, changes: RowChange[]): Promise<BatchFacts> {
    const f = new BatchFacts(reader, tenant, now);
    const rows = new Map<string, Set<string>>();
    const where = new Map<string, { entity: string; column: string; values: Set<unknown> }>();
    for (const c of changes) {
      f.heldRows.set(c.entity, c.id, c.before);
      f.batch.set(c.entity, c.id, c.after);
    }
    for (const c of changes) {
      const n = needsOf(c);
      for (const [entity, id] of n.rows ?? []) if (f.heldRows.get(entity, id) === undefined) add(rows, entity, id);
      for (const [entity, column, value] of n.where ?? []) {
        const k = `${entity}\u0000${column}`;
        const w = where.get(k) ?? where.set(k, { entity, column, values: new Set() }).get(k)!;
        w.values.add(value);
      }
    }
    for (const [entity, ids] of rows) {
      const found = await reader.readMany(
        tenant,
        entity,
        [...ids].map((id) => ({ id })),
      );
      for (const id of ids) f.heldRows.set(entity, id, found.get(id) ?? null);
    }
    for (const { entity, column, values } of where.values()) {
      for (const v of values) f.heldLists.set(whereKey(entity, column, v), []);
      for (const r of await reader.rowsWhere(tenant, entity, column, [...values]))
        f.heldLists.get(whereKey(entity, column, r[column]))?.push(r);
    }
    return f;
  }

  /** A refused change: its record stays as held. */
  withdraw(c: RowChange): void {
    this.batch.delete(c.entity, c.id);
  }

  held(entity: string, id: string): SyncRow | null {
    const held = this.heldRows.get(entity, id);
    if (held === undefined) throw new DomainError('internal', `a sync rule read ${entity} ${id} without asking for it`);
    return held;
  }

  row(entity: string, id: string): SyncRow | null {
    const written = this.batch.get(entity, id);
    return written === undefined ? this.held(entity, id) : written;
  }

  heldWhere(entity: string, column: string, value: unknown): SyncRow[] {
    const list = this.heldLists.get(whereKey(entity, column, value));
    if (!list) throw new DomainError('internal', `a sync rule read ${entity} by ${column} without asking for it`);
    return list;
  }

  where(entity: string, column: string, value: unknown): SyncRow[] {
    const mine = this.batch.of(entity) ?? new Map<string, SyncRow | null>();
    const held = this.heldWhere(entity, column, value).filter(
      (r) => !mine.has(this.reader.idOf(this.tenant, entity, r)),
    );
    const written: SyncRow[] = [];
    for (const id of this.index(entity, column, mine).get(JSON.stringify(value)) ?? []) {
      // a record withdrawn since the index was made is no longer the batch's
      const r = mine.get(id);
      if (r) written.push(r);
    }
    return [...held, ...written];
  }

  /** The batch's records of a table by a column's value (JSON), made when first asked for. */
  private index(entity: string, column: string, mine: Map<string, SyncRow | null>): Map<string, string[]> {
    const k = `${entity}\u0000${column}`;
    let index = this.indexes.get(k);
    if (index) return index;
    this.indexes.set(k, (index = new Map()));
    for (const [id, r] of mine) {
      if (!r) continue;
      const v = JSON.stringify(r[column]);
      const ids = index.get(v);
      if (ids) ids.push(id);
      else index.set(v, [id]);
    }
    return index;
  }

  private readonly indexes = new Map<string, Map<string, string[]>>();
}

function add(m: Map<string, Set<string>>, entity: string, id: string): void {
  const s = m.get(entity);
  if (s) s.add(id);
  else m.set(entity, new Set([id]));
}
