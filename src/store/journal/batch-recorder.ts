import {
  groupRows,
  idOf,
  type AdoptedGroups,
  type BatchData,
  type BatchGroup,
  type StagedRows,
} from '../../domain/journal/changes.js';
import { DomainError } from '../../domain/errors.js';
import type { Recorder } from './journal-writer.js';

/**
 * Collects the row writes of a bulk path into the groups of one batch entry (see BatchData) instead of an entry per
 * row: consecutive writes of one table, operation and column list share a group, so the groups replay in the order
 * the rows were written. `keyOf` names the columns a table's journal id is made of (the id the entry would have had).
 */
export class BatchRecorder implements Recorder {
  private groups: BatchGroup[] = [];
  private staged: StagedRows | undefined;
  private last: { signature: string; group: BatchGroup } | undefined;

  constructor(private readonly keyOf: (entity: string) => string[]) {}

  put(entity: string, id: string, row: object, op: 'insert' | 'update' = 'update'): void {
    const values = row as Record<string, unknown>;
    const columns = Object.keys(values);
    const group = this.group(entity, op, columns);
    const rowValues = columns.map((c) => values[c]);
    const keyAt = group.key.map((k) => columns.indexOf(k));
    if (idOf(keyAt.map((i) => rowValues[i])) !== id)
      throw new DomainError('internal', `the row of ${entity} ${id} does not carry its journal id`);
    group.rows!.push(rowValues);
  }

  putRows(entity: string, columns: string[], rows: Array<{ id: string; values: unknown[] }>, op: 'insert'): void {
    const group = this.group(entity, op, columns);
    const keyAt = group.key.map((k) => columns.indexOf(k));
    for (const r of rows) {
      if (idOf(keyAt.map((i) => r.values[i])) !== r.id)
        throw new DomainError('internal', `the row of ${entity} ${r.id} does not carry its journal id`);
      group.rows!.push(r.values);
    }
  }

  remove(entity: string, id: string): void {
    const key = this.keyOf(entity);
    const values = key.length === 1 ? [id] : (JSON.parse(id) as unknown[]);
    this.group(entity, 'delete', key).rows!.push(values);
  }

  batch(_entity: string, _id: string, data: BatchData): void {
    this.last = undefined;
    // derived groups become rows of their own: this entry has no staged rows to derive them from
    for (const g of data.groups) {
      const { derive: _, ...group } = g;
      this.groups.push({ ...group, rows: groupRows(data, g) });
    }
  }

  /**
   * Takes another entry's derived groups (see AdoptedGroups) in place of the rows of the records they cover, which
   * leave the groups they were written into: the entry holds those records once, in the other entry's compact
   * form, ahead of the rows written one by one. Once per entry, as an entry has one set of staged rows.
   */
  adopt({ groups, staged, covers }: AdoptedGroups): void {
    if (this.staged) throw new DomainError('internal', 'a batch entry takes the derived groups of one entry only');
    for (const g of this.groups) {
      const ids = covers.get(g.entity);
      if (!ids || !g.rows) continue;
      const keyAt = g.key.map((k) => g.columns.indexOf(k));
      g.rows = g.rows.filter((values) => !ids.has(idOf(keyAt.map((i) => values[i]))));
    }
    this.groups = [...groups, ...this.groups.filter((g) => g.rows!.length > 0)];
    this.staged = staged;
    this.last = undefined;
  }

  get data(): BatchData {
    return this.staged ? { groups: this.groups, staged: this.staged } : { groups: this.groups };
  }

  private group(entity: string, op: BatchGroup['op'], columns: string[]): BatchGroup {
    const signature = `${entity}\u0000${op}\u0000${columns.join('\u0000')}`;
    if (this.last?.signature === signature) return this.last.group;
    const group: BatchGroup = { entity, op, key: this.keyOf(entity), columns, rows: [] };
    this.groups.push(group);
    this.last = { signature, group };
    return group;
  }
}
