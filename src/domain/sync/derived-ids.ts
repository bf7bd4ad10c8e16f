import { makes, type BatchData, type BatchGroup, type DeriveRule } from '../journal/changes.js';

/** Counters of 12 hex digits: those counterId writes as exactly that many digits. */
const COUNTER_END = 2 ** 48;
const HEX12 = /^[0-9a-f]{12}$/;

/** Where a group's rules put the record's id: the `k` of each rule's `["id", k]` cell, in rule order. */
interface IdRules {
  rules: Array<{ rule: DeriveRule; k: number }>;
  /** The least and the greatest counter of the group's ids. */
  lo: number;
  hi: number;
  count: number;
}

/**
 * The ids of the records an entry's derived groups make, by table, without a list of them (a sync's pull counted
 * each of a clone's 200,000 records into a set). Every such id is the staged ids' `prefix` and the 12 hex digits of
 * `start + step × n + k` (counterId), so an id is one of them exactly when its counter decodes to a staged row that
 * makes a row by a rule whose id cell is k.
 *
 * Made only where that decoding is exact (`of` answers undefined otherwise, and the caller lists the ids): each
 * group keyed by its id alone, each rule's id cell `["id", k]` with 0 ≤ k < step, whole numbers throughout and every
 * counter below 2^48, so that no two records of a table share an id and each counter names one staged row and rule.
 */
export class DerivedIdSpace {
  private byNumber: Map<number, unknown[]> | undefined;

  private constructor(
    private readonly data: BatchData & { staged: NonNullable<BatchData['staged']> },
    private readonly tables: Map<string, IdRules>,
  ) {}

  static of(data: BatchData, groups: BatchGroup[]): DerivedIdSpace | undefined {
    const staged = data.staged;
    if (!staged) return undefined;
    const { prefix, start, step } = staged.ids;
    if (typeof prefix !== 'string' || !Number.isSafeInteger(start) || !Number.isSafeInteger(step) || step < 1)
      return undefined;
    let least = Infinity;
    let most = -Infinity;
    const numbers = new Set<number>();
    for (const s of staged.rows) {
      const n = s[0];
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || numbers.has(n)) return undefined;
      numbers.add(n);
      least = Math.min(least, n);
      most = Math.max(most, n);
    }
    const tables = new Map<string, IdRules>();
    for (const g of groups) {
      if (!g.derive || g.rows || g.key.length !== 1 || g.key[0] !== 'id') return undefined;
      const at = g.columns.indexOf('id');
      if (at < 0 || g.columns.indexOf('id', at + 1) >= 0) return undefined;
      const table = tables.get(g.entity) ?? { rules: [], lo: Infinity, hi: -Infinity, count: 0 };
      for (const rule of g.derive) {
        const cell = rule.cells[at];
        if (!cell || cell[0] !== 'id') return undefined;
        const k = cell[1];
        if (!Number.isSafeInteger(k) || k < 0 || k >= step || table.rules.some((r) => r.k === k)) return undefined;
        table.rules.push({ rule, k });
        table.count += staged.rows.filter((s) => makes(rule, s)).length;
      }
      if (staged.rows.length) {
        table.lo = Math.min(table.lo, start + step * least + Math.min(...table.rules.map((r) => r.k)));
        table.hi = Math.max(table.hi, start + step * most + Math.max(...table.rules.map((r) => r.k)));
      }
      tables.set(g.entity, table);
    }
    for (const t of tables.values()) if (t.count && (t.lo < 0 || t.hi >= COUNTER_END)) return undefined;
    return new DerivedIdSpace(data as BatchData & { staged: NonNullable<BatchData['staged']> }, tables);
  }

  /** The tables the groups write, with how many records each. */
  counts(): Array<[entity: string, count: number]> {
    return [...this.tables].map(([entity, t]) => [entity, t.count]);
  }

  /** Whether record `id` of `entity` is one the groups make. */
  has(entity: string, id: string): boolean {
    const table = this.tables.get(entity);
    const { prefix, start, step } = this.data.staged.ids;
    if (!table?.count || id.length !== prefix.length + 12 || !id.startsWith(prefix)) return false;
    const digits = id.slice(prefix.length);
    if (!HEX12.test(digits)) return false;
    const counter = parseInt(digits, 16);
    if (counter < table.lo || counter > table.hi) return false;
    for (const { rule, k } of table.rules) {
      const d = counter - start - k;
      if (d < 0 || d % step !== 0) continue;
      const s = this.staged(d / step);
      if (s && makes(rule, s)) return true;
    }
    return false;
  }

  /**
   * Whether another space may make a record this one makes: the same table, prefix and overlapping counters (an
   * answer that errs only towards yes).
   */
  meets(other: DerivedIdSpace): boolean {
    if (other.data.staged.ids.prefix !== this.data.staged.ids.prefix) return false;
    for (const [entity, t] of this.tables) {
      const o = other.tables.get(entity);
      if (o?.count && t.count && o.lo <= t.hi && t.lo <= o.hi) return true;
    }
    return false;
  }

  private staged(n: number): unknown[] | undefined {
    if (!this.byNumber) this.byNumber = new Map(this.data.staged.rows.map((s) => [s[0] as number, s]));
    return this.byNumber.get(n);
  }
}
