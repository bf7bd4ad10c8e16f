import type { ReplicaStore } from './replica-store.port.js';
import type { SyncRow } from './version.js';

/**
 * New records of a sync waiting to be inserted together, a statement of many rows per table, parents first (the
 * order of `replica.entities`). Whoever writes anything else first calls `flush`, so a record is never updated or
 * deleted before the records it hangs on are in.
 */
export class InsertBuffer {
  private readonly waiting = new Map<string, Array<{ id: string; row: SyncRow }>>();

  constructor(
    private readonly replica: ReplicaStore,
    private readonly tenant: string,
  ) {}

  add(entity: string, id: string, row: SyncRow): void {
    const rows = this.waiting.get(entity);
    if (rows) rows.push({ id, row });
    else this.waiting.set(entity, [{ id, row }]);
  }

  async flush(): Promise<void> {
    for (const entity of this.replica.entities) {
      const rows = this.waiting.get(entity);
      if (rows) await this.replica.insertMany(this.tenant, entity, rows);
    }
    this.waiting.clear();
  }
}
