import type { Kysely } from 'kysely';
import { isoZ, type Clock } from '../../domain/clock.js';
import type { CanonicalControl } from '../../domain/training-blocks/canonical.schema.js';
import type { CanonicalStore } from '../../domain/training-blocks/canonical.service.js';
import { writeTransaction } from '../transaction.js';
import type { DB } from '../db-types.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';

/** A tenant's own controls; references are kept as JSON text. */
export class KyselyCanonicalStore implements CanonicalStore {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly journal: Recorder = readOnly,
  ) {}

  async tenantControls(tenant: string): Promise<CanonicalControl[]> {
    const rows = await this.db
      .selectFrom('training_canonical_control')
      .selectAll()
      .where('tenant_id', '=', tenant)
      .execute();
    return rows.map(
      ({ tenant_id: _t, references, updated_at: _u, ...c }) =>
        ({ ...c, references: JSON.parse(references) }) as CanonicalControl,
    );
  }

  async upsert(tenant: string, controls: CanonicalControl[]): Promise<void> {
    const now = isoZ(this.clock.now());
    await writeTransaction(this.db, async (trx) => {
      for (const c of controls) {
        const row = { ...c, tenant_id: tenant, references: JSON.stringify(c.references), updated_at: now };
        await trx
          .insertInto('training_canonical_control')
          .values(row)
          .onConflict((oc) => oc.columns(['tenant_id', 'id']).doUpdateSet({ ...row }))
          .execute();
      }
    });
  }
}
