import {
  BATCH_OP,
  changesByGroup,
  changesOf,
  type AdoptedGroups,
  type BatchData,
  type BatchGroup,
  type RowChange,
} from '../journal/changes.js';

/**
 * The groups of a pulled page's batch entries that derive their rows from staged rows (an import's compact form),
 * and how many of each group's records the pull wrote exactly as derived. A group whose every record was written so
 * can stand for those records in the pull's own entry (ReplicaStore.asOneEntry), which then keeps the server's
 * compact form instead of a second copy of every row.
 */
export class DerivedGroups {
  private readonly expected = new Map<BatchGroup, { data: BatchData; count: number }>();
  private readonly taken = new Map<BatchGroup, number>();

  /** The row changes of an entry, in order, each run with the derived group it comes from (undefined: none). */
  changesOf(e: { entity: string; entity_id: string; op: string; data: unknown }): Array<{
    from: BatchGroup | undefined;
    changes: RowChange[];
  }> {
    if (e.op !== BATCH_OP) return [{ from: undefined, changes: changesOf(e) }];
    const data = e.data as BatchData;
    return changesByGroup(data).map(({ group, changes }) => {
      if (!group.derive || !data.staged || !changes.length) return { from: undefined, changes };
      this.expected.set(group, { data, count: changes.length });
      return { from: group, changes };
    });
  }

  /** A record was written exactly as the group `from` derives it (its last state in the page came from there). */
  written(from: BatchGroup | undefined): void {
    if (from) this.taken.set(from, (this.taken.get(from) ?? 0) + 1);
  }

  /**
   * The groups whose every record was written as derived, of the one entry with the most such rows (an entry holds
   * one set of staged rows), with the ids of the records they cover; undefined when there are none.
   */
  adoptable(records: Iterable<{ entity: string; id: string; from?: BatchGroup }>): AdoptedGroups | undefined {
    const whole = new Map<BatchData, { groups: BatchGroup[]; rows: number }>();
    for (const [group, { data, count }] of this.expected) {
      if (this.taken.get(group) !== count || !narrow(data)) continue;
      const entry = whole.get(data) ?? whole.set(data, { groups: [], rows: 0 }).get(data)!;
      entry.groups.push(group);
      entry.rows += count;
    }
    let best: [BatchData, { groups: BatchGroup[]; rows: number }] | undefined;
    for (const candidate of whole) if (!best || candidate[1].rows > best[1].rows) best = candidate;
    if (!best) return undefined;
    const [data, { groups }] = best;
    const chosen = new Set(groups);
    const covers = new Map<string, Set<string>>();
    for (const r of records) {
      if (!r.from || !chosen.has(r.from)) continue;
      const ids = covers.get(r.entity) ?? covers.set(r.entity, new Set()).get(r.entity)!;
      ids.add(r.id);
    }
    return { ...compactForm(data, groups)!, covers };
  }
}

/**
 * What a new entry keeps of another's derived groups: only what makes the rows, whatever else the server's entry
 * carried. Undefined where the staged rows hold values beyond those the rules read (see narrow).
 */
export function compactForm(data: BatchData, groups: BatchGroup[]): Omit<AdoptedGroups, 'covers'> | undefined {
  if (!data.staged || !narrow(data)) return undefined;
  const { prefix, start, step } = data.staged.ids;
  return {
    groups: groups.map(({ entity, op, key, columns, derive }) => ({ entity, op, key, columns, derive })),
    staged: { ids: { prefix, start, step }, rows: data.staged.rows },
  };
}

/**
 * Whether every staged row holds no more values than the entry's rules read (its number, then those values): a
 * server's input is kept only as far as it made the rows written here, never with values beside them.
 */
function narrow(data: BatchData): boolean {
  let read = -1;
  for (const g of data.groups)
    for (const rule of g.derive ?? []) {
      if (rule.when !== undefined) read = Math.max(read, rule.when);
      for (const c of rule.cells) if (c[0] === 'v' || c[0] === 'or') read = Math.max(read, c[1]);
    }
  return data.staged!.rows.every((r) => r.length <= read + 2);
}
