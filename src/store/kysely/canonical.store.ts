import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { isoZ, type Clock } from '../../domain/clock.js';
import { DomainError } from '../../domain/errors.js';
import { CanonicalControl } from '../../domain/training-blocks/canonical.schema.js';
import type { CanonicalStore } from '../../domain/training-blocks/canonical.service.js';
import { writeTransaction } from '../transaction.js';
import type { DB } from '../db-types.js';
import { fixturePath } from '../../backend/local/package-files.js';
import { readOnly, type Recorder } from '../journal/journal-writer.js';

let builtin: Promise<CanonicalControl[]> | undefined;

/** The catalogue shipped in fixtures/training/canonical-controls.json, validated once per process. */
export function builtinControls(): Promise<CanonicalControl[]> {
  builtin ??= (async () => {
    const file = fixturePath('training', 'canonical-controls.json');
    const parsed = CanonicalControl.array().safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (!parsed.success)
      throw new DomainError('internal', `the shipped control catalogue ${file} is invalid: ${parsed.error.message}`);
    return parsed.data;
  })();
  return builtin;
}

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
