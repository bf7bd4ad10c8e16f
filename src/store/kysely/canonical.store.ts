import type { Kysely } from 'kysely';
import { isoZ, type Clock } from '../../domain/clock.js';
import type { CanonicalControl } from '../../domain/training-blocks/canonical.schema.js';
import type { CanonicalStore } from '../../domain/training-blocks/canonical-store.port.js';
import type { DB } from '../db-types.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';

// controls per statement: 10 columns stay far below SQLite's limit of bound values
const BATCH = 500;

/**
 * A tenant's own controls; references are kept as JSON text. Each write tells the journal the rows it wrote, keyed
 * by the control's id (the tenant is the journal's own).
 */
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
    for (let i = 0; i < controls.length; i += BATCH) {
      const slice = controls.slice(i, i + BATCH);
      // which are stored already, for the journal's operation (the unit of work holds the tenant's writers off)
      const stored = new Set(
        (
          await this.db
            .selectFrom('training_canonical_control')
            .select('id')
            .where('tenant_id', '=', tenant)
            .where(
              'id',
              'in',
              slice.map((c) => c.id),
            )
            .execute()
        ).map((r) => r.id),
      );
      for (const c of slice) {
        const row = { ...c, tenant_id: tenant, references: JSON.stringify(c.references), updated_at: now };
        const written = await this.db
          .insertInto('training_canonical_control')
          .values(row)
          .onConflict((oc) => oc.columns(['tenant_id', 'id']).doUpdateSet({ ...row }))
          .returningAll()
          .execute();
        for (const r of written)
          this.journal.put('training_canonical_control', r.id, r, stored.has(r.id) ? 'update' : 'insert');
      }
    }
  }
}
