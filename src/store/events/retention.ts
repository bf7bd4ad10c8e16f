import type { Kysely } from 'kysely';
import type { DB } from '../db-types.js';

/** Rows deleted per statement: a pass of the background loop never holds the database for long. */
const BATCH = 5000;

/** What a prune removed (or, in a dry run, would remove). */
export interface Pruned {
  webhook_deliveries: number;
  emails: number;
}

/**
 * The retention of the events tables across every tenant (the owner's connection): webhook deliveries that were
 * delivered or gave up, and e-mail that was sent or gave up, whose last attempt was before a cutoff. Deliveries and
 * messages still due are never touched. A finished row's `next_attempt_at` is its last attempt, so the tables' due
 * indexes (status, next_attempt_at) find them.
 */
export class EventsRetention {
  constructor(private readonly db: Kysely<DB>) {}

  async prune(cutoff: string, dryRun = false): Promise<Pruned> {
    return {
      webhook_deliveries: await this.pruneTable('webhook_delivery', ['delivered', 'failed'], cutoff, dryRun),
      emails: await this.pruneTable('notification_outbox', ['sent', 'failed'], cutoff, dryRun),
    };
  }

  private async pruneTable(
    table: 'webhook_delivery' | 'notification_outbox',
    finished: string[],
    cutoff: string,
    dryRun: boolean,
  ): Promise<number> {
    const old = () => this.db.selectFrom(table).where('status', 'in', finished).where('next_attempt_at', '<', cutoff);
    if (dryRun) {
      const r = await old()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    }
    let total = 0;
    for (;;) {
      const r = await this.db.deleteFrom(table).where('id', 'in', old().select('id').limit(BATCH)).executeTakeFirst();
      const n = Number(r.numDeletedRows);
      total += n;
      if (n < BATCH) return total;
    }
  }
}
